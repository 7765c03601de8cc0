import type { AuditAction } from '@kamai/contracts';

/** audit_log: one row per staff action on money or on who may touch it, for admins to read. */
export interface AuditLogTable {
  /** The event id. */
  id: string;
  position: number;
  at: string;
  /** The staff member who acted. */
  actor_id: string;
  action: AuditAction;
  /** The user whose money or roles it concerned; null for catalogue actions. */
  subject_user_id: string | null;
  amount_paise: number | null;
  /** What it names: a submission, withdrawal, adjustment, task or settings request id, or a role. */
  reference: string | null;
}

export type { AuditAction };

/** adjustments: those above the approval threshold, pending until a second finance member decides. */
export interface AdjustmentsTable {
  id: string;
  user_id: string;
  amount_paise: number;
  direction: 'credit' | 'debit';
  reason: string;
  status: 'pending' | 'approved' | 'rejected';
  requested_by: string;
  requested_at: string;
  decided_by: string | null;
  decided_at: string | null;
  position: number;
}

/** The amount of each withdrawal, kept by the audit read model itself so it reads no other model's rows. */
export interface AuditWithdrawalsTable {
  id: string;
  amount_paise: number;
}

/** Who asked for each settings change, so a rejection by the requester reads as a cancellation. */
export interface AuditSettingsRequestsTable {
  id: string;
  requested_by: string;
}
