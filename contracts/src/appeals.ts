import * as v from 'valibot';
import { noControlCharacters } from './text.ts';
import { APPEAL_STATUSES, APPEAL_WINDOW_DAYS, REJECT_REASON_MAX_LENGTH, TASK_MESSAGES } from './tasks.ts';
import { refusal } from './refusal.ts';

/** The longest appeal note. */
export const APPEAL_NOTE_MAX_LENGTH = 500;

/** Messages of the appeal rules (catalogue keys `appeal.*`, en and hi in the web's messages). */
export const APPEAL_MESSAGES = {
  note: 'Please say why the rejection was wrong',
  noteTooLong: `Note must be at most ${APPEAL_NOTE_MAX_LENGTH} characters`,
  exists: 'This rejection has already been appealed',
  windowClosed: `Appeals are taken up to ${APPEAL_WINDOW_DAYS} days after a rejection`,
  notRejected: 'Only a rejected proof can be appealed',
  notFound: 'Appeal not found',
  decided: 'This appeal has already been decided',
  ownRejection: 'You rejected this proof: another reviewer decides its appeal',
  decision: 'Decision must be uphold or overturn',
  status: 'Status must be open, upheld or overturned',
} as const;

/** `POST /api/submissions/:id/appeal`. */
export const AppealRequest = v.object({
  note: v.pipe(
    v.optional(v.string(refusal('appeal.note')), ''),
    v.trim(),
    v.minLength(1, refusal('appeal.note')),
    v.maxLength(APPEAL_NOTE_MAX_LENGTH, refusal('appeal.noteTooLong')),
    noControlCharacters(),
  ),
  /** Optional: the `objectURL` of a new image uploaded by the person. */
  proofImageUrl: v.optional(v.nullable(v.pipe(v.string(refusal('task.proofMissing')), v.trim(), v.maxLength(300, refusal('api.uploadFirst')))), null),
}, refusal('task.body'));
export type AppealRequest = v.InferOutput<typeof AppealRequest>;

/** The answer of `POST /api/submissions/:id/appeal`. */
export const AppealOpenedBody = v.object({ id: v.string(), status: v.literal('open') });
export type AppealOpenedBody = v.InferOutput<typeof AppealOpenedBody>;

/** `GET /api/admin/appeals?status=open` (the default). */
export const AppealsQuery = v.object({
  status: v.optional(v.picklist(APPEAL_STATUSES, refusal('appeal.status')), 'open'),
});

/** `POST /api/admin/appeals/:id/decide`. */
export const DecideAppealRequest = v.object({
  decision: v.picklist(['uphold', 'overturn'], refusal('appeal.decision')),
  reason: v.pipe(
    v.optional(v.string(refusal('task.reason')), ''),
    v.trim(),
    v.minLength(1, refusal('task.reason')),
    v.maxLength(REJECT_REASON_MAX_LENGTH, refusal('review.reasonTooLong')),
    noControlCharacters(),
  ),
}, refusal('task.body'));
export type DecideAppealRequest = v.InferOutput<typeof DecideAppealRequest>;

/** One appeal in the reviewers' queue, and the answer of decide. */
export const AppealBody = v.object({
  id: v.string(),
  status: v.picklist(APPEAL_STATUSES),
  submissionId: v.string(),
  userId: v.string(),
  taskId: v.string(),
  taskTitle: v.string(),
  rupeeReward: v.string(),
  note: v.string(),
  proofImageUrl: v.nullable(v.string()),
  /** Who rejected the proof: never the one who decides the appeal. */
  rejectedBy: v.string(),
  rejectionReason: v.nullable(v.string()),
  openedAt: v.string(),
  decidedBy: v.nullable(v.string()),
  decisionReason: v.nullable(v.string()),
  decidedAt: v.nullable(v.string()),
});
export type AppealBody = v.InferOutput<typeof AppealBody>;
