/**
 * Races across three API nodes on one PostgreSQL log and one S3 bucket (each node with a DATA_DIR of its own): what
 * decides them is the stream's revision in the shared log, not any node's read models. Fifty users,
 * spread over the nodes, submitting proof for a ten-slot task at once: exactly ten slots taken.
 * Fifty claims of one person's KYC bonus at once over the three nodes: exactly one credit.
 * (three-nodes.int.spec.ts has the withdrawal race and a node killed mid-load.)
 */
import { type KycDocumentBody, LOG_POSITION_HEADER, type TaskBody, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitDocument } from '../kyc/testing.ts';
import { upload } from '../tasks/testing.ts';
import { type Nodes, startNodes } from '../testing/nodes.ts';
import { signUpAt } from '../testing/process.ts';
import type { TestClient, TestResponse } from '../testing/server.ts';

const USERS = 50;
const SLOTS = 10;
const CLAIMS = 50;

let started: Nodes;
beforeAll(async () => {
  started = await startNodes(3);
}, 240_000);
afterAll(async () => {
  await started?.close();
});

const urls = () => started.nodes.map((n) => n.url);

/** As the app does: a `busy` answer (the stream moved under the command too often) is sent again. */
async function retryBusy<T>(send: () => Promise<TestResponse<T>>): Promise<TestResponse<T>> {
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    if (res.status !== 409 || (res.body as { error?: { code?: string } }).error?.code !== 'busy' || attempt === 5) return res;
  }
}

describe('races across three API nodes on one PostgreSQL log', () => {
  it(`${USERS} users over three nodes racing for a ${SLOTS}-slot task: exactly ${SLOTS} take a slot`, async () => {
    const { store } = started;
    const admin = await signUpAt(store, urls()[0]!, 'Arjun', ['admin']);
    const created = await admin.post<TaskBody>('/api/admin/tasks', { title: 'Rate PhonePe', description: 'Rate it', rupeeReward: '25', maxCompletions: SLOTS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const taskId = created.body.id;
    const position = { [LOG_POSITION_HEADER]: created.headers.get(LOG_POSITION_HEADER)! };

    // Each user uploads through one node, straight into the shared bucket, and submits at the next:
    // the node that checks the proof finds the object another node signed the upload for.
    const users = await Promise.all(Array.from({ length: USERS }, (_, i) => signUpAt(store, urls()[i % 3]!, `Worker${i}`)));
    const images = await Promise.all(
      users.map(async (user) => {
        const uploaded = await upload({ url: user.baseUrl }, user);
        expect(new URL(uploaded.uploadURL).origin).toBe(started.s3.endpoint);
        expect(uploaded.putStatus).toBe(200);
        return uploaded.objectURL;
      }),
    );
    const results = await Promise.all(
      users.map((user, i) =>
        retryBusy(() => user.clone(urls()[(i + 1) % 3]).request('POST', `/api/tasks/${taskId}/submit-proof`, { proofImageUrl: images[i], proofDescription: 'Rated 5 stars' }, position)),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(SLOTS);
    for (const refused of results.filter((r) => r.status !== 201)) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.error.code).toBe('task_full');
    }
    const taskEvents = await store.readStream(streams.task(taskId));
    expect(taskEvents.filter((e) => e.type === 'TaskSlotTaken')).toHaveLength(SLOTS);
    const proofs = await Promise.all(users.map(async (user) => (await store.readStream(streams.user(user.userId))).filter((e) => e.type === 'ProofSubmitted')));
    expect(proofs.flat()).toHaveLength(SLOTS);
  }, 150_000);

  it(`${CLAIMS} claims of one KYC bonus at once over three nodes: one credit of ₹200`, async () => {
    const { store } = started;
    const [a, b, c] = urls() as [string, string, string];
    const user = await signUpAt(store, a, 'Ravi');
    const pan: KycDocumentBody = await submitDocument(a, user, 'pan', 11);
    const voter: KycDocumentBody = await submitDocument(a, user, 'voter_id', 13);
    const [kavya, meena] = await Promise.all([signUpAt(store, b, 'Kavya', ['reviewer']), signUpAt(store, c, 'Meena', ['reviewer'])]);
    const head = async () => ({ [LOG_POSITION_HEADER]: String(await store.headPosition()) });
    const reviews: TestClient[] = [kavya, meena];
    let last = '';
    for (const [i, doc] of [pan, voter].entries()) {
      const approved = await reviews[i]!.request('POST', `/api/admin/kyc/${doc.id}/approve`, undefined, await head());
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      last = approved.headers.get(LOG_POSITION_HEADER)!;
    }

    const claims = await Promise.all(
      Array.from({ length: CLAIMS }, (_, i) => user.clone(urls()[i % 3]).request('POST', '/api/kyc/complete', undefined, { [LOG_POSITION_HEADER]: last })),
    );
    expect(claims.map((r) => r.status).sort()).toEqual([200, ...Array<number>(CLAIMS - 1).fill(409)]);
    expect(claims.find((r) => r.status === 200)?.body).toEqual({ rupees: '200.00', balance: '200.00' });
    // A loser saw the claim already made, or (rarely) kept losing the race to append: never a second credit.
    for (const refused of claims.filter((r) => r.status === 409)) expect(['kyc_bonus_already_claimed', 'busy']).toContain(refused.body.error.code);
    const events = await store.readStream(streams.user(user.userId));
    expect(events.filter((e) => e.type === 'WalletCredited')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'KycBonusClaimed')).toHaveLength(1);
    for (const url of [a, b, c]) {
      const me = await user.clone(url).request('GET', '/api/auth/user', undefined, { [LOG_POSITION_HEADER]: String(await store.headPosition()) });
      expect(me.body).toMatchObject({ totalRupees: '200.00', kycStatus: 'bonus_claimed' });
    }
  }, 120_000);
});
