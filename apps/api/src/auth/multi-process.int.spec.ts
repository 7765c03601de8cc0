import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiPair, startApiPair } from '../testing/process.ts';
import { TestClient, freshMobile } from '../testing/server.ts';

// Two OS processes on one DATA_DIR: how one host runs several API processes on the embedded store.
let pair: ApiPair;
beforeAll(async () => {
  pair = await startApiPair('multi');
});
afterAll(async () => {
  await pair?.close();
});

describe('two API processes sharing one DATA_DIR', () => {
  it('serves a user registered on one process from the other at once', async () => {
    const { a, b } = pair;
    const onA = new TestClient(a.url);
    const mobile = freshMobile();
    expect((await onA.post('/api/auth/register', { mobile, password: 'secret123', firstName: 'Ravi', lastName: 'Kumar', consent: true })).status).toBe(201);
    // The same cookie, straight to the other process: its read model catches up before answering.
    const me = await onA.clone(b.url).get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body.mobile).toBe(mobile);
    // And signing in on the other process right after registering works too.
    const onB = new TestClient(b.url);
    expect((await onB.post('/api/auth/login', { mobile, password: 'secret123' })).status).toBe(200);
    expect((await onB.clone(a.url).get('/api/auth/user')).body.firstName).toBe('Ravi');
  });

  it('registers a mobile number once when both processes race for it', async () => {
    const { a, b } = pair;
    const mobile = freshMobile();
    const body = { mobile, password: 'secret123', firstName: 'Meena', lastName: 'Iyer', consent: true };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => new TestClient(i % 2 ? a.url : b.url).post('/api/auth/register', body)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('keeps a session across a restart of the process', async () => {
    const client = new TestClient(pair.a.url);
    const mobile = freshMobile();
    expect((await client.post('/api/auth/register', { mobile, password: 'secret123', firstName: 'Anil', lastName: 'Das', consent: true })).status).toBe(201);
    await pair.restartA();
    const me = await client.clone(pair.a.url).get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body.mobile).toBe(mobile);
  });

  it('a password change in one process signs the other sessions out in the other process at once', async () => {
    const { a, b } = pair;
    const mobile = freshMobile();
    const onA = new TestClient(a.url);
    expect((await onA.post('/api/auth/register', { mobile, password: 'secret123', firstName: 'Lata', lastName: 'Bose', consent: true })).status).toBe(201);
    const onB = new TestClient(b.url);
    expect((await onB.post('/api/auth/login', { mobile, password: 'secret123' })).status).toBe(200);
    // B has looked the session up (and cached it) before the change.
    for (let i = 0; i < 3; i++) expect((await onB.get('/api/auth/user')).status).toBe(200);
    expect((await onA.put('/api/auth/password', { currentPassword: 'secret123', newPassword: 'changed99' })).status).toBe(204);
    // No waiting: the very next request on B is refused.
    expect((await onB.get('/api/auth/user')).status).toBe(401);
    expect((await onA.clone(b.url).get('/api/auth/user')).status).toBe(200);
    expect((await new TestClient(b.url).post('/api/auth/login', { mobile, password: 'secret123' })).status).toBe(401);
  });

  it('signing out everywhere on one process ends the cached session on the other', async () => {
    const { a, b } = pair;
    const onA = await pair.signUp(a.url, 'Gita');
    const onB = onA.clone(b.url);
    expect((await onB.get('/api/auth/user')).status).toBe(200);
    expect((await onA.post('/api/auth/logout-all')).status).toBe(204);
    expect((await onB.get('/api/auth/user')).status).toBe(401);
  });

  it('two processes share the failed sign-in count, and it survives a restart', async () => {
    const { a, b } = pair;
    const mobile = freshMobile();
    const guess = (url: string) => new TestClient(url).post('/api/auth/login', { mobile, password: 'wrong-guess' });
    for (let i = 0; i < 10; i++) expect((await guess(i % 2 ? pair.a.url : b.url)).status).toBe(401);
    expect((await guess(a.url)).status).toBe(429);
    expect((await guess(b.url)).status).toBe(429);
    await pair.restartA();
    expect((await guess(pair.a.url)).status).toBe(429);
  });
});
