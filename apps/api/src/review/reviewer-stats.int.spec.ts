import { type ReviewerStatsBody, SYSTEM_ACTOR, type SubmissionBody, type TaskBody, type UserTaskBody, istDayOf, istDayStart, medianOf } from '@kamai/contracts';
import type { RecordedEvent } from '@kamai/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskAs, submitProof, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';
import { runAutoApprovals } from './auto-approve.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Figures = { approvals: number; rejections: number; needsChanges: number; appealsLost: number; seconds: number[] };

/**
 * The test's own fold of the log, written from the events' meaning (docs/reviewer-stats.md), not from
 * the read model: a reviewer's decision is an approval, a rejection or a change request of a proof
 * under review, timed from its (re)submission; an overturned appeal is lost by whoever rejected.
 */
function foldReviewerFigures(events: readonly RecordedEvent[], from: string, to: string): Map<string, Figures> {
  const inRange = (at: string) => istDayOf(at) >= from && istDayOf(at) <= to;
  const proofs = new Map<string, { since: string; status: string; by?: string }>();
  const figures = new Map<string, Figures>();
  const of = (id: string) => figures.get(id) ?? figures.set(id, { approvals: 0, rejections: 0, needsChanges: 0, appealsLost: 0, seconds: [] }).get(id)!;
  const count = (submissionId: string, by: string, at: string, kind: 'approvals' | 'rejections' | 'needsChanges') => {
    const proof = proofs.get(submissionId)!;
    const underReview = proof.status === 'review';
    proof.status = kind;
    proof.by = by;
    if (!underReview || by === SYSTEM_ACTOR || !inRange(at)) return;
    of(by)[kind] += 1;
    of(by).seconds.push(Math.round((Date.parse(at) - Date.parse(proof.since)) / 1000));
  };
  for (const { type, data } of events) {
    const d = data as Record<string, string>;
    if (type === 'ProofSubmitted') proofs.set(d.submissionId!, { since: d.submittedAt!, status: 'review' });
    if (type === 'ProofResubmitted') proofs.set(d.submissionId!, { since: d.resubmittedAt!, status: 'review' });
    if (type === 'ProofApproved') count(d.submissionId!, d.reviewedBy!, d.approvedAt!, 'approvals');
    if (type === 'ProofRejected') count(d.submissionId!, d.reviewedBy!, d.rejectedAt!, 'rejections');
    if (type === 'ProofChangesRequested') count(d.submissionId!, d.reviewedBy!, d.requestedAt!, 'needsChanges');
    if (type === 'AppealDecided' && d.decision === 'overturn' && inRange(d.decidedAt!)) of(proofs.get(d.submissionId!)!.by!).appealsLost += 1;
  }
  return figures;
}

