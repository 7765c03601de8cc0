import { WEBHOOK_RETRY_MAX_DELAY_MS, WEBHOOK_RETRY_WINDOW_MS, type WebhookDeliveryStatus } from '@kamai/contracts';
import { Leases, retryDelay as backoff } from '../outbox/leases.ts';
import { type OutboxPlace, type OutboxSql, openOutboxSql } from '../outbox/sql.ts';

/** A delivery's sending state: what the read model cannot know, kept apart so a rebuild of it sends nothing twice. */
export interface SendState {
  deliveryId: string;
  endpointId: string;
  /** The queued_position it was queued at: a replay queues it again at a later one. */
  generation: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  firstAt: number;
  nextAt: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: number | null;
}

interface SendRow {
  delivery_id: string;
  endpoint_id: string;
  generation: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  first_at: number;
  next_at: number;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
}

const stateOf = (r: SendRow): SendState => ({
  deliveryId: r.delivery_id,
  endpointId: r.endpoint_id,
  generation: r.generation,
  status: r.status,
  attempts: r.attempts,
  firstAt: r.first_at,
  nextAt: r.next_at,
  lastStatus: r.last_status,
  lastError: r.last_error,
  deliveredAt: r.delivered_at,
});

/** How long a failed attempt waits before the next: `first`, doubling each time, at most an hour. */
export function retryDelay(firstMs: number, attempts: number): number {
  return backoff(firstMs, attempts, WEBHOOK_RETRY_MAX_DELAY_MS);
}

/** The outbox's tables: in its own file, or in schema `kamai` beside the shared log. */
const TABLES = {
  sqlite: { sends: 'sends', cursor: 'cursor' },
  postgres: { sends: 'kamai.webhook_sends', cursor: 'kamai.webhook_cursor' },
};

/**
 * The sender's own record of each delivery (pending, delivered, failed, cancelled), its attempts and
 * next try, and the read model position it has taken deliveries in up to: DATA_DIR/webhooks.sqlite,
 * or PostgreSQL with the log (EVENT_STORE=postgres). Shared by every API process on DATA_DIR, or
 * every node on the database: a process claims a delivery for a while (a lease) before it sends it,
 * so two processes do not send it at once. Delivery ids and queued positions are the log's (every
 * node's read model queues the same ones), so the nodes' take-ins of one delivery make one row.
 */
export class WebhookOutbox {
  readonly #sql: OutboxSql;
  readonly #leases: Leases;
  readonly #t: (typeof TABLES)['sqlite'];

