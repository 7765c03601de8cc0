import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Leases, retryDelay } from './leases.ts';
import { sqliteOutboxSql } from './sql.ts';

function table() {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE rows (id TEXT PRIMARY KEY, status TEXT NOT NULL, due INTEGER NOT NULL, generation INTEGER NOT NULL, lease_until INTEGER NOT NULL DEFAULT 0)");
  const insert = db.prepare('INSERT INTO rows (id, status, due, generation) VALUES (?, ?, ?, 1)');
  for (const [id, status, due] of [['a', 'pending', 10], ['b', 'pending', 5], ['c', 'done', 1], ['d', 'pending', 99]] as const) insert.run(id, status, due);
  return { db, leases: new Leases(sqliteOutboxSql(db), { table: 'rows', key: 'id', due: 'due', waiting: "status = 'pending'" }) };
}

describe('leases of an outbox table', () => {
  it('claims the due waiting rows soonest first, once until the lease lapses or is given back', () => {
    const { leases } = table();
    expect(leases.claim<{ id: string }>(20, 100, 10).map((r) => r.id)).toEqual(['b', 'a']);
    expect(leases.claim(20, 100, 10)).toEqual([]);
    expect(leases.claimOne('a', 50, 100)).toBe(false);
    // Given back only for the generation claimed.
    leases.release([{ key: 'a', also: { generation: 2 } }, { key: 'b', also: { generation: 1 } }]);
    expect(leases.due<{ id: string }>(50, 10).map((r) => r.id)).toEqual(['b']);
    // A lapsed lease (a process that died) is taken again.
    expect(leases.claim<{ id: string }>(120, 100, 10).map((r) => r.id)).toEqual(['b', 'a', 'd']);
  });

  it('waits twice as long after each failure, up to its cap', () => {
    expect([1, 2, 3, 4, 9].map((n) => retryDelay(30_000, n, 3_600_000))).toEqual([30_000, 60_000, 120_000, 240_000, 3_600_000]);
  });
});