describe('GET /api/admin/reviewers/stats: reviewing seen from above', () => {
  let server: TestServer;
  let admin: TestClient;
  let asha: Awaited<ReturnType<TestServer['signUp']>>;
  let bina: Awaited<ReturnType<TestServer['signUp']>>;
  let chetan: Awaited<ReturnType<TestServer['signUp']>>;
  // The command clock: 03:00 IST tomorrow, moved forward through the days below.
  const base = Date.parse(istDayStart(istDayOf(new Date(Date.now() + DAY)))) + 3 * HOUR;
  let at = new Date(base);
  const day = (n: number) => istDayOf(new Date(base + (n - 1) * DAY));
  const clock = (offset: number) => {
    at = new Date(base + offset);
  };

  beforeAll(async () => {
    server = await startTestServer({}, { now: () => at });
    admin = await server.signUp({ roles: ['admin'] });
    asha = await server.signUp({ roles: ['reviewer'], firstName: 'Asha', lastName: 'Rao' });
    bina = await server.signUp({ roles: ['reviewer'], firstName: 'Bina', lastName: 'Das' });
    chetan = await server.signUp({ roles: ['reviewer'], firstName: 'Chetan', lastName: 'Iyer' });
  });
  afterAll(() => server.close());

  async function submitted(user: TestClient, title: string): Promise<string> {
    const task: TaskBody = await createTaskAs(admin, { title, rupeeReward: '20' });
    const res = await submitProof(user, task.id, await uploadedImage(server, user));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as UserTaskBody).submissionId;
  }
  const decide = async (reviewer: TestClient, id: string, action: 'approve' | 'reject' | 'request-changes') => {
    const res = await reviewer.post<SubmissionBody>(`/api/admin/submissions/${id}/${action}`, action === 'approve' ? {} : { reason: 'The screenshot does not show the rating' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const stats = (query = '') => admin.get<ReviewerStatsBody>(`/api/admin/reviewers/stats${query}`);
  async function allEvents(): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    for (;;) {
      const page = await server.store.readAll({ after: events.at(-1)?.position ?? 0, limit: 500 });
      if (page.length === 0) return events;
      events.push(...page);
    }
  }

  it('counts decisions, needs-changes, appeals lost and median times per reviewer, matching a fold of the events', async () => {
    const worker = await server.signUp();
    const other = await server.signUp();
    clock(0);
    const [p1, p2, p3, p4] = [await submitted(worker, 'Rate Paytm'), await submitted(worker, 'Rate Zomato'), await submitted(worker, 'Rate Swiggy'), await submitted(worker, 'Rate Ola')];
    const [p5, p6] = [await submitted(other, 'Rate Myntra'), await submitted(other, 'Rate Meesho')];
    clock(10 * MINUTE);
    await decide(asha, p1!, 'approve');
    clock(20 * MINUTE);
    await decide(asha, p2!, 'reject');
    clock(30 * MINUTE);
    await decide(bina, p3!, 'request-changes');
    clock(40 * MINUTE);
    const task3 = (await worker.get<UserTaskBody[]>('/api/user-tasks')).body.find((t) => t.submissionId === p3)!;
    expect((await submitProof(worker, task3.taskId, await uploadedImage(server, worker), 'Now with the rating')).status).toBe(201);
    clock(60 * MINUTE);
    await decide(bina, p3!, 'approve');
    clock(90 * MINUTE);
    await decide(chetan, p4!, 'reject');
    clock(100 * MINUTE);
    await decide(chetan, p5!, 'request-changes');
    clock(2 * HOUR);
    const appeal = await worker.post<{ id: string }>(`/api/submissions/${p2}/appeal`, { note: 'The rating is in the corner' });
    expect(appeal.status).toBe(201);
    // Day 2: Bina overturns Asha's rejection.
    clock(DAY + 2 * HOUR);
    expect((await bina.post(`/api/admin/appeals/${appeal.body.id}/decide`, { decision: 'overturn', reason: 'The rating is visible' })).status).toBe(200);
    // Day 3: Chetan's change request lapses into a rejection in his name: not a second decision of his.
    clock(2 * DAY + 2 * HOUR);
    expect((await runAutoApprovals({ store: server.store, db: server.db, now: at })).lapsed).toEqual([p5]);
    // Day 4: the sweep approves the proof nobody decided: the system is no reviewer.
    clock(3 * DAY + 2 * HOUR);
    expect((await runAutoApprovals({ store: server.store, db: server.db, now: at })).approved).toEqual([p6]);
    await server.runner.waitFor(await server.store.headPosition());

    const res = await stats(`?from=${day(1)}&to=${day(4)}`);
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.reviewers.map((r) => [r.name, r]));
    expect(res.body).toMatchObject({ from: day(1), to: day(4), teamRejectionRate: 2 / 6, reviewers: expect.any(Array) });
    expect(res.body.reviewers).toHaveLength(3);
    expect(byName['Asha Rao']).toEqual({
      reviewerId: asha.userId, name: 'Asha Rao', decisions: 2, approvals: 1, rejections: 1, needsChanges: 0, rejectionRate: 0.5, appealsLost: 1, medianDecisionSeconds: 900, rejectionRateAlert: false,
    });
    // The approval after the resubmission is timed from the resubmission (20 minutes), not the first proof.
    expect(byName['Bina Das']).toMatchObject({ decisions: 2, approvals: 1, needsChanges: 1, rejections: 0, rejectionRate: 0, appealsLost: 0, medianDecisionSeconds: 1500 });
    expect(byName['Chetan Iyer']).toMatchObject({ decisions: 2, rejections: 1, needsChanges: 1, approvals: 0, medianDecisionSeconds: 5700 });

    // The answer is the fold of the log, reviewer by reviewer.
    const fold = foldReviewerFigures(await allEvents(), day(1), day(4));
    expect(
      res.body.reviewers.map((r) => ({ id: r.reviewerId, approvals: r.approvals, rejections: r.rejections, needsChanges: r.needsChanges, appealsLost: r.appealsLost, median: r.medianDecisionSeconds })),
    ).toEqual(
      [...fold].map(([id, f]) => ({ id, approvals: f.approvals, rejections: f.rejections, needsChanges: f.needsChanges, appealsLost: f.appealsLost, median: medianOf(f.seconds) })).sort(
        (a, b) => res.body.reviewers.findIndex((r) => r.reviewerId === a.id) - res.body.reviewers.findIndex((r) => r.reviewerId === b.id),
      ),
    );

    // Day 1 alone: the appeal was lost on day 2.
    const first = await stats(`?from=${day(1)}&to=${day(1)}`);
    expect(first.body.reviewers.find((r) => r.reviewerId === asha.userId)).toMatchObject({ decisions: 2, appealsLost: 0 });
    expect(first.body.reviewers.map((r) => r.reviewerId).sort()).toEqual([asha.userId, bina.userId, chetan.userId].sort());
    // Day 2 alone: no decision, one appeal lost.
    expect((await stats(`?from=${day(2)}&to=${day(2)}`)).body).toMatchObject({
      teamRejectionRate: null,
      reviewers: [{ reviewerId: asha.userId, decisions: 0, rejectionRate: null, appealsLost: 1, medianDecisionSeconds: null, rejectionRateAlert: false }],
    });
    // No range: the last 30 days ending today by the server's clock (day 4), so day 1 is in it.
    expect((await stats()).body).toMatchObject({ to: day(4), teamRejectionRate: 2 / 6 });
  });

  it('answers 400 with field errors for a bad day or an end before the start', async () => {
    const refused = (query: string) => admin.get<{ error: { fields: Record<string, string> } }>(`/api/admin/reviewers/stats${query}`);
    const bad = await refused('?from=2026-02-30');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['from']);
    const backwards = await refused('?from=2026-03-02&to=2026-03-01');
    expect(backwards.status).toBe(400);
    expect(Object.keys(backwards.body.error.fields)).toEqual(['to']);
    expect((await asha.get('/api/admin/reviewers/stats')).status).toBe(403);
  });

  it("counts at most ten of a worker's rejections from one IST day in their approval rate; marks a reviewer rejecting over twice the team's rate", async () => {
    clock(5 * DAY);
    const [worker, steady] = [await server.signUp(), await server.signUp()];
    const tasks: string[] = [];
    for (let i = 0; i < 21; i++) tasks.push((await createTaskAs(admin, { title: `Visit site ${i}`, rupeeReward: '5' })).id);
    const proofs = async (user: TestClient, taskIds: string[]) => {
      const ids: string[] = [];
      for (const taskId of taskIds) ids.push(((await submitProof(user, taskId, await uploadedImage(server, user))).body as UserTaskBody).submissionId);
      return ids;
    };
    const ids = await proofs(worker, tasks);
    await decide(asha, ids[0]!, 'approve');
    expect((await bina.post('/api/admin/submissions/bulk', { ids: ids.slice(1), decision: 'reject', reason: 'Not the right page' })).status).toBe(200);
    expect((await chetan.post('/api/admin/submissions/bulk', { ids: await proofs(steady, tasks.slice(0, 20)), decision: 'approve' })).status).toBe(200);

    // A new proof of theirs in the queue shows the rate: 1 approved, 20 rejected on one day of which 10 count.
    const pending = await submitted(worker, 'Visit one more site');
    const queue = await asha.get<SubmissionBody[]>('/api/admin/submissions?status=submitted');
    expect(queue.body.find((s) => s.id === pending)?.worker).toMatchObject({ approvedCount: 1, rejectedCount: 20, approvalRate: 1 / 11 });

    // That day the team rejected 20 of 41 proofs, all by Bina: over twice the team's rate, over 20 decisions.
    const answer = (await stats(`?from=${day(6)}&to=${day(6)}`)).body;
    expect(answer.teamRejectionRate).toBe(20 / 41);
    expect(answer.reviewers.map((r) => [r.reviewerId, r.decisions, r.rejectionRateAlert])).toEqual([
      [bina.userId, 20, true],
      [chetan.userId, 20, false],
      [asha.userId, 1, false],
    ]);
  });
});
