import { allProjections, rebuildReadModels } from '@kamai/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjust } from '../finance/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';

let server: TestServer;
let finance: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'] });
});
afterAll(async () => server?.close());

interface Notification {
  id: string;
  userId: string;
  title: string;
  message: string;
  type: string;
  isRead: boolean;
  createdAt: string;
}

/** A user with `count` notifications (each adjustment sends one), newest first. */
async function userWithNotifications(count: number) {
  const user = await server.signUp();
  for (let i = 0; i < count; i++) await adjust(finance, user.mobile, 10 + i);
  const list = (await user.get<Notification[]>('/api/notifications')).body;
  expect(list).toHaveLength(count);
  return { user, list };
}

describe('notifications over real HTTP', () => {
  it('lists only the caller’s own, newest first, with the spec fields', async () => {
    const { user, list } = await userWithNotifications(2);
    expect(list[0]).toEqual({
      id: expect.any(String),
      userId: user.userId,
      title: 'Wallet Credited',
      message: '₹11.00 was added to your wallet: Test funding',
      key: 'wallet_credited',
      params: { amountPaise: 1100, reason: 'Test funding' },
      type: 'success',
      isRead: false,
      createdAt: expect.any(String),
    });
    expect(list[1]?.message).toContain('₹10.00');
    const other = await server.signUp();
    expect((await other.get('/api/notifications')).body).toEqual([]);
    expect((await server.client().get('/api/notifications')).status).toBe(401);
  });

  it('marks one read, then all read, and deletes one; each answers 204', async () => {
    const { user, list } = await userWithNotifications(3);
    const [n1, n2, n3] = list as [Notification, Notification, Notification];
    const read = await user.put(`/api/notifications/${n2.id}/read`);
    expect(read.status).toBe(204);
    expect((await user.get<Notification[]>('/api/notifications')).body.map((n) => n.isRead)).toEqual([false, true, false]);
    expect((await user.put(`/api/notifications/${n2.id}/read`)).status).toBe(204); // already read: nothing to do
    expect((await user.put('/api/notifications/read-all')).status).toBe(204);
    expect((await user.get<Notification[]>('/api/notifications')).body.every((n) => n.isRead)).toBe(true);
    expect((await user.delete(`/api/notifications/${n1.id}`)).status).toBe(204);
    expect((await user.get<Notification[]>('/api/notifications')).body.map((n) => n.id)).toEqual([n2.id, n3.id]);
    expect((await user.delete(`/api/notifications/${n1.id}`)).status).toBe(404);
    expect((await user.put(`/api/notifications/${n1.id}/read`)).status).toBe(404);
  });

  it('treats someone else’s id, an unknown id and a malformed id as not found, and changes nothing', async () => {
    const { list: theirs } = await userWithNotifications(1);
    const { user: me } = await userWithNotifications(1);
    const target = theirs[0]!.id;
    for (const [method, path] of [
      ['PUT', `/api/notifications/${target}/read`],
      ['DELETE', `/api/notifications/${target}`],
      ['PUT', '/api/notifications/00000000-0000-4000-8000-000000000000/read'],
      ['DELETE', '/api/notifications/no%20such%20id'],
      ['PUT', `/api/notifications/${'x'.repeat(300)}/read`],
    ] as const) {
      const res = await me.request(method, path);
      expect(res.status, path).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', message: 'Notification not found' });
    }
    for (const [method, path] of [
      ['PUT', `/api/notifications/${target}/read`],
      ['PUT', '/api/notifications/read-all'],
      ['DELETE', `/api/notifications/${target}`],
    ] as const) {
      expect((await server.client().request(method, path)).status).toBe(401);
    }
    const row = await server.db.selectFrom('notifications').select(['is_read']).where('id', '=', target).executeTakeFirst();
    expect(row).toEqual({ is_read: 0 });
  });

  it('treats ids that are names of Object.prototype as unknown too, and writes no event for them', async () => {
    const { user } = await userWithNotifications(1);
    const stream = `user-${user.userId}`;
    const before = (await server.store.readStream(stream)).length;
    for (const id of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      for (const [method, path] of [
        ['PUT', `/api/notifications/${id}/read`],
        ['DELETE', `/api/notifications/${id}`],
      ] as const) {
        const res = await user.request(method, path);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'not_found', message: 'Notification not found' });
      }
    }
    expect((await server.store.readStream(stream)).length).toBe(before);
  });

  it('keeps reads and deletions through a rebuild of the read models', async () => {
    const { user, list } = await userWithNotifications(3);
    await user.put(`/api/notifications/${list[1]!.id}/read`);
    await user.delete(`/api/notifications/${list[0]!.id}`);
    const before = (await user.get<Notification[]>('/api/notifications')).body;
    expect(before.map((n) => [n.id, n.isRead])).toEqual([
      [list[1]!.id, true],
      [list[2]!.id, false],
    ]);
    await rebuildReadModels(server.db, server.store, allProjections);
    expect((await user.get<Notification[]>('/api/notifications')).body).toEqual(before);
    // And read-all marks only what it saw: a later notification stays unread after a rebuild too.
    await user.put('/api/notifications/read-all');
    await adjust(finance, user.mobile, 5);
    await rebuildReadModels(server.db, server.store, allProjections);
    expect((await user.get<Notification[]>('/api/notifications')).body.map((n) => n.isRead)).toEqual([false, true, true]);
  });
});
