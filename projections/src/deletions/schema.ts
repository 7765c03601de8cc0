import type { DeletionStatus } from '@kamai/contracts';

/** deletion_requests: every deletion request and what became of it. */
export interface DeletionRequestsTable {
  id: string;
  user_id: string;
  status: DeletionStatus;
  requested_at: string;
  cooling_off_ends_at: string;
  cancelled_at: string | null;
  erased_at: string | null;
  /** The admin's user id. */
  erased_by: string | null;
  position: number;
}
