import { describe, expect, it } from 'vitest';
import { MAX_MONEY_PAISE, type UserEvent } from '@kamai/contracts';
import { fold } from '../decider.ts';
import { deciderSpec } from '../testing/spec.ts';
import { userEvolver, type UserState } from './state.ts';
import { type TaskSnapshot, type UserTaskCommand, decideUserTasks } from './tasks.ts';

const t0 = '2026-11-21T10:00:00.000Z';
const t1 = '2026-11-21T11:00:00.000Z';
const t2 = '2026-11-21T12:00:00.000Z';
const spec = deciderSpec<UserState, UserEvent, UserTaskCommand>(userEvolver, decideUserTasks);

const task: TaskSnapshot = { taskId: 't1', title: 'Rate PhonePe', rewardPaise: 2500, isActive: true, requiresProof: true, expiresAt: null };
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: t0 },
};

const submit = (submissionId = 's1', overrides: Partial<Extract<UserTaskCommand, { type: 'SubmitProof' }>['data']> = {}): UserTaskCommand => ({
  type: 'SubmitProof',
  data: { taskId: 't1', task, submissionId, proofImageUrl: '/objects/uploads/u1/img', proofDescription: 'Rated 5 stars', ...overrides },
  now: t1,
});
const submitted = (
  submissionId = 's1',
  overrides: { rewardPaise?: number; proofDescription?: string; proofDhash?: string; startedAt?: string | null } = {},
): UserEvent => ({
  type: 'ProofSubmitted',
  data: {
    submissionId,
    taskId: 't1',
    taskTitle: 'Rate PhonePe',
    rewardPaise: 2500,
    proofImageUrl: '/objects/uploads/u1/img',
    proofDescription: 'Rated 5 stars',
    submittedAt: t1,
    startedAt: null,
    ...overrides,
  },
});
const approve = (submissionId = 's1'): UserTaskCommand => ({
  type: 'ApproveProof',
  data: { submissionId, reviewerId: 'rev', entryId: 'e1', notificationId: 'n1' },
  now: t2,
});
const reject = (submissionId = 's1', reason = 'Screenshot is blurry'): UserTaskCommand => ({
  type: 'RejectProof',
  data: { submissionId, reviewerId: 'rev', reason, notificationId: 'n1' },
  now: t2,
});
const approved = (submissionId = 's1'): UserEvent => ({
  type: 'ProofApproved',
  data: { submissionId, taskId: 't1', reviewedBy: 'rev', rewardPaise: 2500, approvedAt: t2 },
});
const rejected = (submissionId = 's1'): UserEvent => ({
  type: 'ProofRejected',
  data: { submissionId, taskId: 't1', reviewedBy: 'rev', reason: 'Screenshot is blurry', reasonCode: 'other', rejectedAt: t2 },
});

describe('proof submission', () => {
  it('submits proof for a task with no record yet (pending), trimming the description', () => {
    spec.given([registered]).when(submit('s1', { proofDescription: '  Rated 5 stars \n' })).then([submitted()]);
  });

  it('records the picture hash the API took and when the user tapped Start, for the review queue', () => {
    const started: UserEvent = { type: 'TaskStarted', data: { taskId: 't1', startedAt: t0 } };
    spec.given([registered, started]).when(submit('s1', { proofDhash: '3e8e8e8e8e8e8e8e' })).then([submitted('s1', { proofDhash: '3e8e8e8e8e8e8e8e', startedAt: t0 })]);
    // A rejection clears the start: the next try is timed from its own Start.
    spec.given([registered, started, submitted('s1', { startedAt: t0 }), rejected('s1')]).when(submit('s2')).then([submitted('s2')]);
  });

  it('resubmits after a rejection, under a new submission id', () => {
    spec.given([registered, submitted('s1'), rejected('s1')]).when(submit('s2')).then([submitted('s2')]);
  });

  it('refuses while the proof is under review, and once the task is completed (409)', () => {
    spec.given([registered, submitted()]).when(submit('s2')).thenFails('conflict', /already under review/);
    spec.given([registered, submitted(), approved()]).when(submit('s2')).thenFails('conflict', /already completed/);
  });

  it('refuses an unknown or deleted task (404), an inactive one (409) and one without proof (400)', () => {
    spec.given([registered]).when(submit('s1', { task: null })).thenFails('not_found', /Task not found/);
    spec.given([registered]).when(submit('s1', { task: { ...task, isActive: false } })).thenFails('conflict', /not available/);
    // From the end of the task's last day on, no proof (task_expired).
    spec.given([registered]).when(submit('s1', { task: { ...task, expiresAt: t1 } })).thenFails('conflict', /ended/);
    spec.given([registered]).when(submit('s1', { task: { ...task, requiresProof: false } })).thenFails('invalid', /does not need proof/);
  });

  it('refuses a missing image or a blank description, and one over 500 characters', () => {
    spec.given([registered]).when(submit('s1', { proofDescription: '   ' })).thenFails('invalid', /Please upload proof image and provide description/);
    spec.given([registered]).when(submit('s1', { proofImageUrl: '' })).thenFails('invalid', /Please upload proof image/);
    spec.given([registered]).when(submit('s1', { proofDescription: 'x'.repeat(501) })).thenFails('invalid', /at most 500/);
    spec.given([registered]).when(submit('s1', { proofDescription: 'x'.repeat(500) })).then([submitted('s1', { proofDescription: 'x'.repeat(500) })]);
  });
});

