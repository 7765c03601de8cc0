import * as v from 'valibot';
import { Day, istDayEnd, istDayStart } from './days.ts';
import { ROLES } from './auth.ts';
import { SYSTEM_ACTOR } from './settings.ts';
import { refusal } from './refusal.ts';

/** Every action the audit list records, by name; the web shows each in the reader's language. */
export const AUDIT_ACTIONS = [
  'adjustment_credited',
  'adjustment_debited',
  'adjustment_requested',
  'adjustment_approved',
  'adjustment_rejected',
  'proof_approved',
  'proof_rejected',
  'withdrawal_paid',
  'withdrawal_rejected',
  'withdrawal_failed',
  'withdrawal_reversed',
  'payout_batch_created',
  'payout_batch_approved',
  'payout_file_downloaded',
  'payout_results_imported',
  'bank_statement_reconciled',
  'funding_booked',
  'funding_requested',
  'funding_approved',
  'funding_rejected',
  'funding_reversal_requested',
  'funding_reversed',
  'role_granted',
  'role_revoked',
  'task_reward_set',
  'user_erased',
  'user_suspended',
  'user_unsuspended',
  'settings_updated',
  'settings_change_requested',
  'settings_change_approved',
  'settings_change_rejected',
  'settings_change_cancelled',
  'period_close_requested',
  'period_closed',
  'webhook_endpoint_registered',
  'webhook_endpoint_deleted',
  'webhook_replay_requested',
  'statement_exception_matched',
  'statement_write_off_requested',
  'statement_written_off',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Refusals of the audit list's query, spread into the catalogue under `audit.*`. */
export const AUDIT_MESSAGES = {
  actor: 'actor is a staff user id or system',
  action: 'action is not one of the audit actions',
  range: 'The end date must not be before the start date',
} as const;

const UserId = v.pipe(v.string(), v.uuid());

const Person = v.object({ id: v.string(), name: v.nullable(v.string()), mobile: v.nullable(v.string()) });

/** GET /api/admin/audit: one staff action on money or roles (who, what, when, on whom). */
export const AuditEntryBody = v.object({
  id: v.string(),
  at: v.string(),
  action: v.picklist(AUDIT_ACTIONS),
  /** `roles` are the actor's roles now (none for `system` or an erased account). */
  actor: v.object({ ...Person.entries, roles: v.array(v.picklist(ROLES)) }),
  /** Whose money or roles; null for catalogue actions. */
  subject: v.nullable(Person),
  /** Decimal rupees, where the action moved or set an amount. */
  amount: v.nullable(v.string()),
  /** What it names: a submission, withdrawal, adjustment or task id, or a role. */
  reference: v.nullable(v.string()),
});
export type AuditEntryBody = v.InferOutput<typeof AuditEntryBody>;

/** An adjustment above the approval threshold, as finance sees it (GET /api/admin/adjustments). */
export const PendingAdjustmentBody = v.object({
  id: v.string(),
  userId: v.string(),
  mobile: v.string(),
  amount: v.string(),
  direction: v.picklist(['credit', 'debit']),
  reason: v.string(),
  status: v.picklist(['pending', 'approved', 'rejected']),
  requestedBy: v.string(),
  requestedAt: v.string(),
  decidedBy: v.nullable(v.string()),
  decidedAt: v.nullable(v.string()),
});
export type PendingAdjustmentBody = v.InferOutput<typeof PendingAdjustmentBody>;

/** Default page of the audit list; the next page is named by `X-Next-Cursor`, never cut silently. */
export const AUDIT_PAGE_SIZE = 200;
export const AUDIT_PAGE_MAX = 1000;

/**
 * GET /api/admin/audit?cursor=&limit=&actor=&action=&from=&to=: newest first; `cursor` is the
 * previous page's X-Next-Cursor (sent with the same filters). `from` and `to` are whole days in India
 * time, `to` included; they arrive as the UTC instants `fromAt` (first instant) and `toBefore`
 * (first instant after the day).
 */
export const AuditQuery = v.pipe(
  v.object({
  cursor: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, refusal('api.cursorValue')), v.transform(Number))),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, refusal('api.limitRange')),
      v.transform(Number),
      v.minValue(1, refusal('api.limitRange')),
      v.maxValue(AUDIT_PAGE_MAX, refusal('api.limitRange')),
    ),
  ),
    actor: v.optional(
      v.pipe(v.string(refusal('audit.actor')), v.check((actor) => actor === SYSTEM_ACTOR || v.is(UserId, actor), refusal('audit.actor'))),
    ),
    action: v.optional(v.picklist(AUDIT_ACTIONS, refusal('audit.action'))),
    from: v.optional(Day()),
    to: v.optional(Day()),
  }),
  v.forward(
    v.partialCheck([['from'], ['to']], (q) => q.from === undefined || q.to === undefined || q.from <= q.to, refusal('audit.range')),
    ['to'],
  ),
  v.transform(({ from, to, ...rest }) => ({
    ...rest,
    fromAt: from === undefined ? undefined : istDayStart(from),
    toBefore: to === undefined ? undefined : istDayEnd(to),
  })),
);
export type AuditQuery = v.InferOutput<typeof AuditQuery>;

/** GET /api/admin/audit/actors: everyone who appears as an actor in the audit list, for its filter. */
export const AuditActorBody = v.object({ id: v.string(), name: v.nullable(v.string()), roles: v.array(v.picklist(ROLES)) });
export type AuditActorBody = v.InferOutput<typeof AuditActorBody>;

export const AdjustmentsQuery = v.object({
  status: v.optional(v.picklist(['pending', 'approved', 'rejected'], refusal('api.reviewStatusFilter')), 'pending'),
});

/** POST /api/admin/adjustments above the threshold: 202, recorded and waiting for a second finance member. */
export const AdjustmentPendingBody = v.object({
  userId: v.string(),
  mobile: v.string(),
  adjustment: PendingAdjustmentBody,
  /** The balance, unchanged until the adjustment is approved. */
  balance: v.string(),
});
export type AdjustmentPendingBody = v.InferOutput<typeof AdjustmentPendingBody>;
