/**
 * The PostgreSQL event store's tables (postgres.ts), created at open in one transaction under an
 * advisory lock, so several nodes starting at once do not race each other's CREATE statements.
 *
 * - events: `position` is the global order, handed out by `begin_append` (below), never by a
 *   column default; `transaction_id` is the appending transaction's id (xid8, never wraps), which
 *   readers compare with the oldest running transaction to stay gap-free. `data` and `metadata` are
 *   `json`, which keeps the text as written: the hash chain covers exactly those bytes.
 * - streams: each stream's last revision and chain hash (the chain's recorded heads), locked by an
 *   append for its revision check.
 * - snapshots, ledger_checkpoints: as in the embedded store.
 */

/** Session advisory lock held only while `begin_append` takes a transaction id and positions. */
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
  -- The first statement of every append. It waits for the stream's turn (a transaction lock on its
  -- name's hash, which takes no transaction id), so a stream's appends take their positions in the
  -- order of their revisions. Then, under a short session lock, it takes the transaction's id and
  -- its positions, so between appending transactions the order of ids is the order of positions:
  -- every event of a transaction whose id is below the oldest running one lies below every event
  -- still to commit, and readers that stop there never skip a late commit (postgres.ts). That lock
  -- is let go however the block ends, a cancel (query_canceled, which OTHERS does not catch)
  -- included. Last, the stream's revision and chain head as its previous append left them.
  CREATE OR REPLACE FUNCTION kamai.begin_append(p_stream text, p_count integer,
      OUT first_position bigint, OUT xid text, OUT last_revision bigint, OUT last_hash text)
  LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(${STREAM_LOCKS}, hashtext(p_stream));
    PERFORM pg_advisory_lock(${POSITION_LOCK});
    BEGIN
      xid := pg_current_xact_id()::text;
      first_position := nextval('kamai.positions');
      IF p_count > 1 THEN
        PERFORM setval('kamai.positions', first_position + p_count - 1);
      END IF;
    EXCEPTION WHEN query_canceled OR others THEN
      PERFORM pg_advisory_unlock(${POSITION_LOCK});
      RAISE;
    END;
    PERFORM pg_advisory_unlock(${POSITION_LOCK});
    SELECT s.revision, s.hash INTO last_revision, last_hash FROM kamai.streams s WHERE s.stream_id = p_stream;
  END
  $$;
`;
