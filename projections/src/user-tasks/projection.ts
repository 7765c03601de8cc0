import { type ColumnsOf, erasedColumns, erasedTextOf } from '../erasure.ts';
import type { Projection } from '../projection.ts';
import { type Rows, columnsOf } from '../rows.ts';
import { userIdOf } from '../users/projection.ts';
import { eraseProofHashes, projectProofHash } from './similar.ts';

/** Where both tables keep a ProofSubmitted's fields. */
const PROOF_COLUMNS: ColumnsOf = {
  taskId: 'task_id',
  taskTitle: 'task_title',
  rewardPaise: 'reward_paise',
  proofImageUrl: 'proof_image_url',
  proofDescription: 'proof_description',
  submittedAt: 'submitted_at',
};
/** proof_submissions keeps the picture's hash too. */
const SUBMISSION_COLUMNS: ColumnsOf = { ...PROOF_COLUMNS, proofDhash: 'proof_dhash' };

/** A worker's row of task_workers, counted from nothing. */
const NEW_WORKER = { approved_count: 0, rejected_count: 0, suspended: 0 };

/**
 * user_tasks (one row per user and task: the latest submission) and proof_submissions (every
 * submission: the review queue). A resubmission after a rejection moves the user_tasks row to the new
 * submission and keeps the rejected one in proof_submissions. task_workers counts each worker's
 * decided proofs and knows whether they are suspended, for the review queue. similar_proofs holds each
 * proof's near-duplicate pictures, found once when it is projected (proof_window and proof_window_head
 * are the bookkeeping of that comparison; see similar.ts).
 */
