import type { Generated } from 'kysely';

/**
 * The read-model database: tables the API's GET routes read. Disposable: every row is derived from
 * events and `rebuildReadModels` recreates them from position zero. Money columns hold paise.
 */
export interface ReadDb {
  checkpoints: CheckpointsTable;
  users: UsersTable;
  sessions: SessionsTable;
}

export interface CheckpointsTable {
  name: string;
  /** Global position of the last event applied. */
  position: number;
  updated_at: string;
}

export interface UsersTable {
  id: string;
  mobile: string;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  profile_image_url: string | null;
  /** Everything ever credited as earned (task rewards, bonuses), in paise: the spec's totalRupees. */
  total_earned_paise: Generated<number>;
  notifications_enabled: Generated<number>;
  /** JSON array of roles. */
  roles: Generated<string>;
  is_admin: Generated<number>;
  kyc_status: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
  sid: string;
  user_id: string;
  expires_at: string;
  started_at: string;
}
