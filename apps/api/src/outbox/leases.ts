import type Database from 'better-sqlite3';

/**
 * What the outboxes of this server share (webhook deliveries in webhooks.sqlite, alerts in
 * push.sqlite): rows due at a time, sent by whichever API process on DATA_DIR claims them first. A
 * claim is a lease (`lease_until`): no other process takes the row until it lapses, so a row is sent
 * by one process at a time, and a process that dies mid-send leaves it to be taken again after the
 * lease. Each outbox keeps its own table, file and what it does after a send; this is only the claim,
 * its release and the wait before a retry.
 */
export interface LeasedTable {
  /** The table, with an INTEGER `lease_until` column (0 when unclaimed). */
  table: string;
  /** Its key column. */
  key: string;
  /** The column holding when a row is due (ms). */
  due: string;
  /** Rows that are not waiting to be sent are left alone (e.g. `status = 'pending'`); none when every row waits. */
  waiting?: string;
}

/** How long the `attempts`-th failure waits before the next try: `firstMs`, doubling each time, at most `maxMs`. */
export function retryDelay(firstMs: number, attempts: number, maxMs: number): number {
  return Math.min(firstMs * 2 ** Math.max(0, attempts - 1), maxMs);
}

export class Leases {
  readonly #db: Database.Database;
  readonly #t: LeasedTable;
  readonly #dueWhere: string;

  constructor(db: Database.Database, table: LeasedTable) {
    this.#db = db;
    this.#t = table;
    this.#dueWhere = `${table.waiting ? `${table.waiting} AND ` : ''}${table.due} <= ? AND lease_until <= ?`;
  }

  /** The rows due at `now` and not claimed, soonest first (not claimed by this: see `claimOne`). */
  due<Row>(now: number, limit: number, columns = '*'): Row[] {
    return this.#db.prepare(`SELECT ${columns} FROM ${this.#t.table} WHERE ${this.#dueWhere} ORDER BY ${this.#t.due} LIMIT ?`).all(now, now, limit) as Row[];
  }

  /** Claims up to `limit` rows due at `now` for `leaseMs`, in one write transaction: no other process takes them meanwhile. */
  claim<Row>(now: number, leaseMs: number, limit: number): Row[] {
    // Most rounds find nothing due: a plain read then, not a write lock on the file every second.
    if (this.due(now, 1, '1').length === 0) return [];
    return this.#db
      .transaction(() => {
        const rows = this.due<Row & Record<string, unknown>>(now, limit);
        const lease = this.#db.prepare(`UPDATE ${this.#t.table} SET lease_until = ? WHERE ${this.#t.key} = ?`);
        for (const row of rows) lease.run(now + leaseMs, row[this.#t.key]);
        return rows as Row[];
      })
      .immediate();
  }

  /** Claims one row for `leaseMs` just before it is sent, unless another process has since: whether this one has it. */
  claimOne(key: string, now: number, leaseMs: number): boolean {
    return this.#db.prepare(`UPDATE ${this.#t.table} SET lease_until = ? WHERE ${this.#t.key} = ? AND lease_until <= ?`).run(now + leaseMs, key, now).changes === 1;
  }

  /**
   * Gives claimed rows back unsent (the process stops): another process, or the next start, takes
   * them at once. `also` narrows each release (e.g. to the generation that was claimed).
   */
  release(rows: Iterable<{ key: string; also?: Record<string, string | number> }>): void {
    for (const { key, also = {} } of rows) {
      const extra = Object.keys(also).map((column) => ` AND ${column} = ?`).join('');
      this.#db.prepare(`UPDATE ${this.#t.table} SET lease_until = 0 WHERE ${this.#t.key} = ?${extra}`).run(key, ...Object.values(also));
    }
  }
}
