import * as v from 'valibot';
import { noControlCharacters } from './text.ts';
import { refusal } from './refusal.ts';

export const SUSPEND_REASON_MAX_LENGTH = 500;

/** Messages of account suspension, shared by the API, the domain and the web. */
export const SUSPENSION_MESSAGES = {
  /** 403 `account_suspended`: what a suspended user reads when they try to earn or withdraw. */
  suspended: 'Your account is suspended, so you cannot do tasks or withdraw. Please contact support.',
  reason: 'Please give a reason for the suspension',
  reasonTooLong: `Reason must be at most ${SUSPEND_REASON_MAX_LENGTH} characters`,
  notSuspended: 'This account is not suspended',
  alreadySuspended: 'This account is already suspended',
  own: 'You cannot suspend your own account',
  /** 403 `account_suspended` at every staff route for a suspended staff member. */
  staffSuspended: 'Your account is suspended, so you cannot act as staff. Please contact an admin.',
} as const;

/** `POST /api/admin/users/:id/suspend`. */
export const SuspendRequest = v.object(
  {
    reason: v.pipe(
      v.optional(v.string(refusal('suspension.reason')), ''),
      v.trim(),
      v.minLength(1, refusal('suspension.reason')),
      v.maxLength(SUSPEND_REASON_MAX_LENGTH, refusal('suspension.reasonTooLong')),
      noControlCharacters(),
    ),
  },
  refusal('task.body'),
);
export type SuspendRequest = v.InferOutput<typeof SuspendRequest>;

/** The answer of suspend and unsuspend. */
export const SuspensionBody = v.object({ userId: v.string(), suspended: v.boolean() });
export type SuspensionBody = v.InferOutput<typeof SuspensionBody>;
