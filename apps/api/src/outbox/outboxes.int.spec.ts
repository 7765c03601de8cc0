import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databasesForSpec } from '../event-store/postgres-testing.ts';
import { WebhookOutbox } from '../webhooks/outbox.ts';
import type { OutboxPlace } from './sql.ts';

/**
 * The webhook outbox on each of its places: a file of DATA_DIR (the processes on one machine) and
 * PostgreSQL (the nodes on one log). Two outboxes opened on one place stand for two processes: what
 * one takes in, claims or settles, the other sees. (Two real nodes: event-store/shared-outboxes.int.spec.ts.)
 */
const dir = mkdtempSync(join(tmpdir(), 'kamai-outbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const database = databasesForSpec();

const places: Array<[string, () => Promise<OutboxPlace>]> = [
  ['a SQLite file', async () => ({ file: join(dir, `webhooks-${Math.random()}.sqlite`) })],
  ['PostgreSQL', async () => ({ database: await database() })],
];

describe.each(places)('the webhook outbox in %s', (_, place) => {
  it('takes a delivery in once from both, lets one claim it, and shows both what was sent', async () => {
    const where = await place();
    const [one, two] = [new WebhookOutbox(where), new WebhookOutbox(where)];
    try {
      const queued = [
        { id: 'd1', endpoint_id: 'e1', queued_position: 3 },
        { id: 'd2', endpoint_id: 'e1', queued_position: 4 },
      ];
      one.take(queued, 1000);
      two.take(queued, 1000);
      expect([one.cursor(), two.cursor()]).toEqual([4, 4]);
      // An older take-in (a node whose read models are behind) moves nothing back.
      two.take([{ id: 'd1', endpoint_id: 'e1', queued_position: 3 }], 1500);
      expect(one.cursor()).toBe(4);

      const first = one.claim(2000, 30_000, 8);
      expect(first.map((s) => [s.deliveryId, s.generation, s.status])).toEqual([['d1', 3, 'pending'], ['d2', 4, 'pending']]);
      expect(two.claim(2000, 30_000, 8)).toEqual([]);

      one.delivered(first[0]!, 200, 2100);
      one.failed(first[1]!, 500, 'HTTP 500', 2100, 50);
      const states = two.states(['d1', 'd2', 'd3']);
      expect([...states.keys()]).toEqual(['d1', 'd2']);
      expect(states.get('d1')).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200, deliveredAt: 2100 });
      expect(states.get('d2')).toMatchObject({ status: 'pending', attempts: 1, nextAt: 2150, lastError: 'HTTP 500' });

      // The retry is the other's to take once due; a replay (a later generation) makes a delivered one pending again.
      expect(two.claim(2149, 30_000, 8)).toEqual([]);
      expect(two.claim(2150, 30_000, 8).map((s) => s.deliveryId)).toEqual(['d2']);
      two.take([{ id: 'd1', endpoint_id: 'e1', queued_position: 9 }], 3000);
      const replay = one.claim(3000, 30_000, 8);
      expect(replay.map((s) => [s.deliveryId, s.generation, s.attempts])).toEqual([['d1', 9, 0]]);
      one.release(replay);
      expect(two.claim(3000, 30_000, 8).map((s) => s.deliveryId)).toEqual(['d1']);
    } finally {
      one.close();
      two.close();
    }
  });
});
