import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb, sqliteConnectionOf, writeTransaction, writerOf } from './db.ts';
import { journalProjection } from './journal/projection.ts';
import { notificationsProjection } from './notifications/projection.ts';
import { RowWriter } from './rows.ts';
import { createTables } from './tables.ts';
import { rowsOf } from './testing.ts';

let dir: string;
let db: ReadDbHandle;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kamai-rows-'));
  db = await openReadDb(join(dir, 'read.sqlite'));
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const notification = (id: string, position: number) => ({
  id,
  user_id: 'u1',
  title: 'T',
  message: 'M',
  message_key: null,
  params: null,
  type: 'info',
  is_read: 0,
  created_at: '2026-11-21T10:00:00.000Z',
  position,
});

describe('the row writer', () => {
  it('inserts, updates (set, add, lt), upserts (ignore, set, add), deletes and reads, in the caller transaction', async () => {
    await writeTransaction(db, (trx) => {
      const rows = writerOf(trx);
      for (const [id, position] of [['n1', 1], ['n2', 2], ['n3', 3]] as const) rows.insert('notifications', notification(id, position));
      expect(rows.update('notifications', { user_id: 'u1', position: { lt: 3 } }, { set: { is_read: 1 } })).toBe(2);
      expect(rows.delete('notifications', { id: 'n2', user_id: 'u1' })).toBe(1);
      rows.upsert('notifications', { ...notification('n1', 9), title: 'ignored' }, { conflict: ['id'] });
      rows.upsert('notifications', { ...notification('n3', 3), title: 'replaced' }, { conflict: ['id'], set: ['title'] });
      rows.upsert('journal_balances', { account: 'a', debit_paise: 5, credit_paise: 0 }, { conflict: ['account'], add: ['debit_paise', 'credit_paise'] });
      rows.upsert('journal_balances', { account: 'a', debit_paise: 2, credit_paise: 7 }, { conflict: ['account'], add: ['debit_paise', 'credit_paise'] });
      expect(rows.update('journal_balances', { account: 'a' }, { add: { credit_paise: -1 } })).toBe(1);
      expect(rows.get('journal_balances', { account: 'a' }, ['debit_paise', 'credit_paise'])).toEqual({ debit_paise: 7, credit_paise: 6 });
      expect(rows.get('journal_balances', { account: 'none' }, ['debit_paise'])).toBeUndefined();
      expect(rows.all('notifications', { user_id: 'u1' }, ['id', 'title', 'is_read'])).toEqual([
        { id: 'n1', title: 'T', is_read: 1 },
        { id: 'n3', title: 'replaced', is_read: 0 },
      ]);
    });
    expect((await rowsOf(db, 'notifications')).map((r) => r['id'])).toEqual(['n1', 'n3']);
  });

  it('rolls back with the transaction, and refuses a value that is no column value or a change without a condition', async () => {
    await expect(
      writeTransaction(db, (trx) => {
        writerOf(trx).insert('notifications', notification('n1', 1));
        writerOf(trx).insert('notifications', notification('n1', 2));
      }),
    ).rejects.toThrow(/UNIQUE/);
    expect(await rowsOf(db, 'notifications')).toEqual([]);
    await writeTransaction(db, (trx) => {
      const rows = writerOf(trx);
      expect(() => rows.insert('notifications', { ...notification('n1', 1), is_read: true as unknown as number })).toThrow(/is_read: boolean/);
      expect(() => rows.update('notifications', {}, { set: { is_read: 1 } })).toThrow(/without a condition/);
      expect(() => rows.delete('notifications', {})).toThrow(/without a condition/);
    });
  });

  it('reads every row of a table for an empty condition', async () => {
    await writeTransaction(db, (trx) => {
      const rows = writerOf(trx);
      rows.insert('notifications', notification('n1', 1));
      rows.insert('notifications', notification('n2', 2));
      expect(rows.all('notifications', {}, ['id'])).toEqual([{ id: 'n1' }, { id: 'n2' }]);
      expect(rows.get('notifications', {}, ['id'])).toEqual({ id: 'n1' });
    });
  });

  it("reuses a table's last insert or upsert only for a row of the very same columns (and the same `on`)", async () => {
    const add = { conflict: ['account'], add: ['debit_paise', 'credit_paise'] } as const;
    const ignore = { conflict: ['account'] } as const;
    await writeTransaction(db, (trx) => {
      const rows = writerOf(trx);
      rows.insert('notifications', notification('n1', 1));
      // A column left undefined, then the same columns in another order, then the first shape again.
      rows.insert('notifications', { ...notification('n2', 2), params: undefined, title: 'two' });
      const { position, id, ...rest } = notification('n3', 3);
      rows.insert('notifications', { position, ...rest, id, message: 'three' });
      rows.insert('notifications', { ...notification('n4', 4), params: '{"a":1}' });
      // The last shape's columns and one more, then only its first ones.
      const user = { id: 'u1', mobile: '9000000001', password_hash: 'h', created_at: 'c', updated_at: 'u' };
      rows.insert('users', user);
      rows.insert('users', { ...user, id: 'u2', mobile: '9000000002', email: 'e@x.in' });
      rows.insert('users', { ...user, id: 'u3', mobile: '9000000003' });
      // Same table and columns, another `on`: its own action.
      rows.upsert('journal_balances', { account: 'a', debit_paise: 5, credit_paise: 1 }, add);
      rows.upsert('journal_balances', { account: 'a', debit_paise: 5, credit_paise: 1 }, add);
      rows.upsert('journal_balances', { account: 'a', debit_paise: 100, credit_paise: 100 }, ignore);
      rows.upsert('journal_balances', { account: 'a', debit_paise: 1, credit_paise: 1 }, add);
    });
    expect((await rowsOf(db, 'notifications')).map((r) => [r['id'], r['title'], r['message'], r['params'], r['position']])).toEqual([
      ['n1', 'T', 'M', null, 1],
      ['n2', 'two', 'M', null, 2],
      ['n3', 'T', 'three', null, 3],
      ['n4', 'T', 'M', '{"a":1}', 4],
    ]);
    expect((await rowsOf(db, 'users')).map((r) => [r['id'], r['mobile'], r['email']])).toEqual([
      ['u1', '9000000001', null],
      ['u2', '9000000002', 'e@x.in'],
      ['u3', '9000000003', null],
    ]);
    expect(await rowsOf(db, 'journal_balances')).toEqual([{ account: 'a', debit_paise: 11, credit_paise: 3 }]);
  });

  it("reuses a table's last update only for the very same columns set and added to and the same conditions", async () => {
    await writeTransaction(db, (trx) => {
      const rows = writerOf(trx);
      for (const [id, position] of [['n1', 1], ['n2', 2], ['n3', 3]] as const) rows.insert('notifications', notification(id, position));
      expect(rows.update('notifications', { id: 'n1', user_id: 'u1' }, { set: { is_read: 1 } })).toBe(1);
      // The same columns compared another way, then with a condition less, one more, and IS NULL.
      expect(rows.update('notifications', { id: 'n2', user_id: 'u1', position: { lt: 3 } }, { set: { is_read: 1 } })).toBe(1);
      expect(rows.update('notifications', { id: 'n3', user_id: 'u1', position: { lt: 3 } }, { set: { is_read: 1 } })).toBe(0);
      expect(rows.update('notifications', { id: 'n3' }, { set: { title: 'three' } })).toBe(1);
      expect(rows.update('notifications', { id: 'n3', params: null }, { set: { title: 'THREE' } })).toBe(1);
      expect(rows.update('notifications', { id: 'n3', message_key: 'k' }, { set: { title: 'no' } })).toBe(0);
      // set, then set and add, then add alone.
      rows.insert('journal_balances', { account: 'a', debit_paise: 0, credit_paise: 0 });
      expect(rows.update('journal_balances', { account: 'a' }, { set: { debit_paise: 5 } })).toBe(1);
      expect(rows.update('journal_balances', { account: 'a' }, { set: { debit_paise: 6 }, add: { credit_paise: 2 } })).toBe(1);
      expect(rows.update('journal_balances', { account: 'a' }, { add: { debit_paise: 1 } })).toBe(1);
      expect(rows.update('journal_balances', { account: 'a' }, { add: { credit_paise: 1 } })).toBe(1);
    });
    expect((await rowsOf(db, 'notifications')).map((r) => [r['id'], r['title'], r['is_read']])).toEqual([
      ['n1', 'T', 1],
      ['n2', 'T', 1],
      ['n3', 'THREE', 0],
    ]);
    expect(await rowsOf(db, 'journal_balances')).toEqual([{ account: 'a', debit_paise: 7, credit_paise: 3 }]);
  });

  it('writes the tables a mapping names (a build aside) and leaves the live ones alone', async () => {
    const shadowOf = (table: string) => `${table}__rtest`;
    await writeTransaction(db, async (trx) => {
      await createTables(trx, notificationsProjection, shadowOf);
      await createTables(trx, journalProjection, shadowOf);
      const shadow = new RowWriter(sqliteConnectionOf(trx), (table) => (table === 'notifications' ? shadowOf(table) : table));
      shadow.insert('notifications', notification('n1', 1));
      shadow.upsert('journal_balances', { account: 'a', debit_paise: 1, credit_paise: 0 }, { conflict: ['account'] });
    });
    expect(await rowsOf(db, 'notifications__rtest')).toHaveLength(1);
    expect(await rowsOf(db, 'notifications')).toEqual([]);
    expect(await rowsOf(db, 'journal_balances')).toEqual([{ account: 'a', debit_paise: 1, credit_paise: 0 }]);
    expect(await rowsOf(db, 'journal_balances__rtest')).toEqual([]);
  });

  it('writes behind for a build: adds summed per key, inserts many a statement, all written before any other call on the table and by flush', async () => {
    const BALANCE = { conflict: ['account'], add: ['debit_paise', 'credit_paise'] } as const;
    await writeTransaction(db, (trx) => {
      const sqlite = sqliteConnectionOf(trx);
      const written = () => sqlite.prepare<[], { n: number }>("SELECT count(*) AS n FROM journal_balances").get()!.n;
      const rows = new RowWriter(sqlite, undefined, { writeBehind: true });
      for (let i = 0; i < 70; i++) rows.insert('notifications', notification(`n${i}`, i + 1));
      for (let i = 0; i < 10; i++) {
        rows.upsert('journal_balances', { account: 'b', debit_paise: 1, credit_paise: 0 }, BALANCE);
        rows.upsert('journal_balances', { account: 'a', debit_paise: 0, credit_paise: 2 }, BALANCE);
      }
      // Nothing written yet; a read of the table writes its pending rows first.
      expect(written()).toBe(0);
      expect(rows.all('journal_balances', {}, ['account', 'debit_paise', 'credit_paise'])).toEqual([
        { account: 'b', debit_paise: 10, credit_paise: 0 },
        { account: 'a', debit_paise: 0, credit_paise: 20 },
      ]);
      // An upsert that sets is no sum: it writes the pending ones, then itself.
      rows.upsert('journal_balances', { account: 'a', debit_paise: 1, credit_paise: 1 }, BALANCE);
      rows.upsert('journal_balances', { account: 'b', debit_paise: 5, credit_paise: 5 }, { conflict: ['account'], set: ['debit_paise'] });
      expect(rows.get('journal_balances', { account: 'a' }, ['debit_paise', 'credit_paise'])).toEqual({ debit_paise: 1, credit_paise: 21 });
      expect(rows.update('notifications', { id: 'n69' }, { set: { is_read: 1 } })).toBe(1);
      rows.insert('notifications', notification('n70', 71));
      rows.flush();
    });
    expect((await rowsOf(db, 'notifications')).map((r) => r['id'])).toEqual(Array.from({ length: 71 }, (_, i) => `n${i}`));
    expect(await rowsOf(db, 'journal_balances')).toEqual([
      { account: 'b', debit_paise: 5, credit_paise: 0 },
      { account: 'a', debit_paise: 1, credit_paise: 21 },
    ]);
  });

  it('writes behind for a build: the updates of a key after its first change its row in memory, as SQLite would, until a flush', async () => {
    await writeTransaction(db, (trx) => {
      const sqlite = sqliteConnectionOf(trx);
      const stored = () => sqlite.prepare<[], { position: number; is_read: number }>("SELECT position, is_read FROM notifications WHERE id = 'n1'").get();
      const rows = new RowWriter(sqlite, undefined, { writeBehind: true });
      rows.insert('notifications', notification('n1', 1));
      rows.insert('notifications', notification('n2', 2));
      rows.flush();
      // The first update of n1 runs in SQL, the next ones in memory.
      expect(rows.update('notifications', { id: 'n1', position: { lt: 5 } }, { set: { position: 5 } })).toBe(1);
      expect(rows.update('notifications', { id: 'n1', position: { lt: 5 } }, { set: { position: 6 } })).toBe(0);
      expect(rows.update('notifications', { id: 'n1', position: { lt: 9 } }, { set: { position: 9 }, add: { is_read: 1 } })).toBe(1);
      expect(rows.update('notifications', { id: 'n1', user_id: 'u1', message_key: null }, { add: { is_read: 1 } })).toBe(1);
      expect(rows.update('notifications', { id: 'n1', user_id: 'u2' }, { add: { is_read: 1 } })).toBe(0);
      expect(rows.update('notifications', { id: 'none' }, { add: { is_read: 1 } })).toBe(0);
      expect(rows.update('notifications', { id: 'none' }, { add: { is_read: 1 } })).toBe(0);
      expect(stored()).toEqual({ position: 5, is_read: 0 });
      // A value of another type than the column's runs in SQL, after the row in memory is written.
      expect(rows.update('notifications', { id: 'n1' }, { set: { title: 7 as unknown as string } })).toBe(1);
      expect(stored()).toEqual({ position: 9, is_read: 2 });
      expect(rows.update('notifications', { id: 'n2' }, { add: { is_read: 1 } })).toBe(1);
      expect(rows.update('notifications', { id: 'n2' }, { add: { is_read: 1 } })).toBe(1);
      expect(rows.get('notifications', { id: 'n2' }, ['is_read'])).toEqual({ is_read: 2 });
      expect(rows.update('notifications', { id: 'n2' }, { set: { is_read: 0 } })).toBe(1);
      expect(rows.update('notifications', { id: 'n2' }, { set: { is_read: 5 } })).toBe(1);
      rows.flush();
    });
    expect((await rowsOf(db, 'notifications')).map((r) => [r['id'], r['title'], r['position'], r['is_read']])).toEqual([
      ['n1', '7.0', 9, 2],
      ['n2', 'T', 2, 5],
    ]);
  });

  it('writes behind for a build: an update by key of a row whose insert waits changes it there, as SQLite would; of another key, runs in SQL without writing the inserts', async () => {
    await writeTransaction(db, (trx) => {
      const sqlite = sqliteConnectionOf(trx);
      const written = () => sqlite.prepare<[], { id: string; is_read: number; position: number }>('SELECT id, is_read, position FROM notifications ORDER BY rowid').all();
      const rows = new RowWriter(sqlite, undefined, { writeBehind: true });
      sqlite.prepare("INSERT INTO notifications (id, user_id, title, message, type, is_read, created_at, position) VALUES ('old', 'u1', 'T', 'M', 'info', 0, 't', 0)").run();
      for (const [id, position] of [['n1', 1], ['n2', 2], ['n3', 3]] as const) rows.insert('notifications', notification(id, position));
      expect(rows.update('notifications', { id: 'n2', user_id: 'u1' }, { set: { is_read: 1 } })).toBe(1);
      // Conditions are checked against the waiting row: another user's, a position not below.
      expect(rows.update('notifications', { id: 'n2', user_id: 'u2' }, { set: { is_read: 7 } })).toBe(0);
      expect(rows.update('notifications', { id: 'n2', position: { lt: 2 } }, { set: { is_read: 7 } })).toBe(0);
      expect(rows.update('notifications', { id: 'n2', message_key: null }, { add: { is_read: 2 } })).toBe(1);
      // A key not waiting: SQL changes the row already written, or none, and the inserts still wait.
      expect(rows.update('notifications', { id: 'old' }, { set: { is_read: 1 } })).toBe(1);
      expect(rows.update('notifications', { id: 'none' }, { set: { is_read: 1 } })).toBe(0);
      expect(written()).toEqual([{ id: 'old', is_read: 1, position: 0 }]);
      // A row inserted after the first such update is found too.
      rows.insert('notifications', notification('n4', 4));
      expect(rows.update('notifications', { id: 'n4' }, { set: { is_read: 1, position: 40 } })).toBe(1);
      expect(written()).toHaveLength(1);
      // A value SQLite would convert: the inserts are written, then the update runs in SQL.
      expect(rows.update('notifications', { id: 'n3' }, { set: { title: 7 as unknown as string } })).toBe(1);
      expect(written()).toHaveLength(5);
      rows.flush();
    });
    expect((await rowsOf(db, 'notifications')).map((r) => [r['id'], r['title'], r['position'], r['is_read']])).toEqual([
      ['old', 'T', 0, 1],
      ['n1', 'T', 1, 0],
      ['n2', 'T', 2, 3],
      ['n3', '7.0', 3, 0],
      ['n4', 'T', 40, 1],
    ]);
  });
});

