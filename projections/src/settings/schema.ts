/** settings_requests: control settings changes asked by one admin, for a second to approve or reject. */
export interface SettingsRequestsTable {
  id: string;
  /** JSON of the asked values by limit key. */
  changes: string;
  /** JSON of the values in force when asked, by limit key. */
  basis: string;
  status: 'pending' | 'approved' | 'rejected' | 'cancelled';
  requested_by: string;
  requested_at: string;
  decided_by: string | null;
  decided_at: string | null;
  position: number;
}
