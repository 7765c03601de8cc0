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
/** The channel each append notifies at commit (payload: its last position). */
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
  -- Every append, in one statement (one round trip, autocommit). It waits for the stream's turn (a
  -- transaction lock on its name's hash, which takes no transaction id), so a stream's appends take
  -- their positions in the order of their revisions, and reads the stream's revision and chain head;
  -- an expected revision that does not hold ends it there (no last_position), having taken nothing.
  -- Then, under a short session lock, it takes the transaction's id and its positions, so between
  -- appending transactions the order of ids is the order of positions: every event of a transaction
  -- whose id is below the oldest running one lies below every event still to commit, and readers
  -- that stop there never skip a late commit (postgres.ts). That lock is let go however the block
  -- ends, a cancel (query_canceled, which OTHERS does not catch) included. Last, the chain hashes
  -- (chain.ts chainHashOf: the caller passes each event's part after the revision, p_rests, and the
  -- stream id as JSON, so the bytes hashed are exactly those), the rows, the head, and the NOTIFY
  -- sent at commit. p_expected: a revision, or -1 no stream, -2 any, -3 the stream exists.
  CREATE OR REPLACE FUNCTION kamai.append(p_stream text, p_stream_json text, p_expected bigint,
      p_ids uuid[], p_types text[], p_data text[], p_metadata text[], p_rests text[],
      OUT actual bigint, OUT last_position bigint, OUT xid text)
  LANGUAGE plpgsql AS $$
  DECLARE
    v_count integer := cardinality(p_ids);
    v_first bigint;
    v_hash text;
    v_hashes text[] := '{}';
    v_prevs text[] := '{}';
  BEGIN
    PERFORM pg_advisory_xact_lock(${STREAM_LOCKS}, hashtext(p_stream));
    SELECT s.revision, s.hash INTO actual, v_hash FROM kamai.streams s WHERE s.stream_id = p_stream;
    actual := coalesce(actual, -1);
    IF NOT (p_expected = -2 OR (p_expected = -1 AND actual = -1) OR (p_expected = -3 AND actual >= 0) OR (p_expected >= 0 AND actual = p_expected)) THEN
      RETURN;
    END IF;
    PERFORM pg_advisory_lock(${POSITION_LOCK});
    BEGIN
      xid := pg_current_xact_id()::text;
      v_first := nextval('kamai.positions');
      IF v_count > 1 THEN
        PERFORM setval('kamai.positions', v_first + v_count - 1);
      END IF;
    EXCEPTION WHEN query_canceled OR others THEN
      PERFORM pg_advisory_unlock(${POSITION_LOCK});
      RAISE;
    END;
    PERFORM pg_advisory_unlock(${POSITION_LOCK});
    FOR i IN 1..v_count LOOP
      v_prevs[i] := v_hash;
      v_hash := encode(sha256(convert_to('["' || coalesce(v_hash, '') || '",' || p_stream_json || ',' || (actual + i)::text || ',' || p_rests[i], 'UTF8')), 'hex');
      v_hashes[i] := v_hash;
    END LOOP;
    INSERT INTO kamai.events (position, transaction_id, event_id, stream_id, revision, type, data, metadata, recorded_at, hash, prev_hash)
      SELECT v_first + u.o - 1, pg_current_xact_id(), u.id, p_stream, actual + u.o, u.t, u.d::json, u.m::json, now(), u.h, u.ph
      FROM unnest(p_ids, p_types, p_data, p_metadata, v_hashes, v_prevs) WITH ORDINALITY AS u(id, t, d, m, h, ph, o);
    last_position := v_first + v_count - 1;
    INSERT INTO kamai.streams (stream_id, revision, hash, position, transaction_id) VALUES (p_stream, actual + v_count, v_hash, last_position, pg_current_xact_id())
      ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, hash = excluded.hash, position = excluded.position, transaction_id = excluded.transaction_id;
    PERFORM pg_notify('${CHANNEL}', last_position::text);
  END
  $$;
`;
