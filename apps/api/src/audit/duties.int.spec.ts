import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK, adjust, balanceOf } from '../finance/testing.ts';
import { createTaskAs, taskInput, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';

type Staff = TestClient & { userId: string; mobile: string };
let server: TestServer;
let admin: Staff;
let reviewer: Staff;
let finance: Staff;
let finance2: Staff;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signUp({ roles: ['admin'], firstName: 'Arjun', lastName: 'Mehta' });
  reviewer = await server.signUp({ roles: ['reviewer'], firstName: 'Kavya', lastName: 'Nair' });
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
  finance2 = await server.signUp({ roles: ['finance'], firstName: 'Meera', lastName: 'Iyer' });
});
afterAll(async () => server?.close());

describe('separation of duties: the attack of issue 9 fails at each step', () => {
  it('an admin cannot set a huge reward, approve their second account, or pay it out', async () => {
    // Step 1: a reward above the limit (₹500 by default) is refused, and so is the published attack's.
    for (const rupeeReward of ['99999999.99', '500.01']) {
      const big = await admin.post('/api/admin/tasks', taskInput({ rupeeReward }));
      expect(big.status).toBe(400);
      expect(big.body.error.fields.rupeeReward).toBe('Reward can be at most ₹500.00');
    }
    const task = await createTaskAs(admin, { rupeeReward: '500' });

    // Step 2: the admin's second account submits a proof; the admin cannot approve it.
    const second = await server.signUp();
    const proof = await second.post(`/api/tasks/${task.id}/submit-proof`, {
      proofImageUrl: await uploadedImage(server, second),
      proofDescription: 'Done',
    });
    expect(proof.status).toBe(201);
    const submissionId = proof.body.submissionId ?? proof.body.id;
    expect((await admin.get('/api/admin/submissions')).status).toBe(403);
    expect((await admin.post(`/api/admin/submissions/${submissionId}/approve`)).status).toBe(403);
    expect(await balanceOf(second)).toBe('0.00');

    // Step 3: a reviewer approves it (their duty); the admin still cannot pay the withdrawal.
    expect((await reviewer.post(`/api/admin/submissions/${submissionId}/approve`)).status).toBe(200);
    expect(await balanceOf(second)).toBe('500.00');
    const withdrawal = await second.post('/api/withdrawals', { amount: 500, bankAccount: BANK });
    expect(withdrawal.status).toBe(201);
    expect((await admin.post(`/api/admin/withdrawals/${withdrawal.body.id}/paid`, { reference: 'UTR12345678' })).status).toBe(403);
    expect((await admin.post('/api/admin/adjustments', { mobile: second.mobile, amount: 10, direction: 'credit', reason: 'Gift' })).status).toBe(403);
    expect((await finance.post(`/api/admin/withdrawals/${withdrawal.body.id}/paid`, { reference: 'UTR12345678' })).status).toBe(200);
  });

  it('the reward limit is a setting an admin may change, and only an admin', async () => {
    expect((await reviewer.put('/api/admin/settings', { maxTaskReward: '50' })).status).toBe(403);
    // A control setting: one admin asks, another approves.
    const set = await server.applySettings({ maxTaskReward: '50' });
    expect(set).toMatchObject({ maxTaskReward: '50.00', adjustmentApprovalThreshold: '1000.00', sessionIdleDays: 7, uploadsPerDay: 30, uploadMegabytesPerDay: 60 });
    const over = await admin.post('/api/admin/tasks', taskInput({ rupeeReward: '50.01' }));
    expect(over.body.error.fields.rupeeReward).toBe('Reward can be at most ₹50.00');
    expect((await server.applySettings({ maxTaskReward: '500' })).maxTaskReward).toBe('500.00');
  });
});

