import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { UPI, adjust, balanceOf } from '../finance/testing.ts';
import { type TestServer, startTestServer } from '../testing/server.ts';
import { ProjectionThread } from './thread.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

/**
 * Where the projections and the event store's commits run is a deployment choice (PROJECTIONS,
 * EVENT_STORE_WRITER); what a client sees must not depend on it.
 */
describe.each([
  { PROJECTIONS: 'thread', EVENT_STORE_WRITER: 'thread' },
  { PROJECTIONS: 'inline', EVENT_STORE_WRITER: 'inline' },
  { PROJECTIONS: 'thread', EVENT_STORE_WRITER: 'inline' },
  { PROJECTIONS: 'inline', EVENT_STORE_WRITER: 'thread' },
])('PROJECTIONS=$PROJECTIONS, EVENT_STORE_WRITER=$EVENT_STORE_WRITER', (env) => {
  it('answers a command once its own effect is readable: concurrent withdrawals, each seen at once', async () => {
    const server = await startTestServer(env);
    servers.push(server);
    expect(server.runner instanceof ProjectionThread).toBe(env.PROJECTIONS === 'thread');
    const finance = await server.signUp({ roles: ['finance'] });
    const users = await Promise.all(Array.from({ length: 8 }, () => server.signUp()));
    // ₹500 each: ₹4,000 in all stays within one member's daily limit across users (₹5,000).
    for (const user of users) await adjust(finance, user.mobile, 500);
    // 8 users × 3 withdrawals of ₹100 in flight at once: batches of several appends per commit.
    const answers = await Promise.all(
      users.flatMap((user) =>
        Array.from({ length: 3 }, async () => {
          const res = await user.post('/api/withdrawals', { amount: '100.00', upiId: UPI });
          // Read-your-writes: the withdrawal and the lowered balance are there the moment it answers.
          const list = await user.get<Array<{ id: string }>>('/api/withdrawals');
          return { status: res.status, id: (res.body as { id: string }).id, listed: list.body.map((w) => w.id) };
        }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      expect(answer.listed).toContain(answer.id);
    }
    for (const user of users) expect(await balanceOf(user)).toBe('200.00');
    const status = await server.runner.status();
    expect(status.length).toBeGreaterThan(0);
    expect(status.every((model) => model.state === 'live')).toBe(true);
    expect(server.runner.failed).toBeNull();
  });

  it('stops at a checkpoint: after close, the read database is at the event store head; a pending wait settles false', async () => {
    const server = await startTestServer(env);
    const user = await server.signUp();
    await user.put('/api/profile', { firstName: 'Asha', lastName: 'Verma' });
    const head = await server.store.headPosition();
    const dataDir = server.dataDir;
    // A wait for a position nobody appends (an outbox sender's, say) settles false with the stop, not at its timeout.
    const waiting = server.runner.waitFor(head + 1, 600_000);
    await server.runner.stop();
    await expect(waiting).resolves.toBe(false);
    const read = new Database(join(dataDir, 'read.sqlite'), { readonly: true });
    try {
      const positions = read.prepare('SELECT position FROM checkpoints').pluck().all() as number[];
      expect(positions.length).toBeGreaterThan(0);
      for (const position of positions) expect(position).toBe(head);
    } finally {
      read.close();
    }
    await server.close();
  });
});
