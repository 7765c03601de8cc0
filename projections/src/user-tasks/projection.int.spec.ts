import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KamaiEvent } from '@kamai/contracts';
import type { RecordedEvent } from '@kamai/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb, writeTransaction } from '../db.ts';
import { readEventTextsFrom } from '../event-texts.ts';
import { allProjections } from '../index.ts';
import { rebuildReadModels } from '../rebuild.ts';
import { applyEvents } from '../runner.ts';
import { listAsEventSource, recordEvents } from '../testing.ts';
import { listActiveTasks, listCatalogueTasks } from '../tasks/queries.ts';
import { listTransactions } from '../wallet/queries.ts';
import { findSubmission, listSubmissions, listUserTasks } from './queries.ts';

const t = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;
const U = 'u1';
const T = 't1';

const task = {
  title: 'Rate PhonePe',
  description: 'Give an honest rating',
  rewardPaise: 2500,
  estimatedTime: '3 min',
  taskType: 'rating' as const,
  taskUrl: 'https://play.google.com/store/apps/details?id=com.phonepe.app',
  isActive: true,
  iconColor: '#3B82F6',
  requiresProof: true,
  proofInstructions: 'Screenshot of your review',
};
const submitted = (submissionId: string, minute: number): KamaiEvent => ({
  type: 'ProofSubmitted',
  data: {
    submissionId,
    taskId: T,
    taskTitle: 'Rate PhonePe',
    rewardPaise: 2500,
    proofImageUrl: `/objects/uploads/${U}/${submissionId}`,
    proofDescription: `proof ${submissionId}`,
    submittedAt: t(minute),
  },
});

