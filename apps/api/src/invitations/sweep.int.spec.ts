import type { EventStore } from '@kamai/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../finance/testing.ts';
import { createTaskAs, submitProof, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, freshMobile, startTestServer } from '../testing/index.ts';

/**
 * The store, noting the stream each call names (a read, or the cache's check that a stream is
 * current): the seam the crash tests use to wrap it.
 */
function notingStreams<S extends EventStore>(store: S, touched: string[]): S {
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof args[0] === 'string') touched.push(args[0]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('the invitation sweep reads only the invitations whose bonus is due (docs/invitations.md)', () => {
  const touched: string[] = [];
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({}, { decorateStore: (store) => notingStreams(store, touched) });
  });
  afterAll(() => server?.close());

  async function register(code: string): Promise<TestClient & { userId: string }> {
    const client = server.client();
    const res = await client.post<{ id: string }>('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'Invited', lastName: 'Friend', consent: true, inviteCode: code });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Object.assign(client, { userId: res.body.id });
  }

  it('leaves a waiting invitee unread, and pays one whose first task was approved', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    const reviewer = await server.signUp({ roles: ['reviewer'] });
    const task = await createTaskAs(admin, { rupeeReward: '150', title: 'Rate the sweep' });
    const inviter = await server.signUp();
    const code = (await inviter.get<{ code: string }>('/api/profile/invite')).body.code;
    const waiting = await register(code);
    const ready = await register(code);

    // Nothing is due yet: the sweep touches neither invitee's streams.
    const streamsOf = (person: { userId: string }) => touched.filter((id) => id.includes(person.userId));
    touched.length = 0;
    expect(await server.sweepInvitations()).toBe(0);
    expect([...streamsOf(waiting), ...streamsOf(ready)]).toEqual([]);

    const sent = await submitProof(ready, task.id, await uploadedImage(server, ready));
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect((await reviewer.post(`/api/admin/submissions/${(sent.body as { submissionId: string }).submissionId}/approve`)).status).toBe(200);

    // Paid by this sweep, or by the one this process runs after its own approval: either way once.
    touched.length = 0;
    await server.sweepInvitations();
    // The other sweep may still be paying it when this one returns.
    await expect.poll(() => balanceOf(ready), { timeout: 10_000, interval: 50 }).toBe('175.00');
    expect(streamsOf(waiting)).toEqual([]);
    expect(await balanceOf(waiting)).toBe('0.00');
  });
});