describe('proof review', () => {
  it('approval credits the reward recorded at submission, once, and tells the user', () => {
    spec
      .given([registered, submitted()])
      .when(approve())
      .then([
        approved(),
        {
          type: 'WalletCredited',
          data: {
            entryId: 'e1',
            amountPaise: 2500,
            kind: 'task_reward',
            params: { taskTitle: 'Rate PhonePe' },
            taskId: 't1',
            reference: 's1',
            by: 'rev',
            creditedAt: t2,
          },
        },
        {
          type: 'NotificationSent',
          data: {
            notificationId: 'n1',
            key: 'task_approved',
            params: { amountPaise: 2500, taskTitle: 'Rate PhonePe', taskId: 't1' },
            kind: 'success',
            sentAt: t2,
          },
        },
      ]);
  });

  it('the approved reward reaches the wallet state', () => {
    const events = [registered, submitted(), ...decideUserTasks(approve(), fold(userEvolver, [registered, submitted()]))];
    const state = fold(userEvolver, events);
    expect(state.wallet).toEqual({ balance: 2500, totalEarned: 2500, totalWithdrawn: 0 });
    expect(state.tasks.byTask.get('t1')).toEqual({ status: 'approved', submissionId: 's1' });
  });

  it('rejection records the trimmed reason and notifies the user', () => {
    spec
      .given([registered, submitted()])
      .when(reject('s1', '  Screenshot is blurry  '))
      .then([
        rejected(),
        {
          type: 'NotificationSent',
          data: {
            notificationId: 'n1',
            key: 'proof_rejected',
            params: { taskTitle: 'Rate PhonePe', taskId: 't1', reason: 'Screenshot is blurry' },
            kind: 'warning',
            sentAt: t2,
          },
        },
      ]);
  });

  it('refuses a rejection without a reason', () => {
    spec.given([registered, submitted()]).when(reject('s1', '   ')).thenFails('invalid', /reason/);
  });

  it('a reviewed submission cannot be approved or rejected again (409)', () => {
    const message = /already been reviewed/;
    spec.given([registered, submitted(), approved()]).when(approve()).thenFails('conflict', message);
    spec.given([registered, submitted(), approved()]).when(reject()).thenFails('conflict', message);
    spec.given([registered, submitted(), rejected()]).when(approve()).thenFails('conflict', message);
    spec.given([registered, submitted(), rejected()]).when(reject()).thenFails('conflict', message);
  });

  it('after a resubmission the old, rejected submission stays refused and the new one is reviewable', () => {
    const history = [registered, submitted('s1'), rejected('s1'), submitted('s2')];
    spec.given(history).when(approve('s1')).thenFails('conflict');
    const events = decideUserTasks(approve('s2'), fold(userEvolver, history));
    expect(events[0]).toEqual(approved('s2'));
  });

  it('refuses a reward that would take the balance past what a money column holds', () => {
    const nearlyFull: UserEvent = {
      type: 'WalletCredited',
      data: { entryId: 'e0', amountPaise: MAX_MONEY_PAISE - 2000, kind: 'adjustment', params: { reason: 'x' }, by: 'fin-1', creditedAt: t0 },
    };
    spec.given([registered, nearlyFull, submitted()]).when(approve()).thenFails('conflict', /most a wallet can hold/);
  });

  it('refuses an unknown submission (404)', () => {
    spec.given([registered]).when(approve('nope')).thenFails('not_found');
    spec.given([registered]).when(reject('constructor')).thenFails('not_found');
  });

  it('credits the reward of the submission even when it differs from the task today', () => {
    const [first, credited] = decideUserTasks(approve(), fold(userEvolver, [registered, submitted('s1', { rewardPaise: 1234 })]));
    expect(first).toMatchObject({ type: 'ProofApproved', data: { rewardPaise: 1234 } });
    expect(credited).toMatchObject({ type: 'WalletCredited', data: { amountPaise: 1234 } });
  });
});

