import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { UPI, adjust, balanceOf } from './testing.ts';

type Member = TestClient & { userId: string; mobile: string };
let server: TestServer;
let finance: Member;
let colleague: Member;

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
  colleague = await server.signUp({ roles: ['finance'], firstName: 'Meera', lastName: 'Iyer' });
});
afterAll(async () => server?.close());

const credit = (by: TestClient, mobile: string, amount: number | string) =>
  by.post('/api/admin/adjustments', { mobile, amount, direction: 'credit', reason: 'Goodwill' });

describe('cumulative four-eyes: one member cannot make money in small pieces', () => {
  it('sends the credit that takes one member past ₹1,000 for one user within 24 hours for approval', async () => {
    const user = await server.signUp();
    // Ten ₹100 credits reach the threshold; each moves money at once.
    for (let i = 0; i < 10; i++) expect((await credit(finance, user.mobile, 100)).status).toBe(201);
    expect(await balanceOf(user)).toBe('1000.00');
    // The eleventh crosses it: 202, pending, nothing moves until a second member approves.
    const crossing = await credit(finance, user.mobile, 100);
    expect(crossing.status, JSON.stringify(crossing.body)).toBe(202);
    expect(crossing.body.adjustment).toMatchObject({ status: 'pending', amount: '100.00', requestedBy: finance.userId });
    expect(await balanceOf(user)).toBe('1000.00');
    // Another member's credit is their own sum.
    expect((await credit(colleague, user.mobile, 100)).status).toBe(201);
    const approved = await colleague.post(`/api/admin/adjustments/${crossing.body.adjustment.id}/approve`);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await balanceOf(user)).toBe('1200.00');
  });
});

describe('per-member four-eyes across all users: memberDailyAdjustmentLimit (₹5,000 by default)', () => {
  it('sends the credit that takes one member past ₹5,000 across any number of fresh accounts within 24 hours for approval', async () => {
    const member = await server.signUp({ roles: ['finance'] });
    const users = [];
    for (let i = 0; i < 6; i++) users.push(await server.signUp());
    // ₹1,000 to each of five fresh accounts: each within the per-user threshold, ₹5,000 in all.
    for (const user of users.slice(0, 5)) expect((await credit(member, user.mobile, 1000)).status).toBe(201);
    const last = users[5]!;
    // A refused adjustment costs no allowance and appends nothing.
    const head = await server.store.headPosition();
    const refused = await member.post('/api/admin/adjustments', { mobile: last.mobile, amount: 50, direction: 'debit', reason: 'Reversal' });
    expect(refused.status).toBe(409);
    expect(await server.store.headPosition()).toBe(head);
    // The sixth account's credit passes ₹5,000: 202, pending, nothing moves.
    const crossing = await credit(member, last.mobile, 1000);
    expect(crossing.status, JSON.stringify(crossing.body)).toBe(202);
    expect(crossing.body.adjustment).toMatchObject({ status: 'pending', amount: '1000.00', requestedBy: member.userId });
    expect(await balanceOf(last)).toBe('0.00');
    // Another member has an allowance of their own, and approves it.
    expect((await credit(colleague, last.mobile, 1)).status).toBe(201);
    expect((await colleague.post(`/api/admin/adjustments/${crossing.body.adjustment.id}/approve`)).status).toBe(200);
    expect(await balanceOf(last)).toBe('1001.00');
    // The member's sum is on their own stream: one event per adjustment that moved money alone.
    const counted = await server.store.readStream(`staff-limits-${member.userId}`);
    expect(counted.map((e) => [e.type, (e.data as { amountPaise: number }).amountPaise])).toEqual(Array(5).fill(['MemberMoneyCounted', 100_000]));
  });

  it('decides one member’s adjustments to two users one after the other: sent at once, they cannot both pass the limit', async () => {
    const member = await server.signUp({ roles: ['finance'] });
    const users = [];
    for (let i = 0; i < 6; i++) users.push(await server.signUp());
    for (const user of users.slice(0, 4)) expect((await credit(member, user.mobile, 1000)).status).toBe(201);
    // ₹4,000 counted: ₹1,000 more fits once, not twice.
    const answers = await Promise.all([credit(member, users[4]!.mobile, 1000), credit(member, users[5]!.mobile, 1000)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 202]);
  });

  it('is a control setting: a change waits for a second admin', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    const asked = await admin.put('/api/admin/settings', { memberDailyAdjustmentLimit: '20000.00' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    expect(asked.body.settings.memberDailyAdjustmentLimit).toBe('5000.00');
    expect(asked.body.request.changes).toEqual({ memberDailyAdjustmentLimit: '20000.00' });
    expect((await admin.post(`/api/admin/settings/requests/${asked.body.request.id}/reject`)).status).toBe(200);
  });
});

describe('conflict of duties: who adjusted a wallet does not settle its withdrawals for 30 days', () => {
  it('refuses the member who funded a user to pay, reject, batch or reverse their withdrawal, plainly; another member may', async () => {
    const user = await server.signUp();
    await adjust(finance, user.mobile, 600);
    const first = await user.post('/api/withdrawals', { amount: 300, upiId: UPI });
    const second = await user.post('/api/withdrawals', { amount: 200, upiId: UPI });
    expect([first.status, second.status]).toEqual([201, 201]);
    const before = await server.store.headPosition();

    const refusals = [
      await finance.post(`/api/admin/withdrawals/${first.body.id}/paid`, { reference: 'UTR90000001' }),
      await finance.post(`/api/admin/withdrawals/${first.body.id}/reject`, { reason: 'Wrong account' }),
      await finance.post('/api/admin/payout-batches', { withdrawalIds: [first.body.id, second.body.id] }),
    ];
    for (const refused of refusals) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.error.code).toBe('conflict_of_duties');
      expect(refused.body.error.message).toMatch(/You adjusted (this user’s wallet|the wallet of a user in this batch) in the last 30 days/);
      expect(refused.body.error.key).toMatch(/^controls\.conflictOfDuties/);
    }
    expect(refusals[2]!.body.error.fields.withdrawalIds).toBe(`Another finance member must send these withdrawals: ${[first.body.id, second.body.id].join(', ')}`);
    // A refusal changes nothing.
    expect(await server.store.headPosition()).toBe(before);

    // A colleague pays; the funder may not record its return either.
    expect((await colleague.post(`/api/admin/withdrawals/${first.body.id}/paid`, { reference: 'UTR90000001' })).status).toBe(200);
    const reverse = await finance.post(`/api/admin/withdrawals/${first.body.id}/reverse`, { reason: 'Returned by the bank' });
    expect(reverse.status).toBe(403);
    expect(reverse.body.error.code).toBe('conflict_of_duties');
    expect((await colleague.post(`/api/admin/withdrawals/${first.body.id}/reverse`, { reason: 'Returned by the bank' })).status).toBe(200);
    expect((await colleague.post('/api/admin/payout-batches', { withdrawalIds: [second.body.id] })).status).toBe(201);
  });

  it('holds for a member whose adjustment is still waiting for approval', async () => {
    const user = await server.signUp();
    await adjust(colleague, user.mobile, 300);
    const w = await user.post('/api/withdrawals', { amount: 300, upiId: UPI });
    expect((await credit(finance, user.mobile, 5000)).status).toBe(202);
    const pay = await finance.post(`/api/admin/withdrawals/${w.body.id}/paid`, { reference: 'UTR90000002' });
    expect(pay.status).toBe(403);
    expect(pay.body.error.code).toBe('conflict_of_duties');
  });
});