describe('adjustments above the threshold need a second finance member', () => {
  it('is pending until a different finance member approves; nobody approves their own', async () => {
    const user = await server.signUp();
    const requested = await finance.post('/api/admin/adjustments', { mobile: user.mobile, amount: '1000.01', direction: 'credit', reason: 'Refund of a fee' });
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({ userId: user.userId, balance: '0.00', adjustment: { amount: '1000.01', status: 'pending', requestedBy: finance.userId } });
    const id = requested.body.adjustment.id as string;
    expect(await balanceOf(user)).toBe('0.00');
    expect((await finance2.get('/api/admin/adjustments')).body.map((a: { id: string }) => a.id)).toContain(id);

    const own = await finance.post(`/api/admin/adjustments/${id}/approve`);
    expect(own.status).toBe(403);
    expect(own.body.error.message).toBe('Another finance member must approve an adjustment you made');
    expect((await admin.post(`/api/admin/adjustments/${id}/approve`)).status).toBe(403);
    expect((await reviewer.post(`/api/admin/adjustments/${id}/approve`)).status).toBe(403);
    expect(await balanceOf(user)).toBe('0.00');

    const approved = await finance2.post(`/api/admin/adjustments/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id, status: 'approved', decidedBy: finance2.userId });
    expect(await balanceOf(user)).toBe('1000.01');
    // Decided once.
    expect((await finance2.post(`/api/admin/adjustments/${id}/approve`)).status).toBe(409);
    expect((await finance2.post(`/api/admin/adjustments/${id}/reject`)).status).toBe(409);
    expect(await balanceOf(user)).toBe('1000.01');
    // Up to the threshold, one person suffices.
    await adjust(finance, user.mobile, 1000);
    expect(await balanceOf(user)).toBe('2000.01');
  });

  it('a rejected adjustment moves nothing; unknown ids are 404', async () => {
    const user = await server.signUp();
    const requested = await finance.post('/api/admin/adjustments', { mobile: user.mobile, amount: 5000, direction: 'credit', reason: 'Big refund' });
    const id = requested.body.adjustment.id as string;
    expect((await finance2.post(`/api/admin/adjustments/${id}/reject`)).body).toMatchObject({ status: 'rejected' });
    expect((await finance.post(`/api/admin/adjustments/${id}/approve`)).status).toBe(409);
    expect(await balanceOf(user)).toBe('0.00');
    expect((await finance2.post('/api/admin/adjustments/00000000-0000-4000-8000-000000000000/approve')).status).toBe(404);
    expect((await finance2.post('/api/admin/adjustments/nope/approve')).status).toBe(404);
  });
});

describe('the audit list', () => {
  it('shows admins and finance who did what to whom, newest first; nobody else may read it', async () => {
    const user = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
    await adjust(finance, user.mobile, 75);
    const requested = await finance.post('/api/admin/adjustments', { mobile: user.mobile, amount: 2000, direction: 'credit', reason: 'Big refund' });
    await finance2.post(`/api/admin/adjustments/${requested.body.adjustment.id}/approve`);

    for (const caller of [reviewer, user, server.client()]) expect([401, 403]).toContain((await caller.get('/api/admin/audit')).status);
    // Finance reads it too (docs/audit.md): who did what to the money, at month end.
    expect((await finance.get('/api/admin/audit')).status).toBe(200);
    const audit = await admin.get('/api/admin/audit');
    expect(audit.status).toBe(200);
    const mine = audit.body.filter((e: { subject: { id: string } | null }) => e.subject?.id === user.userId);
    expect(mine.map((e: { action: string }) => e.action)).toEqual(['adjustment_approved', 'adjustment_requested', 'adjustment_credited']);
    expect(mine[0]).toMatchObject({ actor: { id: finance2.userId, name: 'Meera Iyer' }, subject: { name: 'Asha Rao', mobile: user.mobile }, amount: '2000.00' });
    expect(mine[2]).toMatchObject({ actor: { id: finance.userId, name: 'Rohan Gupta' }, amount: '75.00' });
    const times = audit.body.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const actions = new Set(audit.body.map((e: { action: string }) => e.action));
    for (const action of ['proof_approved', 'withdrawal_paid', 'role_granted', 'task_reward_set']) expect(actions).toContain(action);
  });
});

describe('the audit list pages', () => {
  it('walks every entry newest first by X-Next-Cursor, without gaps or repeats; a bad cursor or limit is 400', async () => {
    const user = await server.signUp();
    for (const amount of [1, 2, 3, 4, 5]) await adjust(finance, user.mobile, amount);
    const whole = await admin.get('/api/admin/audit?limit=1000');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('x-next-cursor')).toBeNull();

    const walked: string[] = [];
    let path = '/api/admin/audit?limit=2';
    for (;;) {
      const page = await admin.get(path);
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(2);
      walked.push(...page.body.map((e: { id: string }) => e.id));
      const next = page.headers.get('x-next-cursor');
      if (next === null) break;
      path = `/api/admin/audit?limit=2&cursor=${next}`;
    }
    expect(walked).toEqual(whole.body.map((e: { id: string }) => e.id));
    const mine = whole.body.filter((e: { subject: { id: string } | null }) => e.subject?.id === user.userId);
    expect(mine.map((e: { amount: string }) => e.amount)).toEqual(['5.00', '4.00', '3.00', '2.00', '1.00']);

    for (const bad of ['limit=0', 'limit=1001', 'limit=x', 'cursor=-1', 'cursor=abc']) {
      const refused = await admin.get(`/api/admin/audit?${bad}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBeDefined();
    }
  });
});
