/**
 * The PostgreSQL event store's tables and its append (postgres.ts), created at open in one
 * transaction under an advisory lock, so several nodes starting at once do not race each other's
 * CREATE statements.
 *
 * - events: `position` is the global order, handed out by `kamai.append` (below), never by a
 *   column default; `transaction_id` is the appending transaction's id (xid8, never wraps), which
 *   readers compare with the oldest running transaction to stay gap-free. `data` and `metadata` are
 *   `json`, which keeps the text as written: the hash chain covers exactly those bytes.
 * - streams: each stream's last revision and chain hash (the chain's recorded heads), locked by an
 *   append for its revision check.
 * - snapshots, ledger_checkpoints: as in the embedded store.
 */

/** Session advisory lock held only while `kamai.append` takes a transaction id and positions. */
export const POSITION_LOCK = 0x6b616d6169;
/** The first key of the per-stream transaction locks (the second is the stream id's hash). */
const STREAM_LOCKS = 0x6b616d61;
/** Serialises the schema's creation between nodes starting together. */
const SCHEMA_LOCK = 0x6b616d6170;
/** The channel each append notifies at commit (payload: kamai.notice, its last position and streams). */
export const CHANNEL = 'kamai_events';

export const SCHEMA_SQL = `
  SELECT pg_advisory_xact_lock(${SCHEMA_LOCK});
  CREATE SCHEMA IF NOT EXISTS kamai;
  CREATE SEQUENCE IF NOT EXISTS kamai.positions;
  CREATE TABLE IF NOT EXISTS kamai.events (
    position       bigint      PRIMARY KEY,
    transaction_id xid8        NOT NULL,
    event_id       uuid        NOT NULL UNIQUE,
    stream_id      text        NOT NULL,
    revision       bigint      NOT NULL,
    type           text        NOT NULL,
    data           json        NOT NULL,
    metadata       json        NOT NULL,
    recorded_at    timestamptz NOT NULL,
    hash           text        NOT NULL,
    prev_hash      text,
    UNIQUE (stream_id, revision)
  );
  CREATE TABLE IF NOT EXISTS kamai.streams (
    stream_id text   PRIMARY KEY,
    revision  bigint NOT NULL,
    hash      text   NOT NULL,
    position  bigint NOT NULL,
    -- The transaction that last moved the head: readers report a head only once it is readable.
    transaction_id xid8 NOT NULL
  );
  CREATE TABLE IF NOT EXISTS kamai.snapshots (
    stream_id text    PRIMARY KEY,
    revision  bigint  NOT NULL,
    version   integer NOT NULL,
    state     json    NOT NULL
  );
  CREATE TABLE IF NOT EXISTS kamai.ledger_checkpoints (
    position    bigint PRIMARY KEY,
    hash        text   NOT NULL,
    mac         text   NOT NULL,
    recorded_at text   NOT NULL
  );
  -- What an append notifies: [its last position, the streams it wrote], or the position alone when the
  -- streams would not fit in a notification (8,000 bytes), which the nodes take as any stream.
  CREATE OR REPLACE FUNCTION kamai.notice(p_last bigint, p_streams text[]) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN octet_length(t) < 7900 THEN t ELSE json_build_array(p_last)::text END
    FROM (SELECT (jsonb_build_array(p_last) || to_jsonb(p_streams))::text AS t) n
  $$;
  -- The transaction's id and p_count positions, under a short session lock, so between appending
  -- transactions the order of ids is the order of positions (see kamai.append). The lock is let go
  -- however the block ends, a cancel (query_canceled, which OTHERS does not catch) included.
  CREATE OR REPLACE FUNCTION kamai.take_positions(p_count integer, OUT first bigint, OUT xid text)
  LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_advisory_lock(${POSITION_LOCK});
    BEGIN
      xid := pg_current_xact_id()::text;
      first := nextval('kamai.positions');
      IF p_count > 1 THEN
        PERFORM setval('kamai.positions', first + p_count - 1);
      END IF;
    EXCEPTION WHEN query_canceled OR others THEN
      PERFORM pg_advisory_unlock(${POSITION_LOCK});
      RAISE;
    END;
    PERFORM pg_advisory_unlock(${POSITION_LOCK});
  END
  $$;
  -- Whether an expected revision holds for a stream at revision p_actual (-1: no stream).
  -- p_expected: a revision, or -1 no stream, -2 any, -3 the stream exists.
  CREATE OR REPLACE FUNCTION kamai.expected_holds(p_expected bigint, p_actual bigint) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $$
    SELECT p_expected = -2 OR (p_expected = -1 AND p_actual = -1) OR (p_expected = -3 AND p_actual >= 0) OR (p_expected >= 0 AND p_actual = p_expected)
  $$;
  -- Writes one append's events at positions from p_first, after the stream's revision p_actual and
  -- chain head p_hash, and moves the stream's head; answers the new head. The chain hashes are
  -- chain.ts chainHashOf's: the caller passes each event's part after the revision, p_rests, and the
  -- stream id as JSON, so the bytes hashed are exactly those.
  CREATE OR REPLACE FUNCTION kamai.write_events(p_stream text, p_stream_json text, p_actual bigint, p_hash text, p_first bigint,
      p_ids uuid[], p_types text[], p_data text[], p_metadata text[], p_rests text[]) RETURNS text
  LANGUAGE plpgsql AS $$
  DECLARE
    v_count integer := cardinality(p_ids);
    v_hash text := p_hash;
    v_hashes text[] := '{}';
    v_prevs text[] := '{}';
  BEGIN
    FOR i IN 1..v_count LOOP
      v_prevs[i] := v_hash;
      v_hash := encode(sha256(convert_to('["' || coalesce(v_hash, '') || '",' || p_stream_json || ',' || (p_actual + i)::text || ',' || p_rests[i], 'UTF8')), 'hex');
      v_hashes[i] := v_hash;
    END LOOP;
    INSERT INTO kamai.events (position, transaction_id, event_id, stream_id, revision, type, data, metadata, recorded_at, hash, prev_hash)
      SELECT p_first + u.o - 1, pg_current_xact_id(), u.id, p_stream, p_actual + u.o, u.t, u.d::json, u.m::json, now(), u.h, u.ph
      FROM unnest(p_ids, p_types, p_data, p_metadata, v_hashes, v_prevs) WITH ORDINALITY AS u(id, t, d, m, h, ph, o);
    INSERT INTO kamai.streams (stream_id, revision, hash, position, transaction_id) VALUES (p_stream, p_actual + v_count, v_hash, p_first + v_count - 1, pg_current_xact_id())
      ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, hash = excluded.hash, position = excluded.position, transaction_id = excluded.transaction_id;
    RETURN v_hash;
  END
  $$;
  -- Every append, in one statement (one round trip, autocommit). It waits for the stream's turn (a
  -- transaction lock on its name's hash, which takes no transaction id), so a stream's appends take
  -- their positions in the order of their revisions, and reads the stream's revision and chain head;
  -- an expected revision that does not hold ends it there (no last_position), having taken nothing.
  -- Then, under a short session lock, it takes the transaction's id and its positions, so between
  -- appending transactions the order of ids is the order of positions: every event of a transaction
  -- whose id is below the oldest running one lies below every event still to commit, and readers
  -- that stop there never skip a late commit (postgres.ts; kamai.take_positions). Last, the chain hashes,
  -- the rows and the head (kamai.write_events), and the NOTIFY sent at commit.
  CREATE OR REPLACE FUNCTION kamai.append(p_stream text, p_stream_json text, p_expected bigint,
      p_ids uuid[], p_types text[], p_data text[], p_metadata text[], p_rests text[],
      OUT actual bigint, OUT last_position bigint, OUT xid text)
  LANGUAGE plpgsql AS $$
  DECLARE
    v_count integer := cardinality(p_ids);
    v_first bigint;
    v_hash text;
  BEGIN
    PERFORM pg_advisory_xact_lock(${STREAM_LOCKS}, hashtext(p_stream));
    SELECT s.revision, s.hash INTO actual, v_hash FROM kamai.streams s WHERE s.stream_id = p_stream;
    actual := coalesce(actual, -1);
    IF NOT kamai.expected_holds(p_expected, actual) THEN
      RETURN;
    END IF;
    SELECT t.first, t.xid INTO v_first, xid FROM kamai.take_positions(v_count) t;
    PERFORM kamai.write_events(p_stream, p_stream_json, actual, v_hash, v_first, p_ids, p_types, p_data, p_metadata, p_rests);
    last_position := v_first + v_count - 1;
    PERFORM pg_notify('${CHANNEL}', kamai.notice(last_position, ARRAY[p_stream]));
  END
  $$;
  -- Several appends in one transaction (one round trip, one commit): what kamai.append does for one,
  -- for each of p_batch's [{s: stream, sj: stream as JSON, e: expected, ev: [{id, t, d, m, r}]}] in
  -- order, answering one row per append (k from 0; no last_position where its expected revision did
  -- not hold, which takes nothing and fails no other). It takes every stream's turn first, in the
  -- order of the locks' keys, so two batches never wait on each other; the transaction id and all the
  -- positions under one short session lock (kamai.take_positions); one NOTIFY. A unique violation (an event id already
  -- written) fails the whole batch, and the caller appends its members one by one.
  CREATE OR REPLACE FUNCTION kamai.append_batch(p_batch text)
    RETURNS TABLE (k integer, actual bigint, last_position bigint, xid text)
  LANGUAGE plpgsql AS $$
  DECLARE
    v_batch jsonb := p_batch::jsonb;
    v_n integer := jsonb_array_length(v_batch);
    v_revisions jsonb := '{}';
    v_heads jsonb := '{}';
    v_ok boolean[] := '{}';
    v_actual bigint[] := '{}';
    v_total integer := 0;
    v_next bigint;
    v_xid text;
    v_a jsonb;
    v_s text;
    v_e bigint;
    v_r bigint;
    v_h text;
    v_count integer;
    v_ids uuid[];
    v_types text[];
    v_data text[];
    v_metadata text[];
    v_rests text[];
  BEGIN
    PERFORM pg_advisory_xact_lock(${STREAM_LOCKS}, l.key) FROM (SELECT DISTINCT hashtext(a->>'s') AS key FROM jsonb_array_elements(v_batch) a ORDER BY 1) l;
    FOR i IN 0..v_n - 1 LOOP
      v_a := v_batch->i;
      v_s := v_a->>'s';
      IF NOT v_revisions ? v_s THEN
        v_r := NULL;
        v_h := NULL;
        SELECT st.revision, st.hash INTO v_r, v_h FROM kamai.streams st WHERE st.stream_id = v_s;
        v_revisions := v_revisions || jsonb_build_object(v_s, coalesce(v_r, -1));
        v_heads := v_heads || jsonb_build_object(v_s, v_h);
      END IF;
      v_r := (v_revisions->>v_s)::bigint;
      v_e := (v_a->>'e')::bigint;
      v_actual[i + 1] := v_r;
      v_ok[i + 1] := kamai.expected_holds(v_e, v_r);
      IF v_ok[i + 1] THEN
        v_count := jsonb_array_length(v_a->'ev');
        v_revisions := v_revisions || jsonb_build_object(v_s, v_r + v_count);
        v_total := v_total + v_count;
      END IF;
    END LOOP;
    IF v_total > 0 THEN
      SELECT t.first, t.xid INTO v_next, v_xid FROM kamai.take_positions(v_total) t;
    END IF;
    FOR i IN 0..v_n - 1 LOOP
      k := i;
      actual := v_actual[i + 1];
      last_position := NULL;
      xid := NULL;
      IF v_ok[i + 1] THEN
        v_a := v_batch->i;
        v_s := v_a->>'s';
        SELECT array_agg((e->>'id')::uuid ORDER BY o), array_agg(e->>'t' ORDER BY o), array_agg(e->>'d' ORDER BY o), array_agg(e->>'m' ORDER BY o), array_agg(e->>'r' ORDER BY o)
          INTO v_ids, v_types, v_data, v_metadata, v_rests FROM jsonb_array_elements(v_a->'ev') WITH ORDINALITY AS x(e, o);
        v_heads := v_heads || jsonb_build_object(v_s, kamai.write_events(v_s, v_a->>'sj', actual, v_heads->>v_s, v_next, v_ids, v_types, v_data, v_metadata, v_rests));
        v_next := v_next + cardinality(v_ids);
        last_position := v_next - 1;
        xid := v_xid;
      END IF;
      RETURN NEXT;
    END LOOP;
    IF v_total > 0 THEN
      PERFORM pg_notify('${CHANNEL}', kamai.notice(v_next - 1, ARRAY(SELECT DISTINCT a->>'s' FROM jsonb_array_elements(v_batch) a)));
    END IF;
  END
  $$;
`;