describe('tasks, user_tasks and proof_submissions read models', () => {
  let dir: string;
  let db: ReadDbHandle;
  let position = 0;
  /** Every event given, for the queries that read older events' literal texts from them. */
  let log: RecordedEvent[] = [];

  /** Applies events as the runner would, each on its stream, in order. */
  async function given(...events: [stream: string, event: KamaiEvent][]) {
    const recorded: RecordedEvent[] = events.map(([streamId, event]) => {
      position += 1;
      return { id: `e${position}`, streamId, revision: position, position, type: event.type, data: event.data, metadata: {}, recordedAt: t(0) } as RecordedEvent;
    });
    log.push(...recorded);
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded));
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kamai-proj-'));
    db = await openReadDb(join(dir, 'read.sqlite'));
    position = 0;
    log = [];
    readEventTextsFrom(db, listAsEventSource(log));
    await given(
      ['user-u1', { type: 'UserRegistered', data: { userId: U, mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: t(0) } }],
      [`task-${T}`, { type: 'TaskCreated', data: { taskId: T, ...task, createdBy: 'admin', createdAt: t(1) } }],
    );
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists a created task with its reward as a decimal string, and an inactive one only for the admin', async () => {
    expect(await listActiveTasks(db)).toMatchObject([{ id: T, rupeeReward: '25.00', isActive: true, requiresProof: true, taskUrl: task.taskUrl }]);
    await given([`task-${T}`, { type: 'TaskUpdated', data: { taskId: T, ...task, isActive: false, updatedBy: 'admin', updatedAt: t(2) } }]);
    expect(await listActiveTasks(db)).toEqual([]);
    expect(await listCatalogueTasks(db)).toMatchObject([{ id: T, isActive: false, updatedAt: t(2) }]);
  });

  it('a submission puts a row in the queue with the user name and mobile, and a submitted user_tasks row', async () => {
    await given(['user-u1', submitted('s1', 3)]);
    expect(await listSubmissions(db, { status: 'submitted' })).toEqual([
      {
        id: 's1',
        status: 'submitted',
        taskId: T,
        taskTitle: 'Rate PhonePe',
        // The task was created without Hindi texts.
        taskTitleHi: null,
        taskType: 'rating',
        rupeeReward: '25.00',
        userId: U,
        userName: 'Asha Rao',
        userMobile: '9876543210',
        proofImageUrl: `/objects/uploads/${U}/s1`,
        proofDescription: 'proof s1',
        submittedAt: t(3),
        reviewedAt: null,
        reviewedBy: null,
        rejectionReason: null,
        similarProofs: [],
        secondsToProof: null,
        fast: false,
        worker: { approvalRate: null, approvedCount: 0, rejectedCount: 0, accountAgeDays: expect.any(Number), kycStatus: 'pending', suspended: false },
      },
    ]);
    expect(await listUserTasks(db, U)).toMatchObject([{ id: 's1', status: 'submitted', submissionId: 's1', rupeesEarned: null, completedAt: null }]);
  });

  it('flags near-duplicate pictures of any user, the time from Start, and the worker as of the read', async () => {
    const U2 = 'u2';
    const withHash = (event: KamaiEvent, proofDhash: string, startedAt: string | null = null): KamaiEvent =>
      ({ ...event, data: { ...event.data, proofDhash, startedAt } }) as KamaiEvent;
    await given(
      ['user-u2', { type: 'UserRegistered', data: { userId: U2, mobile: '9123456789', passwordHash: 'h', firstName: 'Ravi', lastName: 'Kumar', registeredAt: t(0) } }],
      // Started at minute 2, sent at minute 3: 60 s, and "3 min" makes 45 s the fast line.
      ['user-u1', withHash(submitted('s1', 3), '3e8e8e8e8e8e8e8e', t(2))],
      // Two bits off: the same picture; 8 bits off: another.
      ['user-u2', withHash({ ...submitted('s2', 4), data: { ...submitted('s2', 4).data, taskId: 'other' } } as KamaiEvent, '3e8e8e8e8e8e8e8b')],
      ['user-u2', withHash(submitted('s3', 5), '3e8e8e8e8e8e71f1')],
      ['user-u1', { type: 'ProofRejected', data: { submissionId: 's1', taskId: T, reviewedBy: 'rev', reason: 'Copied', rejectedAt: t(6) } }],
      ['user-u2', { type: 'ProofApproved', data: { submissionId: 's3', taskId: T, reviewedBy: 'rev', rewardPaise: 2500, approvedAt: t(7) } }],
      ['user-u2', { type: 'AccountSuspended', data: { reason: 'Copied', suspendedBy: 'admin', suspendedAt: t(8) } }],
    );
    const now = new Date('2026-11-24T11:00:00.000Z');
    expect(await findSubmission(db, 's1', now)).toMatchObject({
      similarProofs: [{ submissionId: 's2', mobileMasked: '+91 91xxxxxx89', distance: 2 }],
      secondsToProof: 60,
      fast: false,
      worker: { approvalRate: 0, approvedCount: 0, rejectedCount: 1, accountAgeDays: 3, kycStatus: 'pending', suspended: false },
    });
    expect(await findSubmission(db, 's2', now)).toMatchObject({
      similarProofs: [{ submissionId: 's1', mobileMasked: '+91 98xxxxxx10', distance: 2 }],
      secondsToProof: null,
      worker: { approvalRate: 1, approvedCount: 1, rejectedCount: 0, suspended: true },
    });
    expect((await findSubmission(db, 's3', now))?.similarProofs).toEqual([]);

    // Erased: the picture's hash goes with the picture, so the erased proof matches nothing.
    await given(['user-u1', { type: 'UserErased', data: { requestId: 'r1', erasedBy: 'admin', erasedAt: t(9) } }]);
    expect((await findSubmission(db, 's2', now))?.similarProofs).toEqual([]);
  });

  it('rejection then resubmission then approval: one user_tasks row, every submission kept, one earned transaction', async () => {
    await given(
      ['user-u1', submitted('s1', 3)],
      ['user-u1', { type: 'ProofRejected', data: { submissionId: 's1', taskId: T, reviewedBy: 'rev', reason: 'Blurry', rejectedAt: t(4) } }],
    );
    expect(await listUserTasks(db, U)).toMatchObject([{ status: 'rejected', rejectionReason: 'Blurry', reviewedAt: t(4) }]);

    await given(
      ['user-u1', submitted('s2', 5)],
      ['user-u1', { type: 'ProofApproved', data: { submissionId: 's2', taskId: T, reviewedBy: 'rev', rewardPaise: 2500, approvedAt: t(6) } }],
      [
        'user-u1',
        {
          type: 'WalletCredited',
          data: { entryId: 'c1', amountPaise: 2500, kind: 'task_reward', description: 'Task completed: Rate PhonePe', taskId: T, reference: 's2', by: 'rev', creditedAt: t(6) },
        },
      ],
    );
    expect(await listUserTasks(db, U)).toEqual([
      {
        id: 's1',
        userId: U,
        taskId: T,
        status: 'approved',
        submissionId: 's2',
        taskTitle: 'Rate PhonePe',
        rupeeReward: '25.00',
        proofImageUrl: `/objects/uploads/${U}/s2`,
        proofDescription: 'proof s2',
        submittedAt: t(5),
        completedAt: t(6),
        rupeesEarned: '25.00',
        rejectionReason: null,
        reviewedAt: t(6),
      },
    ]);
    expect(await findSubmission(db, 's1')).toMatchObject({ status: 'rejected', rejectionReason: 'Blurry' });
    expect(await findSubmission(db, 's2')).toMatchObject({ status: 'approved', reviewedBy: 'rev' });
    expect(await listSubmissions(db, { status: 'submitted' })).toEqual([]);
    expect(await listTransactions(db, U)).toMatchObject([{ type: 'earned', amount: '25.00', taskId: T }]);
  });

  it('a deleted task leaves the catalogue but not the user history or the credit', async () => {
    await given(
      ['user-u1', submitted('s1', 3)],
      ['user-u1', { type: 'ProofApproved', data: { submissionId: 's1', taskId: T, reviewedBy: 'rev', rewardPaise: 2500, approvedAt: t(4) } }],
      [`task-${T}`, { type: 'TaskDeleted', data: { taskId: T, deletedBy: 'admin', deletedAt: t(5) } }],
    );
    expect(await listActiveTasks(db)).toEqual([]);
    expect(await listCatalogueTasks(db)).toEqual([]);
    expect(await listUserTasks(db, U)).toMatchObject([{ taskId: T, status: 'approved', taskTitle: 'Rate PhonePe', rupeesEarned: '25.00' }]);
    expect(await findSubmission(db, 's1')).toMatchObject({ taskTitle: 'Rate PhonePe', taskType: null });
  });

  it('a rebuild from position zero gives the same task rows as applying the events live', async () => {
    const events = recordEvents([
      { stream: 'user-u1', event: { type: 'UserRegistered', data: { userId: U, mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: t(0) } } },
      { stream: `task-${T}`, event: { type: 'TaskCreated', data: { taskId: T, ...task, createdBy: 'admin', createdAt: t(1) } } },
      { stream: 'user-u1', event: submitted('s1', 2) },
      { stream: 'user-u1', event: { type: 'ProofRejected', data: { submissionId: 's1', taskId: T, reviewedBy: 'rev', reason: 'Blurry', rejectedAt: t(3) } } },
      { stream: `task-${T}`, event: { type: 'TaskUpdated', data: { taskId: T, ...task, rewardPaise: 3000, updatedBy: 'admin', updatedAt: t(4) } } },
      { stream: 'user-u1', event: submitted('s2', 5) },
      { stream: 'user-u1', event: { type: 'ProofApproved', data: { submissionId: 's2', taskId: T, reviewedBy: 'rev', rewardPaise: 2500, approvedAt: t(6) } } },
      { stream: `task-${T}`, event: { type: 'TaskDeleted', data: { taskId: T, deletedBy: 'admin', deletedAt: t(7) } } },
    ]);
    const live = await openReadDb(join(dir, 'live.sqlite'));
    const rebuilt = await openReadDb(join(dir, 'rebuilt.sqlite'));
    try {
      for (const event of events) await writeTransaction(live, (trx) => applyEvents(trx, allProjections, [event]));
      await rebuildReadModels(rebuilt, listAsEventSource(events), allProjections, { batchSize: 3 });
      for (const table of ['tasks', 'user_tasks', 'proof_submissions'] as const) {
        const rows = async (handle: ReadDbHandle) => handle.selectFrom(table).selectAll().orderBy('id').execute();
        expect(await rows(rebuilt), table).toEqual(await rows(live));
        expect((await rows(live)).length, table).toBeGreaterThan(0);
      }
    } finally {
      await live.destroy();
      await rebuilt.destroy();
    }
  });
});
