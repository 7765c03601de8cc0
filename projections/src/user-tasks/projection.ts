import { ERASED } from '@kamai/contracts';
import type { Projection } from '../projection.ts';
import { columnsOf } from '../rows.ts';
import { userIdOf } from '../users/projection.ts';

/**
 * user_tasks (one row per user and task: the latest submission) and proof_submissions (every
 * submission: the review queue). A resubmission after a rejection moves the user_tasks row to the new
 * submission and keeps the rejected one in proof_submissions.
 */
export const userTasksProjection: Projection = {
  name: 'user-tasks',
  version: 1,
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
        submitted_at TEXT NOT NULL, reviewed_at TEXT, reviewed_by TEXT, rejection_reason TEXT, position INTEGER NOT NULL`,
      indexes: { queue: 'status, position' },
    },
  },
  handles: ['ProofSubmitted', 'ProofApproved', 'ProofRejected', 'UserErased'],
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
        });
        rows.upsert(
          'user_tasks',
          { id: d.submissionId, user_id: userId, task_id: d.taskId, ...latest },
          { conflict: ['user_id', 'task_id'], set: columnsOf(latest) },
        );
        return;
      }
      case 'ProofApproved': {
        const d = event.data;
        rows.update('proof_submissions', { id: d.submissionId }, { set: { status: 'approved', reviewed_at: d.approvedAt, reviewed_by: d.reviewedBy } });
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
        return;
      }
      case 'UserErased': {
        // What the person wrote and the pictures they sent read as erased; the task, status and amounts stay.
        const erased = { proof_image_url: ERASED, proof_description: ERASED };
        const user_id = userIdOf(event.streamId);
        rows.update('proof_submissions', { user_id }, { set: erased });
        rows.update('user_tasks', { user_id }, { set: erased });
        return;
      }
      default:
        return;
    }
  },
};
