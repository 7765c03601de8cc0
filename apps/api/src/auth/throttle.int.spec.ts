import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, freshMobile, startTestServer } from '../testing/server.ts';

let servers: TestServer[] = [];
async function server(env: Record<string, string> = {}) {
  const started = await startTestServer(env);
  servers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const guess = (s: TestServer, mobile: string, headers: Record<string, string> = {}) =>
  s.client().request('POST', '/api/auth/login', { mobile, password: 'wrong-guess' }, headers);

describe('throttles that hold', () => {
  it('150 wrong passwords with spoofed X-Forwarded-For hit the per-address limit behind one trusted proxy', async () => {
    const s = await server({ TRUSTED_PROXIES: '1' });
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) {
      // The attacker writes the left part; the proxy appends the address it really saw.
      const res = await guess(s, freshMobile(), { 'x-forwarded-for': `10.${i % 250}.${i}.1, 172.16.0.${i % 250}, 198.51.100.7` });
      statuses.push(res.status);
    }
    expect(statuses.filter((x) => x === 401)).toHaveLength(100);
    expect(statuses.slice(100).every((x) => x === 429)).toBe(true);
    // Another client behind the same proxy is not affected.
    expect((await guess(s, freshMobile(), { 'x-forwarded-for': '198.51.100.8' })).status).toBe(401);
  });

  it('without trusted proxies X-Forwarded-For is ignored: the socket address is counted', async () => {
    const s = await server();
    const statuses: number[] = [];
    for (let i = 0; i < 110; i++) statuses.push((await guess(s, freshMobile(), { 'x-forwarded-for': `10.0.${i}.1` })).status);
    expect(statuses.filter((x) => x === 401)).toHaveLength(100);
    expect(statuses.at(-1)).toBe(429);
  });

  it("the owner's device still signs in while an attacker hammers the number; unknown clients are held off", async () => {
    const s = await server();
    const owner = await s.signUp({ password: 'owner-pass1' });
    // A successful sign-in gives this browser its device cookie.
    expect((await owner.post('/api/auth/login', { mobile: owner.mobile, password: 'owner-pass1' })).status).toBe(200);
    expect((await owner.post('/api/auth/logout')).status).toBe(204);

    const attack: number[] = [];
    for (let i = 0; i < 30; i++) attack.push((await guess(s, owner.mobile)).status);
    expect(attack.filter((x) => x === 401)).toHaveLength(10);
    expect(attack.slice(10).every((x) => x === 429)).toBe(true);
    // A new client with the right password is held off too: it could be the attacker.
    expect((await s.client().post('/api/auth/login', { mobile: owner.mobile, password: 'owner-pass1' })).status).toBe(429);
    // The owner's own device is not.
    const back = await owner.post('/api/auth/login', { mobile: owner.mobile, password: 'owner-pass1' });
    expect(back.status).toBe(200);
    expect((await owner.get('/api/auth/user')).status).toBe(200);
    // A device cookie is bound to its number: it buys nothing against another number.
    const victim = await s.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await owner.request('POST', '/api/auth/login', { mobile: victim.mobile, password: 'nope-nope' })).status);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(0);
  });

  it('a device that keeps guessing is limited as well', async () => {
    const s = await server();
    const owner = await s.signUp({ password: 'owner-pass1' });
    expect((await owner.post('/api/auth/login', { mobile: owner.mobile, password: 'owner-pass1' })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await owner.post('/api/auth/login', { mobile: owner.mobile, password: `bad-${i}-x` })).status);
    expect(statuses.slice(0, 10).every((x) => x === 401)).toBe(true);
    expect(statuses.slice(10).every((x) => x === 429)).toBe(true);
  });

  it('throttles registrations per client address', async () => {
    const s = await server({ REGISTRATIONS_PER_HOUR: '3' });
    const register = () => s.client().post('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'Bulk', lastName: 'Bot', consent: true });
    for (let i = 0; i < 3; i++) expect((await register()).status).toBe(201);
    const refused = await register();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_attempts');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
  });

  it('limits guesses of the current password on a password change per session: 429 after the limit', async () => {
    const s = await server();
    const holder = await s.signUp({ password: 'owner-pass1' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await holder.put('/api/auth/password', { currentPassword: `guess-${i}-x`, newPassword: 'taken-over1' })).status);
    }
    expect(statuses.slice(0, 10).every((x) => x === 400)).toBe(true);
    expect(statuses.slice(10).every((x) => x === 429)).toBe(true);
    // That session is held off, even with the right password; the password is unchanged.
    const right = await holder.put('/api/auth/password', { currentPassword: 'owner-pass1', newPassword: 'taken-over1' });
    expect(right.status).toBe(429);
    expect((await s.client().post('/api/auth/login', { mobile: holder.mobile, password: 'owner-pass1' })).status).toBe(200);
  });

  it('a person who just registered changes their password and signs in while a stranger hammers their number', async () => {
    const s = await server();
    const holder = await s.signUp({ password: 'owner-pass1' });
    const attack: number[] = [];
    for (let i = 0; i < 15; i++) attack.push((await guess(s, holder.mobile)).status);
    expect(attack.slice(10).every((x) => x === 429)).toBe(true);
    // Registration gave this browser its device cookie, as a sign-in does.
    const changed = await holder.put('/api/auth/password', { currentPassword: 'owner-pass1', newPassword: 'owner-pass2' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(204);
    expect((await holder.post('/api/auth/logout')).status).toBe(204);
    expect((await holder.post('/api/auth/login', { mobile: holder.mobile, password: 'owner-pass2' })).status).toBe(200);
  });

});