export const userTasksProjection: Projection = {
  name: 'user-tasks',
  // 4: a rejection's reason reads as erased once its person is. 5: change requests and resubmissions.
  version: 5,
  tables: {
    user_tasks: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, task_id TEXT NOT NULL, status TEXT NOT NULL,
        submission_id TEXT NOT NULL, task_title TEXT NOT NULL, reward_paise INTEGER NOT NULL, proof_image_url TEXT NOT NULL,
        proof_description TEXT NOT NULL, submitted_at TEXT NOT NULL, completed_at TEXT, rupees_earned_paise INTEGER,
        rejection_reason TEXT, reviewed_at TEXT, position INTEGER NOT NULL, UNIQUE (user_id, task_id)`,
    },
    proof_submissions: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, task_id TEXT NOT NULL, task_title TEXT NOT NULL,
        reward_paise INTEGER NOT NULL, proof_image_url TEXT NOT NULL, proof_description TEXT NOT NULL, status TEXT NOT NULL,
        submitted_at TEXT NOT NULL, reviewed_at TEXT, reviewed_by TEXT, rejection_reason TEXT, position INTEGER NOT NULL,
        proof_dhash TEXT, started_at TEXT`,
      indexes: { queue: 'status, position' },
    },
    similar_proofs: {
      columns: `submission_id TEXT NOT NULL, user_id TEXT NOT NULL, other_id TEXT NOT NULL, other_user_id TEXT NOT NULL,
        distance INTEGER NOT NULL, PRIMARY KEY (submission_id, other_id)`,
      indexes: { owner: 'user_id', other_owner: 'other_user_id' },
    },
    proof_window: {
      columns: `position INTEGER PRIMARY KEY, submission_id TEXT NOT NULL, user_id TEXT NOT NULL, proof_dhash TEXT NOT NULL`,
      indexes: { owner: 'user_id' },
    },
    proof_window_head: { columns: `id INTEGER PRIMARY KEY, changed_at INTEGER NOT NULL` },
    task_workers: {
      columns: `user_id TEXT PRIMARY KEY, approved_count INTEGER NOT NULL, rejected_count INTEGER NOT NULL, suspended INTEGER NOT NULL`,
    },
    appeals: {
      columns: `id TEXT PRIMARY KEY, status TEXT NOT NULL, submission_id TEXT NOT NULL, user_id TEXT NOT NULL, task_id TEXT NOT NULL,
        task_title TEXT NOT NULL, reward_paise INTEGER NOT NULL, note TEXT NOT NULL, proof_image_url TEXT, rejected_by TEXT NOT NULL,
        rejection_reason TEXT, opened_at TEXT NOT NULL, decided_by TEXT, decision_reason TEXT, decided_at TEXT, position INTEGER NOT NULL`,
      indexes: { queue: 'status, position', owner: 'user_id' },
    },
  },
  handles: ['ProofSubmitted', 'ProofApproved', 'ProofRejected', 'UserErased', 'AccountSuspended', 'AccountUnsuspended', 'ProofChangesRequested', 'ProofResubmitted', 'AppealOpened', 'AppealDecided'],
  apply(rows, event) {
    switch (event.type) {
      case 'ProofSubmitted': {
        const d = event.data;
        const userId = userIdOf(event.streamId);
        const latest = {
          status: 'submitted' as const,
          submission_id: d.submissionId,
          task_title: d.taskTitle,
          reward_paise: d.rewardPaise,
          proof_image_url: d.proofImageUrl,
          proof_description: d.proofDescription,
          submitted_at: d.submittedAt,
          completed_at: null,
          rupees_earned_paise: null,
          rejection_reason: null,
          reviewed_at: null,
          position: event.position,
        };
        rows.insert('proof_submissions', {
          id: d.submissionId,
          user_id: userId,
          task_id: d.taskId,
          task_title: d.taskTitle,
          reward_paise: d.rewardPaise,
          proof_image_url: d.proofImageUrl,
          proof_description: d.proofDescription,
          status: 'submitted',
          submitted_at: d.submittedAt,
          reviewed_at: null,
          reviewed_by: null,
          rejection_reason: null,
          position: event.position,
          proof_dhash: d.proofDhash ?? null,
          started_at: d.startedAt ?? null,
        });
        rows.upsert(
          'user_tasks',
          { id: d.submissionId, user_id: userId, task_id: d.taskId, ...latest },
          { conflict: ['user_id', 'task_id'], set: columnsOf(latest) },
        );
        if (d.proofDhash !== undefined) projectProofHash(rows, { submissionId: d.submissionId, userId, position: event.position, dhash: d.proofDhash });
        return;
      }
      case 'ProofApproved': {
        const d = event.data;
        rows.update('proof_submissions', { id: d.submissionId }, { set: { status: 'approved', reviewed_at: d.approvedAt, reviewed_by: d.reviewedBy } });
        countDecision(rows, userIdOf(event.streamId), 'approved_count');
        rows.update(
          'user_tasks',
          { user_id: userIdOf(event.streamId), submission_id: d.submissionId },
          { set: { status: 'approved', completed_at: d.approvedAt, rupees_earned_paise: d.rewardPaise, reviewed_at: d.approvedAt } },
        );
        return;
      }
      case 'ProofRejected': {
        const d = event.data;
        rows.update(
          'proof_submissions',
          { id: d.submissionId },
          { set: { status: 'rejected', reviewed_at: d.rejectedAt, reviewed_by: d.reviewedBy, rejection_reason: d.reason } },
        );
        rows.update(
          'user_tasks',
          { user_id: userIdOf(event.streamId), submission_id: d.submissionId },
          { set: { status: 'rejected', rejection_reason: d.reason, reviewed_at: d.rejectedAt } },
        );
        countDecision(rows, userIdOf(event.streamId), 'rejected_count');
        return;
      }
      case 'ProofChangesRequested': {
        // The reason sits where a rejection's does (erased with it); reviewed_at is when it was asked.
        const d = event.data;
        const set = { status: 'needs_changes', reviewed_at: d.requestedAt, rejection_reason: d.reason } as const;
        rows.update('proof_submissions', { id: d.submissionId }, { set: { ...set, reviewed_by: d.reviewedBy } });
        rows.update('user_tasks', { user_id: userIdOf(event.streamId), submission_id: d.submissionId }, { set });
        return;
      }
      case 'ProofResubmitted': {
        // Under review anew: the new proof, and the auto-approval clock starts again from it.
        const d = event.data;
        const set = { status: 'submitted', proof_image_url: d.proofImageUrl, proof_description: d.proofDescription, submitted_at: d.resubmittedAt, reviewed_at: null, rejection_reason: null } as const;
        rows.update('proof_submissions', { id: d.submissionId }, { set: { ...set, reviewed_by: null, ...(d.proofDhash !== undefined && { proof_dhash: d.proofDhash }) } });
        rows.update('user_tasks', { user_id: userIdOf(event.streamId), submission_id: d.submissionId }, { set });
        return;
      }
      case 'AppealOpened': {
        const d = event.data;
        const proof = rows.get('proof_submissions', { id: d.submissionId }, ['task_title', 'reward_paise', 'rejection_reason']);
        rows.insert('appeals', {
          id: d.appealId,
          status: 'open',
          submission_id: d.submissionId,
          user_id: userIdOf(event.streamId),
          task_id: d.taskId,
          task_title: proof?.task_title ?? '',
          reward_paise: proof?.reward_paise ?? 0,
          note: d.note,
          proof_image_url: d.proofImageUrl,
          rejected_by: d.rejectedBy,
          rejection_reason: proof?.rejection_reason ?? null,
          opened_at: d.openedAt,
          decided_by: null,
          decision_reason: null,
          decided_at: null,
          position: event.position,
        });
        return;
      }
      case 'AppealDecided': {
        const d = event.data;
        const status = d.decision === 'overturn' ? 'overturned' : 'upheld';
        rows.update('appeals', { id: d.appealId }, { set: { status, decided_by: d.decidedBy, decision_reason: d.reason, decided_at: d.decidedAt } });
        return;
      }
      case 'UserErased': {
        // What the person wrote and the pictures they sent read as erased; the task, status and amounts stay.
        const user_id = userIdOf(event.streamId);
        rows.update('proof_submissions', { user_id }, { set: erasedColumns('ProofSubmitted', SUBMISSION_COLUMNS) });
        rows.update('user_tasks', { user_id }, { set: erasedColumns('ProofSubmitted', PROOF_COLUMNS) });
        const reason = erasedTextOf('ProofRejected', 'reason');
        if (reason !== undefined) {
          for (const row of rows.all('proof_submissions', { user_id }, ['id', 'rejection_reason'])) {
            if (row.rejection_reason !== null) rows.update('proof_submissions', { id: row.id }, { set: { rejection_reason: reason } });
          }
          for (const row of rows.all('user_tasks', { user_id }, ['id', 'rejection_reason'])) {
            if (row.rejection_reason !== null) rows.update('user_tasks', { id: row.id }, { set: { rejection_reason: reason } });
          }
        }
        eraseProofHashes(rows, user_id, event.position);
        // An appeal's note and picture, and the reasons written about the person, read as erased.
        const appealTexts = { ...erasedColumns('AppealOpened', { note: 'note', proofImageUrl: 'proof_image_url' }), ...erasedColumns('AppealDecided', { reason: 'decision_reason' }) };
        if (reason !== undefined) appealTexts.rejection_reason = reason;
        if (Object.keys(appealTexts).length > 0) rows.update('appeals', { user_id }, { set: appealTexts });
        return;
      }
      case 'AccountSuspended':
      case 'AccountUnsuspended': {
        const suspended = event.type === 'AccountSuspended' ? 1 : 0;
        rows.upsert('task_workers', { user_id: userIdOf(event.streamId), ...NEW_WORKER, suspended }, { conflict: ['user_id'], set: ['suspended'] });
        return;
      }
      default:
        return;
    }
  },
};

function countDecision(rows: Rows, userId: string, column: 'approved_count' | 'rejected_count') {
  rows.upsert('task_workers', { user_id: userId, ...NEW_WORKER, [column]: 1 }, { conflict: ['user_id'], add: [column] });
}
