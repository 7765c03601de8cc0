import type { AuditEntryBody, NotificationBody, SubmissionBody, TaskBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPI, adjust } from '../finance/testing.ts';
import type { TestClient, TestServer } from '../testing/index.ts';
import { createTaskAs, startServerWithTask, submitProof, uploadedImage } from '../tasks/testing.ts';

describe('suspending an account over HTTP', () => {
  let server: TestServer;
  let admin: TestClient & { userId: string };
  let task: TaskBody;

  beforeAll(async () => {
    ({ server, admin, task } = await startServerWithTask());
  });
  afterAll(() => server.close());

  it('a suspended user signs in and reads, but proof, start and withdrawal answer 403 account_suspended; unsuspending restores them', async () => {
    const finance = await server.signUp({ roles: ['finance'] });
    const reviewer = await server.signUp({ roles: ['reviewer'] });
    const user = await server.signUp();
    await adjust(finance, user.mobile, 500);
    const pending = await submitProof(user, task.id, await uploadedImage(server, user));
    expect(pending.status).toBe(201);
    const other = await createTaskAs(admin);

    const suspended = await admin.post(`/api/admin/users/${user.userId}/suspend`, { reason: 'Same screenshot on five accounts' });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toEqual({ userId: user.userId, suspended: true });
    expect((await admin.post(`/api/admin/users/${user.userId}/suspend`, { reason: 'again' })).status).toBe(409);

    // Reading still works: wallet, notifications (with the reason).
    expect((await user.get('/api/auth/user')).status).toBe(200);
    const notes = await user.get<NotificationBody[]>('/api/notifications');
    expect(notes.body[0]).toMatchObject({ key: 'account_suspended', params: { reason: 'Same screenshot on five accounts' } });

    for (const res of [
      await submitProof(user, other.id, await uploadedImage(server, user)),
      await user.post(`/api/tasks/${other.id}/start`),
      await user.post('/api/withdrawals', { amount: 200, upiId: UPI }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('account_suspended');
      expect(res.body.error.message).toMatch(/suspended/);
    }
    // The pending submission stays in the queue.
    expect((await reviewer.get<SubmissionBody[]>('/api/admin/submissions')).body.map((s) => s.id)).toContain(pending.body.submissionId);

    expect((await admin.post(`/api/admin/users/${user.userId}/unsuspend`)).status).toBe(200);
    expect((await user.post(`/api/tasks/${other.id}/start`)).status).toBe(200);
    const audit = await admin.get<AuditEntryBody[]>('/api/admin/audit');
    const actions = audit.body.filter((e) => e.subject?.id === user.userId).map((e) => [e.action, e.actor.id]);
    expect(actions).toEqual(expect.arrayContaining([['user_suspended', admin.userId], ['user_unsuspended', admin.userId]]));
  });

  it('a suspended staff member is signed out everywhere and, signed in again, refused every staff action with 403 account_suspended', async () => {
    const finance = await server.signUp({ roles: ['finance'] });
    const secondDevice = server.client();
    expect((await secondDevice.post('/api/auth/login', { mobile: finance.mobile, password: finance.password })).status).toBe(200);
    const user = await server.signUp();
    await adjust(finance, user.mobile, 500);
    const withdrawal = await user.post<{ id: string }>('/api/withdrawals', { amount: 200, upiId: UPI });
    expect(withdrawal.status).toBe(201);

    expect((await admin.post(`/api/admin/users/${finance.userId}/suspend`, { reason: 'Paid to a relative' })).status).toBe(200);
    for (const device of [finance, secondDevice]) expect((await device.get('/api/auth/user')).status).toBe(401);

    // Signing in still works (to read why), but no staff route answers: reads, pays, adjustments.
    const again = server.client();
    expect((await again.post('/api/auth/login', { mobile: finance.mobile, password: finance.password })).status).toBe(200);
    for (const res of [
      await again.post(`/api/admin/withdrawals/${withdrawal.body.id}/paid`, { reference: 'UTR55500001' }),
      await again.post('/api/admin/adjustments', { mobile: user.mobile, amount: 100, direction: 'credit', reason: 'Bonus' }),
      await again.get('/api/admin/withdrawals'),
      await again.get('/api/admin/queues'),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.code).toBe('account_suspended');
    }
    expect((await admin.post(`/api/admin/users/${finance.userId}/unsuspend`)).status).toBe(200);
    expect((await again.post('/api/admin/adjustments', { mobile: user.mobile, amount: 100, direction: 'credit', reason: 'Bonus' })).status).toBe(201);
  });

  it('refuses an empty reason, an unknown user, and suspending oneself', async () => {
    expect((await admin.post(`/api/admin/users/${admin.userId}/suspend`, { reason: ' ' })).status).toBe(400);
    expect((await admin.post('/api/admin/users/00000000-0000-4000-8000-000000000000/suspend', { reason: 'x' })).status).toBe(404);
    const own = await admin.post(`/api/admin/users/${admin.userId}/suspend`, { reason: 'x' });
    expect(own.status).toBe(403);
  });

  it('starting a task is idempotent: the first tap counts', async () => {
    const user = await server.signUp();
    const first = await user.post<{ startedAt: string }>(`/api/tasks/${task.id}/start`);
    expect(first.status).toBe(200);
    const second = await user.post<{ startedAt: string }>(`/api/tasks/${task.id}/start`);
    expect(second.body.startedAt).toBe(first.body.startedAt);
  });

  it('an ended task is not listed and refuses proof with 409 task_expired', async () => {
    const ended = await createTaskAs(admin, { expiresOn: '2020-01-31' });
    const user = await server.signUp();
    expect((await user.get<TaskBody[]>('/api/tasks')).body.map((t) => t.id)).not.toContain(ended.id);
    const res = await submitProof(user, ended.id, await uploadedImage(server, user));
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('task_expired');
  });
});
