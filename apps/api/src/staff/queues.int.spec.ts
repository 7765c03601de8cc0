import { countStaffQueues } from '@kamai/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK, UPI, adjust } from '../finance/testing.ts';
import { submitDocument } from '../kyc/testing.ts';
import { createTaskAs, submitProof, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';

type Member = TestClient & { userId: string; mobile: string; password: string };
let server: TestServer;
let reviewer: Member;
let finance: Member;
/** Funds users: whoever adjusted a wallet does not batch its withdrawals. */
let funder: Member;
let admin: Member;
let everything: Member;

beforeAll(async () => {
  server = await startTestServer();
  reviewer = await server.signUp({ roles: ['reviewer'] });
  finance = await server.signUp({ roles: ['finance'] });
  funder = await server.signUp({ roles: ['finance'] });
  admin = await server.signUp({ roles: ['admin'] });
  everything = await server.signUp({ roles: ['admin', 'reviewer', 'finance'] });
});
afterAll(() => server?.close());

const queues = async (who: TestClient) => {
  const res = await who.get<Record<string, number>>('/api/admin/queues');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('GET /api/admin/queues', () => {
  it('counts only the queues of the caller’s roles, and refuses everyone else', async () => {
    expect(await queues(reviewer)).toEqual({ proofs: 0, kyc: 0 });
    expect(await queues(finance)).toEqual({ withdrawalsPending: 0, payoutsLate: 0, batchesOpen: 0, adjustmentsPending: 0 });
    expect(await queues(admin)).toEqual({ deletionsDue: 0, settingsRequests: 0 });
    expect(Object.keys(await queues(everything)).sort()).toEqual(
      ['adjustmentsPending', 'batchesOpen', 'deletionsDue', 'kyc', 'payoutsLate', 'proofs', 'settingsRequests', 'withdrawalsPending'].sort(),
    );
    const user = await server.signUp();
    expect((await user.get('/api/admin/queues')).status).toBe(403);
    expect((await server.client().get('/api/admin/queues')).status).toBe(401);
  });

  it('follows the work: proofs, KYC, withdrawals, batches, adjustments and due deletions', async () => {
    // A proof and a KYC document wait for a reviewer.
    const task = await createTaskAs(admin, { title: 'Rate Paytm', rupeeReward: '20' });
    const worker = await server.signUp();
    expect((await submitProof(worker, task.id, await uploadedImage(server, worker))).status).toBe(201);
    await submitDocument(server.url, worker, 'voter_id', 7);
    expect(await queues(reviewer)).toEqual({ proofs: 1, kyc: 1 });

    // Two withdrawals; one goes into a batch (processing), the other still waits.
    const made: string[] = [];
    for (const destination of [{ upiId: UPI }, { bankAccount: BANK }]) {
      const user = await server.signUp();
      await adjust(funder, user.mobile, 500);
      const res = await user.post('/api/withdrawals', { amount: 200, ...destination });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push(res.body.id as string);
    }
    expect((await finance.post('/api/admin/payout-batches', { withdrawalIds: [made[0]] })).status).toBe(201);
    // Above the approval threshold: waits for a second finance member.
    expect((await funder.post('/api/admin/adjustments', { mobile: worker.mobile, amount: 5000, direction: 'credit', reason: 'Festival bonus' })).status).toBe(202);
    expect(await queues(finance)).toEqual({ withdrawalsPending: 1, payoutsLate: 0, batchesOpen: 1, adjustmentsPending: 1 });

    // A deletion request is due once its cooling-off has ended (none here).
    expect((await admin.put('/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);
    expect((await worker.post('/api/profile/deletion-request', { password: worker.password })).status).toBe(202);
    expect(await queues(admin)).toEqual({ deletionsDue: 1, settingsRequests: 0 });
    // A change to a control setting waits for a second admin.
    expect((await admin.put('/api/admin/settings', { maxTaskReward: '600.00' })).status).toBe(202);
    expect(await queues(admin)).toEqual({ deletionsDue: 1, settingsRequests: 1 });

    // The reviewer decides the proof: the queue empties.
    const [submission] = (await reviewer.get<{ id: string }[]>('/api/admin/submissions?status=submitted')).body;
    expect((await reviewer.post(`/api/admin/submissions/${submission!.id}/approve`)).status).toBe(200);
    expect((await queues(reviewer)).proofs).toBe(0);
  });

  it('counts a payout as late once it has been processing longer than the limit', async () => {
    const now = new Date().toISOString();
    // Batched just now: not late against a cut-off in the past, late once the cut-off passes it.
    expect(await countStaffQueues(server.db, ['payoutsLate'], { now, lateBefore: '2000-01-01T00:00:00.000Z' })).toEqual({ payoutsLate: 0 });
    expect(await countStaffQueues(server.db, ['payoutsLate'], { now, lateBefore: '9999-12-31T00:00:00.000Z' })).toEqual({ payoutsLate: 1 });
  });
});
