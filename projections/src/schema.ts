import type { KycStatus } from '@kamai/contracts';
import type { Generated } from 'kysely';
import type { DeletionRequestsTable } from './deletions/schema.ts';
import type { KycDocumentsTable } from './kyc/schema.ts';
import type { JournalBalancesTable, JournalEntriesTable, JournalWithdrawalsTable } from './journal/schema.ts';
import type { AdjustmentsTable, AuditLogTable, AuditSettingsRequestsTable, AuditWithdrawalsTable } from './audit/schema.ts';
import type { AppealsTable, ProofSubmissionsTable, TaskWorkersTable, TasksTable, UserTasksTable } from './tasks/schema.ts';
import type { ProofWindowHeadTable, ProofWindowTable, SimilarProofsTable } from './user-tasks/schema.ts';
import type { AppSettingsTable, WithdrawalRequestsTable } from './withdrawals/schema.ts';
import type { SettingsRequestsTable } from './settings/schema.ts';
import type { WorkflowsTable } from './workflows/schema.ts';
import type { InvitationsTable } from './invitations/schema.ts';
import type { StatementExceptionsTable } from './statements/schema.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable, WebhookWithdrawalsTable } from './webhooks/schema.ts';
import type { BankFundingsTable, BankStatementRunsTable, PayoutBatchItemsTable, PayoutBatchesTable } from './payouts/schema.ts';
import type { ReviewProofsTable, ReviewerDaysTable, ReviewerDecisionsTable, WorkerRejectionDaysTable } from './reviewer-stats/schema.ts';

/**
 * The read-model database: tables the API's GET routes read. Disposable: every row is derived from
 * events and `rebuildReadModels` recreates them from position zero. Money columns hold paise.
 */
export interface ReadDb {
  checkpoints: CheckpointsTable;
  projection_builds: ProjectionBuildsTable;
  parked_read_models: ParkedReadModelsTable;
  users: UsersTable;
  sessions: SessionsTable;
  wallets: WalletsTable;
  notifications: NotificationsTable;
  withdrawal_requests: WithdrawalRequestsTable;
  app_settings: AppSettingsTable;
  tasks: TasksTable;
  user_tasks: UserTasksTable;
  proof_submissions: ProofSubmissionsTable;
  task_workers: TaskWorkersTable;
  similar_proofs: SimilarProofsTable;
  proof_window: ProofWindowTable;
  proof_window_head: ProofWindowHeadTable;
  kyc_documents: KycDocumentsTable;
  journal_entries: JournalEntriesTable;
  journal_balances: JournalBalancesTable;
  journal_withdrawals: JournalWithdrawalsTable;
  audit_log: AuditLogTable;
  adjustments: AdjustmentsTable;
  audit_withdrawals: AuditWithdrawalsTable;
  payout_batches: PayoutBatchesTable;
  payout_batch_items: PayoutBatchItemsTable;
  bank_statement_runs: BankStatementRunsTable;
  bank_fundings: BankFundingsTable;
  deletion_requests: DeletionRequestsTable;
  settings_requests: SettingsRequestsTable;
  audit_settings_requests: AuditSettingsRequestsTable;
  workflows: WorkflowsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_withdrawals: WebhookWithdrawalsTable;
  appeals: AppealsTable;
  review_proofs: ReviewProofsTable;
  reviewer_days: ReviewerDaysTable;
  reviewer_decisions: ReviewerDecisionsTable;
  worker_rejection_days: WorkerRejectionDaysTable;
  invitations: InvitationsTable;
  statement_exceptions: StatementExceptionsTable;
}

/** One row per projection: how far its rows go, and which version of it built them. */
export interface CheckpointsTable {
  name: string;
  version: number;
  /** Global position of the last event applied. */
  position: number;
  updated_at: string;
}

/**
 * A read model stopped at an event it could not apply, while the others go on: the event it stopped
 * at and why. Its row goes when a rebuild of that model is swapped in.
 */
export interface ParkedReadModelsTable {
  name: string;
  /** The projection version that failed (a rebuild of another version is not parked by it). */
  version: number;
  /** The position of the event it could not apply. */
  position: number;
  event_type: string;
  error: string;
  parked_at: string;
}

/** A build in progress (one per projection at a time, across processes), kept alive by its heartbeat. */
export interface ProjectionBuildsTable {
  name: string;
  version: number;
  /** Suffix of the build's shadow tables. */
  generation: string;
  /** Milliseconds since the epoch of the build's last sign of life. */
  heartbeat_at: number;
}

export interface UsersTable {
  id: string;
  /** Null once the person was erased. */
  mobile: string | null;
  password_hash: string | null;
  /** DELETED_USER once the person was erased. */
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  profile_image_url: string | null;
  notifications_enabled: Generated<number>;
  /** 'en' | 'hi' once the person chose; null until then (the device's choice applies). */
  language: string | null;
  /** JSON array of roles. */
  roles: Generated<string>;
  is_admin: Generated<number>;
  kyc_status: Generated<KycStatus>;
  created_at: string;
  updated_at: string;
  /** When the person was erased; null while they are not. */
  erased_at: string | null;
  /** The privacy policy version the person agreed to; null: registered before consent was asked, asked at sign-in. */
  consent_policy_version: string | null;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
  sid: string;
  user_id: string;
  expires_at: string;
  started_at: string;
  /** The browser's User-Agent as the session started; null for older sessions. */
  device: string | null;
  /** When it was last used (recorded every few minutes at most); null for older sessions. */
  last_seen_at: string | null;
}

export interface WalletsTable {
  user_id: string;
  balance_paise: number;
  total_earned_paise: number;
  total_withdrawn_paise: number;
  created_at: string;
  updated_at: string;
  /** Position of the last event applied to it (a ledger event applied twice is refused). */
  position: number;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  /**
   * Title and message in English (NOTIFICATION_TEXTS rendered); null for an older event's literal
   * texts, which stay sealed in the event (listNotifications reads them there: event-texts.ts).
   */
  title: string | null;
  message: string | null;
  /** Key of NOTIFICATION_TEXTS and its parameters as JSON, for rendering in another language; null for older events. */
  message_key: string | null;
  params: string | null;
  type: string;
  is_read: number;
  created_at: string;
  position: number;
}