describe('needs changes', () => {
  const t50 = '2026-11-23T12:00:00.000Z'; // t2 + 48 h
  const askChanges = (reviewerId = 'rev', reason = ' Show your review '): UserTaskCommand => ({
    type: 'RequestChanges',
    data: { submissionId: 's1', reviewerId, reason, notificationId: 'n1' },
    now: t2,
  });
  const changesRequested: UserEvent = {
    type: 'ProofChangesRequested',
    data: { submissionId: 's1', taskId: 't1', reviewedBy: 'rev', reason: 'Show your review', reasonCode: 'other', requestedAt: t2, resubmitBy: t50 },
  };
  const lapse = (now: string): UserTaskCommand => ({ type: 'LapseChangeRequest', data: { submissionId: 's1', notificationId: 'n2' }, now });

  it('sends a proof under review back with a reason, 48 hours to resubmit, and tells the person', () => {
    spec
      .given([registered, submitted()])
      .when(askChanges())
      .then([
        changesRequested,
        { type: 'NotificationSent', data: { notificationId: 'n1', key: 'proof_needs_changes', params: { taskTitle: 'Rate PhonePe', taskId: 't1', reason: 'Show your review' }, kind: 'warning', sentAt: t2 } },
      ]);
    spec.given([registered, submitted()]).when(askChanges('rev', '  ')).thenFails('invalid', /reason/);
    spec.given([registered, submitted(), changesRequested]).when(askChanges()).thenFails('conflict');
    spec.given([registered, submitted(), approved()]).when(askChanges()).thenFails('conflict');
    // Staff never send back their own proof.
    spec.given([registered, submitted()]).when(askChanges('u1')).thenFails('forbidden');
  });

  it('a proof sent again after a change request is the same submission under review again', () => {
    spec
      .given([registered, submitted(), changesRequested])
      .when({ ...submit('s2', { proofDescription: ' Review visible now ' }), now: t2 })
      .then([{ type: 'ProofResubmitted', data: { submissionId: 's1', taskId: 't1', proofImageUrl: '/objects/uploads/u1/img', proofDescription: 'Review visible now', resubmittedAt: t2 } }]);
    const resubmitted: UserEvent = { type: 'ProofResubmitted', data: { submissionId: 's1', taskId: 't1', proofImageUrl: '/i', proofDescription: 'd', resubmittedAt: t2 } };
    spec.given([registered, submitted(), changesRequested, resubmitted]).when(submit('s2')).thenFails('conflict', /already under review/);
    spec.given([registered, submitted(), changesRequested, resubmitted]).when(approve()).then(expect.arrayContaining([approved()]) as unknown as UserEvent[]);
  });

  it('lapses into the asking reviewer\'s rejection once 48 hours pass without a resubmission, not before', () => {
    spec
      .given([registered, submitted(), changesRequested])
      .when(lapse(t50))
      .then([
        { type: 'ProofRejected', data: { submissionId: 's1', taskId: 't1', reviewedBy: 'rev', reason: 'Show your review', reasonCode: 'other', rejectedAt: t50 } },
        { type: 'NotificationSent', data: { notificationId: 'n2', key: 'proof_rejected', params: { taskTitle: 'Rate PhonePe', taskId: 't1', reason: 'Show your review' }, kind: 'warning', sentAt: t50 } },
      ]);
    spec.given([registered, submitted(), changesRequested]).when(lapse('2026-11-23T11:59:59.999Z')).thenFails('conflict');
    const resubmitted: UserEvent = { type: 'ProofResubmitted', data: { submissionId: 's1', taskId: 't1', proofImageUrl: '/i', proofDescription: 'd', resubmittedAt: t2 } };
    spec.given([registered, submitted(), changesRequested, resubmitted]).when(lapse(t50)).thenFails('conflict');
    spec.given([registered]).when(lapse(t50)).thenFails('not_found');
  });
});

