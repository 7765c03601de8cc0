import type { SubmissionStatus, TaskType } from '@kamai/contracts';

/** The admin's task catalogue; a deleted task keeps its row (with `deleted_at`) so histories can name it. */
export interface TasksTable {
  id: string;
  title: string;
  description: string;
  reward_paise: number;
  estimated_time: string;
  task_type: TaskType;
  task_url: string | null;
  is_active: number;
  icon_color: string;
  requires_proof: number;
  proof_instructions: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Position of the TaskCreated event, for stable ordering. */
  position: number;
  /** Null: no limit. */
  max_completions: number | null;
  /** ISO instant from which the task takes no proof; null: no end. */
  expires_at: string | null;
  /** Submissions holding a slot (under review or approved), from the task stream's slot events. */
  slots_used: number;
  /** Null: the estimated time names no single number of minutes. */
  estimated_minutes: number | null;
  /** The Hindi texts; null where the admin gave none. */
  title_hi: string | null;
  description_hi: string | null;
  proof_instructions_hi: string | null;
}

/** One row per user and task they submitted proof for: the latest submission's state. */
export interface UserTasksTable {
  /** The first submission's id, stable across resubmissions. */
  id: string;
  user_id: string;
  task_id: string;
  status: SubmissionStatus;
  submission_id: string;
  task_title: string;
  reward_paise: number;
  proof_image_url: string;
  proof_description: string;
  submitted_at: string;
  completed_at: string | null;
  rupees_earned_paise: number | null;
  rejection_reason: string | null;
  reviewed_at: string | null;
  position: number;
}

/** Every proof submission, including rejected ones that were later resubmitted: the review queue. */
export interface ProofSubmissionsTable {
  id: string;
  user_id: string;
  task_id: string;
  task_title: string;
  reward_paise: number;
  proof_image_url: string;
  proof_description: string;
  status: SubmissionStatus;
  submitted_at: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  rejection_reason: string | null;
  /** Position of the ProofSubmitted event: the queue's order. */
  position: number;
  /** The picture's 64-bit difference hash (16 hex digits); null for older proofs, ERASED once erased. */
  proof_dhash: string | null;
  /** When the worker tapped Start on the task before this proof; null when they never did. */
  started_at: string | null;
}

/** Per worker, what the review queue shows beside their proofs. */
export interface TaskWorkersTable {
  user_id: string;
  approved_count: number;
  rejected_count: number;
  /** 1 while the account is suspended. */
  suspended: number;
}

/** Appeals of rejections, for the reviewers' queue (`GET /api/admin/appeals`). */
export interface AppealsTable {
  id: string;
  status: 'open' | 'upheld' | 'overturned';
  submission_id: string;
  user_id: string;
  task_id: string;
  task_title: string;
  reward_paise: number;
  note: string;
  proof_image_url: string | null;
  rejected_by: string;
  rejection_reason: string | null;
  opened_at: string;
  decided_by: string | null;
  decision_reason: string | null;
  decided_at: string | null;
  position: number;
}