  constructor(place: OutboxPlace) {
    const pg = TABLES.postgres;
    this.#sql = openOutboxSql(place, {
      sqlite: `
      CREATE TABLE IF NOT EXISTS cursor (id INTEGER PRIMARY KEY CHECK (id = 1), queued_position INTEGER NOT NULL);
      INSERT OR IGNORE INTO cursor (id, queued_position) VALUES (1, 0);
      CREATE TABLE IF NOT EXISTS sends (
        delivery_id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, generation INTEGER NOT NULL, status TEXT NOT NULL,
        attempts INTEGER NOT NULL, first_at INTEGER NOT NULL, next_at INTEGER NOT NULL, lease_until INTEGER NOT NULL,
        last_status INTEGER, last_error TEXT, delivered_at INTEGER
      );
      CREATE INDEX IF NOT EXISTS sends_due ON sends (status, next_at);
      CREATE INDEX IF NOT EXISTS sends_endpoint ON sends (endpoint_id, status);
    `,
      postgres: `
      CREATE TABLE IF NOT EXISTS ${pg.cursor} (id integer PRIMARY KEY CHECK (id = 1), queued_position double precision NOT NULL);
      INSERT INTO ${pg.cursor} (id, queued_position) VALUES (1, 0) ON CONFLICT DO NOTHING;
      CREATE TABLE IF NOT EXISTS ${pg.sends} (
        delivery_id text PRIMARY KEY, endpoint_id text NOT NULL, generation double precision NOT NULL, status text NOT NULL,
        attempts integer NOT NULL, first_at double precision NOT NULL, next_at double precision NOT NULL, lease_until double precision NOT NULL,
        last_status integer, last_error text, delivered_at double precision
      );
      CREATE INDEX IF NOT EXISTS webhook_sends_due ON ${pg.sends} (status, next_at);
      CREATE INDEX IF NOT EXISTS webhook_sends_endpoint ON ${pg.sends} (endpoint_id, status)`,
    });
    this.#t = TABLES[this.#sql.kind];
    this.#leases = new Leases(this.#sql, { table: this.#t.sends, key: 'delivery_id', due: 'next_at', waiting: "status = 'pending'" });
  }

  /** The read model's queued_position up to which deliveries were taken in. */
  cursor(): number {
    return this.#sql.all<{ queued_position: number }>(`SELECT queued_position FROM ${this.#t.cursor} WHERE id = 1`)[0]!.queued_position;
  }

  /**
   * Takes in deliveries the read model queued: new ones are due now; one queued again (a replay, at
   * a later position) starts over as pending. Any process may do it, any number of times.
   */
  take(queued: ReadonlyArray<{ id: string; endpoint_id: string; queued_position: number }>, now: number): void {
    if (queued.length === 0) return;
    const upsert = `
      INSERT INTO ${this.#t.sends} AS sends (delivery_id, endpoint_id, generation, status, attempts, first_at, next_at, lease_until)
      VALUES (?, ?, ?, 'pending', 0, ?, ?, 0)
      ON CONFLICT (delivery_id) DO UPDATE SET generation = excluded.generation, status = 'pending', attempts = 0,
        first_at = excluded.first_at, next_at = excluded.next_at, lease_until = 0, last_status = NULL, last_error = NULL, delivered_at = NULL
      WHERE excluded.generation > sends.generation`;
    this.#sql.transaction(() => {
      for (const row of queued) this.#sql.run(upsert, row.id, row.endpoint_id, row.queued_position, now, now);
      const last = queued.reduce((max, row) => Math.max(max, row.queued_position), 0);
      this.#sql.run(`UPDATE ${this.#t.cursor} SET queued_position = ? WHERE id = 1 AND queued_position < ?`, last, last);
    });
  }

  /** Claims up to `limit` deliveries due at `now` for `leaseMs`: no other process sends them meanwhile. */
  claim(now: number, leaseMs: number, limit: number): SendState[] {
    return this.#leases.claim<SendRow>(now, leaseMs, limit).map(stateOf);
  }

  /** The receiver answered 2xx. Only the generation that was sent is settled (a replay meanwhile stays pending). */
  delivered(send: SendState, status: number, now: number): void {
    this.#sql.run(
      `UPDATE ${this.#t.sends} SET status = 'delivered', attempts = attempts + 1, last_status = ?, last_error = NULL, delivered_at = ?, lease_until = 0 WHERE delivery_id = ? AND generation = ?`,
      status, now, send.deliveryId, send.generation,
    );
  }

  /** An attempt failed: the next waits twice as long as the last, until 24 hours after the first; then it is `failed`. */
  failed(send: SendState, status: number | null, error: string, now: number, retryFirstMs: number): void {
    const attempts = send.attempts + 1;
    const next = now + retryDelay(retryFirstMs, attempts);
    const gaveUp = next > send.firstAt + WEBHOOK_RETRY_WINDOW_MS;
    this.#sql.run(
      `UPDATE ${this.#t.sends} SET status = ?, attempts = ?, next_at = ?, last_status = ?, last_error = ?, lease_until = 0 WHERE delivery_id = ? AND generation = ?`,
      gaveUp ? 'failed' : 'pending', attempts, gaveUp ? now : next, status, error.slice(0, 200), send.deliveryId, send.generation,
    );
  }

  /** Not sent and not tried again (its address is refused): `failed` now, with `reason`; a replay queues it again. */
  refused(send: SendState, reason: string, now: number): void {
    this.#sql.run(
      `UPDATE ${this.#t.sends} SET status = 'failed', attempts = attempts + 1, next_at = ?, last_status = NULL, last_error = ?, lease_until = 0 WHERE delivery_id = ? AND generation = ?`,
      now, reason, send.deliveryId, send.generation,
    );
  }

  /** The endpoint was deleted: what it has pending is never sent. */
  cancel(send: SendState): void {
    this.#sql.run(`UPDATE ${this.#t.sends} SET status = 'cancelled', lease_until = 0 WHERE delivery_id = ? AND generation = ?`, send.deliveryId, send.generation);
  }

  /** Gives claimed deliveries back unsent (this process stops): another process, or the next start, sends them at once. */
  release(sends: Iterable<SendState>): void {
    this.#leases.release([...sends].map((send) => ({ key: send.deliveryId, also: { generation: send.generation } })));
  }

  /** The sending state of these deliveries, by id (a delivery the sender has not taken in yet is absent). */
  states(ids: readonly string[]): Map<string, SendState> {
    const found = new Map<string, SendState>();
    for (const id of ids) {
      const [row] = this.#sql.all<SendRow>(`SELECT * FROM ${this.#t.sends} WHERE delivery_id = ?`, id);
      if (row) found.set(id, stateOf(row));
    }
    return found;
  }

  close(): void {
    this.#sql.close();
  }
}
