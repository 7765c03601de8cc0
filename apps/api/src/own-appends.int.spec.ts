import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteEventStore } from './event-store/sqlite.ts';
import { onOwnAppendsOf } from './own-appends.ts';

const dir = mkdtempSync(join(tmpdir(), 'kamai-own-appends-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const event = (type: string) => [{ id: crypto.randomUUID(), type, data: { n: 1 } }];

describe('reacting to this process’s own appends', () => {
  it('reacts to an append of a watched type, not to events of that type the log held before the process started', async () => {
    const file = join(dir, 'events.sqlite');
    // An earlier process left events of the watched type in the log.
    const earlier = openSqliteEventStore(file);
    for (let i = 0; i < 3; i++) await earlier.append(`stream-${i}`, event('WithdrawalPaid'), 'no_stream');
    await earlier.close();

    const store = openSqliteEventStore(file);
    try {
      let reactions = 0;
      const stop = onOwnAppendsOf(store, ['WithdrawalPaid'], () => (reactions += 1));
      // This process's first append is of another type: nothing of the watched type is new.
      await store.append('other', event('WalletCredited'), 'no_stream');
      expect(reactions).toBe(0);
      await store.append('paid', event('WithdrawalPaid'), 'no_stream');
      expect(reactions).toBe(1);
      stop();
      await store.append('paid', event('WithdrawalPaid'), 0);
      expect(reactions).toBe(1);
    } finally {
      await store.close();
    }
  });
});
