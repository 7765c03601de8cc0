import * as v from 'valibot';

const Person = v.object({ id: v.string(), name: v.nullable(v.string()), mobile: v.nullable(v.string()) });

/** GET /api/admin/audit: one staff action on money or roles (who, what, when, on whom). */
export const AuditEntryBody = v.object({
  id: v.string(),
  at: v.string(),
  action: v.string(),
  actor: Person,
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

/** GET /api/admin/audit?cursor=&limit=: newest first; `cursor` is the previous page's X-Next-Cursor. */
export const AuditQuery = v.object({
  cursor: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'cursor is the X-Next-Cursor of the previous page'), v.transform(Number))),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, `limit is 1 to ${AUDIT_PAGE_MAX}`),
      v.transform(Number),
      v.minValue(1, `limit is 1 to ${AUDIT_PAGE_MAX}`),
      v.maxValue(AUDIT_PAGE_MAX, `limit is 1 to ${AUDIT_PAGE_MAX}`),
    ),
  ),
});

export const AdjustmentsQuery = v.object({
  status: v.optional(v.picklist(['pending', 'approved', 'rejected'], 'status must be pending, approved or rejected'), 'pending'),
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
