import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PERSONAL_FIELDS, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { newSessionToken, sessionIdOf } from './sessions.ts';
import { SESSION_EVENTS, SessionCache } from './session-cache.ts';
import { handleCommand } from '../commands/handle.ts';
import { openSqliteEventStore } from '../event-store/sqlite.ts';
import { openSealedSqliteStore } from '../privacy/open.ts';
import { userDecider } from '@kamai/domain';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

async function signInOn(userAgent: string, account: { mobile: string; password: string }): Promise<TestClient> {
  const device = server.client();
  const res = await device.request('POST', '/api/auth/login', account, { 'user-agent': userAgent });
  expect(res.status).toBe(200);
  return device;
}

describe('the session cache', () => {
  it('reads its session events sealed, so none of them may carry a personal field', () => {
    for (const type of SESSION_EVENTS) expect(PERSONAL_FIELDS[type], type).toBeUndefined();
  });
});

describe('signed-in devices', () => {
  it('lists where the user is signed in; a new sign-in leaves the others signed in', async () => {
    const phone = await server.signUp();
    const tablet = await signInOn(ANDROID, phone);
    const iphone = await signInOn(IPHONE, phone);
    for (const device of [phone, tablet, iphone]) expect((await device.get('/api/auth/user')).status).toBe(200);
    const list = await tablet.get('/api/auth/sessions');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
    expect(list.body.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(list.body.find((s: { current: boolean }) => s.current).device).toBe('Chrome on Android');
    expect(list.body.map((s: { device: string }) => s.device)).toContain('Safari on iOS');
    for (const s of list.body) expect(s).toEqual({ id: expect.stringMatching(/^[0-9a-f]{64}$/), device: expect.any(String), startedAt: expect.any(String), lastSeenAt: expect.any(String), current: expect.any(Boolean) });
  });

  it('signs out one other device, but nobody else\'s', async () => {
    const owner = await server.signUp();
    const lost = await signInOn(IPHONE, owner);
    const stranger = await server.signUp();
    const id = (await owner.get('/api/auth/sessions')).body.find((s: { device: string }) => s.device === 'Safari on iOS').id;
    expect((await stranger.delete(`/api/auth/sessions/${id}`)).status).toBe(404);
    expect((await lost.get('/api/auth/user')).status).toBe(200);
    expect((await owner.delete(`/api/auth/sessions/${id}`)).status).toBe(204);
    expect((await lost.get('/api/auth/user')).status).toBe(401);
    expect((await owner.get('/api/auth/user')).status).toBe(200);
    expect((await owner.delete('/api/auth/sessions/not-a-session')).status).toBe(404);
  });

  it('signs out everywhere at once', async () => {
    const owner = await server.signUp();
    const other = await signInOn(ANDROID, owner);
    expect((await owner.post('/api/auth/logout-all')).status).toBe(204);
    expect((await owner.get('/api/auth/user')).status).toBe(401);
    expect((await other.get('/api/auth/user')).status).toBe(401);
  });
});

describe('password change', () => {
  it('needs the current password, signs out every other session and keeps this one', async () => {
    const owner = await server.signUp({ password: 'oldpass1' });
    const other = await signInOn(ANDROID, owner);
    const wrong = await owner.put('/api/auth/password', { currentPassword: 'nope1234', newPassword: 'newpass1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ currentPassword: 'Current password is incorrect' });
    expect((await owner.put('/api/auth/password', { currentPassword: 'oldpass1', newPassword: '123' })).status).toBe(400);
    expect((await other.get('/api/auth/user')).status).toBe(200);

    expect((await owner.put('/api/auth/password', { currentPassword: 'oldpass1', newPassword: 'newpass1' })).status).toBe(204);
    expect((await owner.get('/api/auth/user')).status).toBe(200);
    expect((await other.get('/api/auth/user')).status).toBe(401);
    expect((await server.client().post('/api/auth/login', { mobile: owner.mobile, password: 'oldpass1' })).status).toBe(401);
    expect((await server.client().post('/api/auth/login', { mobile: owner.mobile, password: 'newpass1' })).status).toBe(200);
  });
});

describe('idle timeout and last seen', () => {
  /** A session started `daysAgo` days ago and not used since, written straight to the store. */
  async function sessionStarted(userId: string, daysAgo: number): Promise<{ client: TestClient; sid: string }> {
    const token = newSessionToken();
    const sid = sessionIdOf(token);
    const startedAt = new Date(Date.now() - daysAgo * 86_400_000);
    const expiresAt = new Date(startedAt.getTime() + 30 * 86_400_000);
    const { position } = await server.store.append(
      streams.session(sid),
      [{ id: randomUUID(), type: 'SessionStarted', data: { sessionId: sid, userId, startedAt: startedAt.toISOString(), expiresAt: expiresAt.toISOString() } }],
      'no_stream',
    );
    await server.runner.waitFor(position);
    const client = server.client();
    (client as unknown as { cookies: Map<string, string> }).cookies.set('kamai_session', token);
    return { client, sid };
  }

  it('ends a session unused for longer than the idle timeout (7 days by default)', async () => {
    const user = await server.signUp();
    const idle = await sessionStarted(user.userId, 8);
    expect((await idle.client.get('/api/auth/user')).status).toBe(401);
    const recent = await sessionStarted(user.userId, 6);
    expect((await recent.client.get('/api/auth/user')).status).toBe(200);
    // Using it recorded "last seen", so it now lives another seven days.
    const seen = (await server.store.readStream(streams.session(recent.sid))).filter((e) => e.type === 'SessionSeen');
    expect(seen).toHaveLength(1);
  });

  it('records "last seen" at most every few minutes, not once per request', async () => {
    const user = await server.signUp();
    for (let i = 0; i < 25; i++) expect((await user.get('/api/auth/user')).status).toBe(200);
    const sid = (await user.get('/api/auth/sessions')).body[0].id;
    const events = await server.store.readStream(streams.session(sid));
    expect(events.map((e) => e.type)).toEqual(['SessionStarted']);
  });
});

describe('the signed-in user\'s row', () => {
  it('is answered as the read models hold it now, whoever changed it (another process\'s command)', async () => {
    const user = await server.signUp({ firstName: 'Asha' });
    // Twice: the second answer may come from memory.
    for (let i = 0; i < 2; i++) expect((await user.get('/api/auth/user')).body.firstName).toBe('Asha');
    // Another connection to the event store (as another process) changes the profile.
    const other = openSealedSqliteStore(join(server.dataDir, 'events.sqlite'));
    let position = 0;
    try {
      ({ position } = await handleCommand(other, streams.user(user.userId), userDecider, { type: 'UpdateProfile', data: { firstName: 'Meera' }, now: new Date().toISOString() }));
    } finally {
      await other.close();
    }
    expect(await server.runner.waitFor(position)).toBe(true);
    expect((await user.get('/api/auth/user')).body.firstName).toBe('Meera');
  });

  it("looks again in the same turn after a look at another process's commits failed", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kamai-flaky-look-'));
    const file = join(dir, 'events.sqlite');
    const store = openSqliteEventStore(file);
    const otherProcess = openSqliteEventStore(file);
    let failures = 0;
    // The store as the cache sees it, with reads that fail while `failures` lasts.
    const failing = <Args extends unknown[], Result>(read: (...args: Args) => Result) => (...args: Args): Result => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('disk I/O error');
      }
      return read(...args);
    };
    const reads = store.capabilities.syncReads!;
    const flaky = {
      headPosition: () => store.headPosition(),
      capabilities: {
        changeSignal: store.capabilities.changeSignal,
        syncReads: {
          headNow: () => reads.headNow(),
          readTypesNow: failing(reads.readTypesNow.bind(reads)),
          readHeadersNow: failing(reads.readHeadersNow.bind(reads)),
        },
      },
    } as unknown as ConstructorParameters<typeof SessionCache>[0];
    try {
      const cache = new SessionCache(flaky);
      await cache.start();
      const granted = await otherProcess.append(streams.user('a'), [{ id: randomUUID(), type: 'RoleGranted', data: { role: 'reviewer', by: 'x', grantedAt: new Date().toISOString() } }], 'any');
      failures = 1;
      expect(cache.catchUp()).toBe(false);
      // Same turn: the failed look does not count as this turn's; the next call reads.
      expect(cache.catchUp()).toBe(true);
      expect(cache.userChangedAt('record', 'a')).toBe(granted.position);
      await cache.stop();
    } finally {
      await otherProcess.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps a record while money moves, and wallet figures while only others\' money moves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kamai-user-rows-'));
    const store = openSqliteEventStore(join(dir, 'events.sqlite'));
    try {
      const cache = new SessionCache(store);
      await cache.start();
      const since = cache.userChangedAt('wallet', 'a');
      const credited = (entryId: string) => ({
        id: randomUUID(),
        type: 'WalletCredited',
        data: { entryId, amountPaise: 100, kind: 'adjustment', params: { reason: 'test' }, by: 'f', creditedAt: new Date().toISOString() },
      });
      await store.append(streams.user('b'), [credited('e1')], 'any');
      await store.append(streams.user('b'), [{ id: randomUUID(), type: 'NotificationRead', data: { notificationId: 'n', readAt: new Date().toISOString() } }], 'any');
      expect(cache.catchUp()).toBe(true);
      expect(cache.userChangedAt('wallet', 'a')).toBe(since);
      const { position } = await store.append(streams.user('a'), [credited('e2')], 'any');
      expect(cache.catchUp()).toBe(true);
      expect(cache.userChangedAt('wallet', 'a')).toBe(position);
      // The user's own money moving leaves their record (who they are, what they may do) kept.
      expect(cache.userChangedAt('record', 'a')).toBe(since);
      const granted = await store.append(streams.user('a'), [{ id: randomUUID(), type: 'RoleGranted', data: { role: 'reviewer', by: 'x', grantedAt: new Date().toISOString() } }], 'any');
      expect(cache.catchUp()).toBe(true);
      expect(cache.userChangedAt('record', 'a')).toBe(granted.position);
      expect(cache.userChangedAt('wallet', 'a')).toBe(position);
      await cache.stop();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