describe('appeals', () => {
  const t9 = '2026-11-28T12:00:00.000Z'; // rejection (t2) + 7 days
  const rejectedByRev: UserEvent = rejected('s1');
  const appealCommand = (now = t9, note = ' The app is right '): UserTaskCommand => ({
    type: 'AppealRejection',
    data: { submissionId: 's1', appealId: 'a1', note, proofImageUrl: null },
    now,
  });
  const opened: UserEvent = {
    type: 'AppealOpened',
    data: { appealId: 'a1', submissionId: 's1', taskId: 't1', rejectedBy: 'rev', note: 'The app is right', proofImageUrl: null, openedAt: t9 },
  };
  const decide = (reviewerId: string, decision: 'uphold' | 'overturn' = 'overturn'): UserTaskCommand => ({
    type: 'DecideAppeal',
    data: { appealId: 'a1', reviewerId, decision, reason: 'Looks right', entryId: 'e9', notificationId: 'n9' },
    now: t9,
  });
  const base = [registered, submitted(), rejectedByRev];

  it('opens one appeal of a rejection within 7 days, with a note', () => {
    spec.given(base).when(appealCommand()).then([opened]);
    spec.given([...base, opened]).when(appealCommand()).thenFails('conflict', /already been appealed/);
    spec.given(base).when(appealCommand('2026-11-28T12:00:00.001Z')).thenFails('conflict', /7 days/);
    spec.given(base).when(appealCommand(t9, ' ')).thenFails('invalid');
    spec.given([registered, submitted()]).when(appealCommand()).thenFails('conflict', /rejected proof/);
    // Resubmitted meanwhile: the old rejection is no longer the task's standing.
    spec.given([...base, submitted('s2')]).when(appealCommand()).thenFails('conflict');
  });

  it('is never decided by the reviewer who rejected (403 own_rejection)', () => {
    spec.given([...base, opened]).when(decide('rev')).thenFails('forbidden', /another reviewer/);
  });

  it('overturned by another reviewer: approved and credited in one append; decided once', () => {
    spec
      .given([...base, opened])
      .when(decide('rev2'))
      .then([
        { type: 'AppealDecided', data: { appealId: 'a1', submissionId: 's1', decision: 'overturn', decidedBy: 'rev2', reason: 'Looks right', decidedAt: t9 } },
        { type: 'ProofApproved', data: { submissionId: 's1', taskId: 't1', reviewedBy: 'rev2', rewardPaise: 2500, approvedAt: t9 } },
        expect.objectContaining({ type: 'WalletCredited', data: expect.objectContaining({ entryId: 'e9', amountPaise: 2500, reference: 's1' }) }) as unknown as UserEvent,
        expect.objectContaining({ type: 'NotificationSent', data: expect.objectContaining({ key: 'appeal_overturned' }) }) as unknown as UserEvent,
      ]);
    const decided: UserEvent = { type: 'AppealDecided', data: { appealId: 'a1', submissionId: 's1', decision: 'uphold', decidedBy: 'rev2', reason: 'No', decidedAt: t9 } };
    spec.given([...base, opened, decided]).when(decide('rev3')).thenFails('conflict', /already been decided/);
    spec.given(base).when(decide('rev2')).thenFails('not_found');
    // While it is open no new proof is taken for the task.
    spec.given([...base, opened]).when(submit('s2')).thenFails('conflict');
  });
});
