import type { OutboxSql } from './sql.ts';

/**
 * What the outboxes of this server share (webhook deliveries, push alerts): rows due at a time, sent
 * by whichever API process (on one DATA_DIR, or on one PostgreSQL: outbox/sql.ts) claims them first.
 * A claim is a lease (`lease_until`): no other process takes the row until it lapses, so a row is
 * sent by one process at a time, and a process that dies mid-send leaves it to be taken again after
 * the lease. Each outbox keeps its own table and what it does after a send; this is only the claim,
 * its release and the wait before a retry.
 */
export interface LeasedTable {
  /** The table, with a `lease_until` column of ms (0 when unclaimed). */
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
  readonly #sql: OutboxSql;
  readonly #t: LeasedTable;
  readonly #dueWhere: string;

  constructor(sql: OutboxSql, table: LeasedTable) {
    this.#sql = sql;
    this.#t = table;
    this.#dueWhere = `${table.waiting ? `${table.waiting} AND ` : ''}${table.due} <= ? AND lease_until <= ?`;
  }

  /** The rows due at `now` and not claimed, soonest first (not claimed by this: see `claimOne`). */
  due<Row>(now: number, limit: number, columns = '*'): Row[] {
    return this.#sql.all<Row>(`SELECT ${columns} FROM ${this.#t.table} WHERE ${this.#dueWhere} ORDER BY ${this.#t.due} LIMIT ?`, now, now, limit);
  }

  /**
   * Claims up to `limit` rows due at `now` for `leaseMs`: no other process takes them meanwhile. Each
   * row is taken by an UPDATE that re-checks it is still due and unclaimed, so of two processes that
   * saw the same row one gets it.
   */
  claim<Row>(now: number, leaseMs: number, limit: number): Row[] {
    // Most rounds find nothing due: a plain read then, not a write lock every second.
    const keys = this.due<Record<string, string>>(now, limit, this.#t.key).map((row) => row[this.#t.key]!);
    if (keys.length === 0) return [];
    const take = `UPDATE ${this.#t.table} SET lease_until = ? WHERE ${this.#t.key} = ? AND ${this.#dueWhere} RETURNING *`;
    return this.#sql.transaction(() => keys.flatMap((key) => this.#sql.all<Row>(take, now + leaseMs, key, now, now)));
  }

  /** Claims one row for `leaseMs` just before it is sent, unless another process has since: whether this one has it. */
  claimOne(key: string, now: number, leaseMs: number): boolean {
    return this.#sql.all(`UPDATE ${this.#t.table} SET lease_until = ? WHERE ${this.#t.key} = ? AND lease_until <= ? RETURNING 1`, now + leaseMs, key, now).length === 1;
  }

  /**
   * Gives claimed rows back unsent (the process stops): another process, or the next start, takes
   * them at once. `also` narrows each release (e.g. to the generation that was claimed).
   */
  release(rows: Iterable<{ key: string; also?: Record<string, string | number> }>): void {
    for (const { key, also = {} } of rows) {
      const extra = Object.keys(also).map((column) => ` AND ${column} = ?`).join('');
      this.#sql.run(`UPDATE ${this.#t.table} SET lease_until = 0 WHERE ${this.#t.key} = ?${extra}`, key, ...Object.values(also));
    }
  }
}
