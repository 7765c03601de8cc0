import {
  MyTaxYearBody,
  LedgerBalancesBody,
  TaxCertificateBody,
  TaxDepositBody,
  TaxDepositRequest,
  TaxDepositsQuery,
  TaxQuarterParam,
  TaxQuarterSummaryBody,
  TaxReturnBody,
  TaxReturnQuery,
  LedgerPeriodBody,
  LedgerPeriodRowBody,
  PeriodTrialBalanceBody,
  PeriodTrialBalanceQuery,
  PeriodParam,
  InviteBody,
  InvitationBody,
  InvitationsQuery,
  ConsentRequest,
  PushAlertsBody,
  TaskSignalBody,
  PushPublicKeyAnswer,
  PushSubscriptionBody,
  PushUnsubscribeBody,
  AdjustmentBody,
  AdjustmentPendingBody,
  AdjustmentRequest,
  AdjustmentsQuery,
  AdminDeletionBody,
  AuditActorBody,
  AuditEntryBody,
  AuditQuery,
  BalanceQuery,
  BankStatementRunBody,
  BulkReviewBody,
  BulkReviewRequest,
  ChangePasswordRequest,
  CreatePayoutBatchRequest,
  DeletedTaskBody,
  DeletionListQuery,
  DeletionRequestBody,
  DeletionRequestCreate,
  FinanceWithdrawalBody,
  FundingQuery,
  FundingReversalRequest,
  FundingRequest,
  IfscBranchBody,
  IfscParam,
  KycCompleteBody,
  KycDocumentBody,
  KycDocumentRequest,
  KycQueueItem,
  KycQueueQuery,
  KycRejectRequest,
  LedgerUserLookupRequest,
  LedgerUserParam,
  LoginRequest,
  MarkWithdrawalPaidRequest,
  MyDeletionBody,
  NotificationBody,
  PasswordResetConfirmRequest,
  PasswordResetRequest,
  PayoutBatchBody,
  PendingAdjustmentBody,
  ProfileUpdateRequest,
  RegisterRequest,
  RejectRequest,
  RequestChangesRequest,
  AppealRequest,
  AppealOpenedBody,
  AppealsQuery,
  AppealBody,
  DecideAppealRequest,
  RejectWithdrawalRequest,
  ResultsImportBody,
  ReverseWithdrawalRequest,
  type Role,
  SavedDestinationBody,
  SessionBody,
  SettingsBody,
  SettingsChangeRequestBody,
  SettingsRequestsQuery,
  SettingsUpdateRequest,
  StaffQueuesBody,
  StatementQuery,
  SubmissionBody,
  SubmissionsQuery,
  SubmitProofRequest,
  SuspendRequest,
  SuspensionBody,
  TaskBody,
  TaskFiguresBody,
  TaskInput,
  TransactionBody,
  TrialBalanceQuery,
  UploadRequest,
  UserBody,
  UserTaskBody,
  WithdrawalBody,
  WithdrawalQuoteBody,
  WithdrawalQuoteQuery,
  WithdrawalListQuery,
  WithdrawalRequest,
  YearlyReportQuery,
  WebhookDeliveryBody,
  WebhookEndpointBody,
  WebhookEndpointCreatedBody,
  WebhookEndpointRequest,
  WebhookReplayBody,
  WebhookReplayRequest,
  HealthBody,
  UserDataExportBody,
  TaskStartBody,
  LedgerUserLookupBody,
  StatementBody,
  LedgerBalanceBody,
  TrialBalanceBody,
  ReconciliationBody,
  LedgerVerifyBody,
  FundingBody,
  YearlyReportBody,
  ReviewerStatsQuery,
  PayoutFileQuery,
  ReviewerStatsBody,
  BankStatementImportBody,
  StatementExceptionBody,
  StatementExceptionNote,
  StatementExceptionsQuery,
} from '@kamai/contracts';
import * as v from 'valibot';

/** A valibot schema from contracts. */
export type Schema = v.GenericSchema;

/**
 * Who may call a route: anyone, any signed-in user, the signed-in owner of the resource (another
 * user gets 404), a staff role, or any staff role.
 */
export type Access = 'public' | 'signedIn' | 'owner' | Role | 'staff';

/** How a route is described: what it takes, what it answers, who may call it. */
export interface RouteDoc {
  summary: string;
  access: Access;
  /** The JSON body the route validates with (validate('json', …)). */
  body?: Schema;
  /** A body that is not JSON (a bank's CSV file). */
  rawBody?: string;
  /** The query the route validates with (validate('query', …)). */
  query?: Schema;
  /** The path parameters the route validates with (validate('param', …)); else each is a string. */
  params?: Schema;
  /** Path parameters checked by idParam against a pattern (a UUID unless said otherwise). */
  idPattern?: RegExp;
  /** The success status and, where contracts has one, its body's schema (`list`: an array of it). */
  ok: number;
  answer?: Schema;
  list?: boolean;
  /** Another success status the route may answer, e.g. 202 when a change waits for a second person. */
  alsoOk?: { status: number; answer?: Schema; description: string };
  /** Its 503 may also be its own answer (the health check says `failing` with its reasons). */
  failingAnswers?: true;
  /** The answer's media type when it is not JSON. */
  content?: string;
  /** Reads If-Match (the ETag of the resource): 428 without it, 412 when it is stale. */
  ifMatch?: boolean;
  /** Writes ETag (the resource's revision, for If-Match). */
  etag?: boolean;
  /** Writes X-Next-Cursor when there is another page. */
  nextCursor?: boolean;
  /** Answers 429: `attempts` (too many tries, with Retry-After) or `quota` (the day's uploads are used up). */
  throttled?: 'attempts' | 'quota';
  /**
   * Error statuses the route answers beyond those its shape implies (401 for a public route behind a
   * token of its own, 404 for a thing it looks up, 409 for a GET refused by state).
   */
  errors?: Array<401 | 404 | 409>;
}

const SESSION_ID = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A body of the shape `{ request, settings }` (a settings change asked for, decided). */
const SettingsRequestAnswer = v.object({ request: SettingsChangeRequestBody, settings: SettingsBody });

/**
 * Every route the app registers, by `METHOD path` exactly as Hono lists it (server.routes). The
 * OpenAPI document is generated from this table and the contracts schemas it names; a test fails
 * when the table and the app's routes differ. The web app's pages (`GET /*`) are not part of the API.
 */
export const ROUTES: Record<string, RouteDoc> = {
  'GET /api/health': { summary: 'Read models, the disk and the ledger: ok, degraded or failing (503)', access: 'public', ok: 200, answer: HealthBody, failingAnswers: true },
  'GET /api/login': { summary: 'Redirects to the sign-in page', access: 'public', ok: 302 },
  'POST /api/auth/register': { summary: 'Create an account and sign in', access: 'public', body: RegisterRequest, ok: 201, answer: UserBody, throttled: 'attempts' },
  'POST /api/auth/login': { summary: 'Sign in with mobile number and password', access: 'public', body: LoginRequest, ok: 200, answer: UserBody, throttled: 'attempts' },
  'POST /api/auth/password-reset': { summary: 'Send a reset code (the same answer whether or not the number has an account)', access: 'public', body: PasswordResetRequest, ok: 202, throttled: 'attempts' },
  'POST /api/auth/password-reset/confirm': { summary: 'Set a new password with the reset code', access: 'public', body: PasswordResetConfirmRequest, ok: 204, throttled: 'attempts' },
  'POST /api/auth/logout': { summary: 'End this session', access: 'public', ok: 204 },
  'GET /api/auth/user': { summary: 'The signed-in user', access: 'signedIn', ok: 200, answer: UserBody },
  'GET /api/auth/sessions': { summary: "The user's sessions", access: 'signedIn', ok: 200, answer: SessionBody, list: true },
  'DELETE /api/auth/sessions/:id': { summary: 'End one of your sessions', access: 'owner', idPattern: SESSION_ID, ok: 204 },
  'POST /api/auth/logout-all': { summary: 'End every session of yours', access: 'signedIn', ok: 204 },
  'PUT /api/auth/password': { summary: 'Change your password', access: 'signedIn', body: ChangePasswordRequest, ok: 204, throttled: 'attempts' },
  'GET /api/settings': { summary: 'The public settings (limits, bonuses)', access: 'public', ok: 200, answer: SettingsBody },
  'PUT /api/profile': { summary: 'Update your profile', access: 'signedIn', body: ProfileUpdateRequest, ok: 200, answer: UserBody },
  'GET /api/profile/deletion-request': { summary: 'Your latest account deletion request', access: 'signedIn', ok: 200, answer: MyDeletionBody },
  'POST /api/profile/deletion-request': { summary: 'Ask for your account to be erased', access: 'signedIn', body: DeletionRequestCreate, ok: 202, answer: DeletionRequestBody },
  'DELETE /api/profile/deletion-request': { summary: 'Cancel your pending deletion request', access: 'signedIn', errors: [404], ok: 200, answer: DeletionRequestBody },
  'GET /api/profile/export': { summary: 'Everything Kamai holds about you', access: 'signedIn', ok: 200, answer: UserDataExportBody },
  'GET /api/transactions': { summary: 'Your wallet transactions', access: 'signedIn', ok: 200, answer: TransactionBody, list: true },
  'GET /api/withdrawals': { summary: 'Your withdrawals', access: 'signedIn', ok: 200, answer: WithdrawalBody, list: true },
  'GET /api/withdrawals/destination': { summary: 'Your saved bank account or UPI id', access: 'signedIn', ok: 200, answer: SavedDestinationBody },
  'POST /api/withdrawals': { summary: 'Ask for a withdrawal', access: 'signedIn', body: WithdrawalRequest, ok: 201, answer: WithdrawalBody },
  'GET /api/ifsc/:code': { summary: "A bank branch by IFSC from the server's directory", access: 'signedIn', params: IfscParam, ok: 200, answer: IfscBranchBody },
  'GET /api/notifications': { summary: 'Your notifications', access: 'signedIn', ok: 200, answer: NotificationBody, list: true },
  'PUT /api/notifications/read-all': { summary: 'Mark all your notifications read', access: 'signedIn', ok: 204 },
  'PUT /api/notifications/:id/read': { summary: 'Mark one notification read', access: 'owner', idPattern: UUID, ok: 204 },
  'DELETE /api/notifications/:id': { summary: 'Delete one notification', access: 'owner', idPattern: UUID, ok: 204 },
  'POST /api/objects/upload': { summary: 'A signed URL to upload an image to (counted against the daily quota)', access: 'signedIn', body: UploadRequest, ok: 200, throttled: 'quota' },
  'PUT /api/objects/put/*': { summary: 'Upload the bytes to a signed URL (authorised by its signature, not the session; registered only when uploads are kept on disk, an S3 store takes them itself)', access: 'public', rawBody: 'image/*', ok: 201, throttled: 'quota' },
  'GET /objects/*': { summary: 'A private upload: its owner, or staff', access: 'signedIn', errors: [404], ok: 200, content: 'image/*' },
  'GET /api/tasks': { summary: 'The active tasks', access: 'signedIn', ok: 200, answer: TaskBody, list: true },
  'GET /api/user-tasks': { summary: 'Your tasks and their proofs', access: 'signedIn', ok: 200, answer: UserTaskBody, list: true },
  'POST /api/tasks/:id/submit-proof': { summary: 'Submit proof of a completed task', access: 'signedIn', idPattern: UUID, body: SubmitProofRequest, ok: 201, answer: UserTaskBody },
  'POST /api/tasks/:id/start': { summary: 'Start a task', access: 'signedIn', idPattern: UUID, ok: 200, answer: TaskStartBody },
  'GET /api/admin/tasks': { summary: 'Every task in the catalogue', access: 'admin', ok: 200, answer: TaskBody, list: true },
  'POST /api/admin/tasks': { summary: 'Create a task', access: 'admin', body: TaskInput, ok: 201, answer: TaskBody },
  'PUT /api/admin/tasks/:id': { summary: 'Edit a task (If-Match: its ETag)', access: 'admin', idPattern: UUID, body: TaskInput, ok: 200, answer: TaskBody, ifMatch: true, etag: true },
  'GET /api/admin/tasks/:id': { summary: 'One task with its ETag', access: 'admin', idPattern: UUID, ok: 200, answer: TaskBody, etag: true },
  'DELETE /api/admin/tasks/:id': { summary: 'Delete a task (If-Match: its ETag)', access: 'admin', idPattern: UUID, ok: 200, answer: DeletedTaskBody, ifMatch: true },
  'PUT /api/admin/settings': {
    summary: 'Change settings (a change to a control waits for a second admin: 202)',
    access: 'admin',
    body: SettingsUpdateRequest,
    ok: 200,
    answer: SettingsBody,
    alsoOk: { status: 202, answer: SettingsRequestAnswer, description: 'The change waits for a second admin' },
  },
  'GET /api/admin/settings/requests': { summary: 'Settings changes waiting for (or given) a second admin', access: 'admin', query: SettingsRequestsQuery, ok: 200, answer: SettingsChangeRequestBody, list: true },
  'POST /api/admin/settings/requests/:id/approve': { summary: 'Approve a settings change', access: 'admin', idPattern: UUID, ok: 200, answer: SettingsRequestAnswer },
  'POST /api/admin/settings/requests/:id/reject': { summary: 'Reject a settings change', access: 'admin', idPattern: UUID, ok: 200, answer: SettingsRequestAnswer },
  'GET /api/admin/deletions': { summary: 'Account deletion requests', access: 'admin', query: DeletionListQuery, ok: 200, answer: AdminDeletionBody, list: true },
  'POST /api/admin/deletions/:id/erase': { summary: "Erase a user's personal data", access: 'admin', idPattern: UUID, ok: 200, answer: AdminDeletionBody },
  'GET /api/admin/audit': { summary: 'The audit log, a page at a time (admin or finance)', access: 'admin', query: AuditQuery, ok: 200, answer: AuditEntryBody, list: true, nextCursor: true },
  'GET /api/admin/audit/actors': { summary: 'Everyone who appears in the audit log (admin or finance)', access: 'admin', ok: 200, answer: AuditActorBody, list: true },
  'GET /api/admin/task-figures': { summary: 'Figures per task', access: 'admin', ok: 200, answer: TaskFiguresBody, list: true },
  'GET /api/admin/queues': { summary: "How much waits in the caller's queues", access: 'staff', ok: 200, answer: StaffQueuesBody },
  'POST /api/admin/users/:id/suspend': { summary: 'Suspend a user', access: 'admin', idPattern: UUID, body: SuspendRequest, ok: 200, answer: SuspensionBody },
  'POST /api/admin/users/:id/unsuspend': { summary: 'Lift a suspension', access: 'admin', idPattern: UUID, ok: 200, answer: SuspensionBody },
  'GET /api/kyc/documents': { summary: 'Your KYC documents', access: 'signedIn', ok: 200, answer: KycDocumentBody, list: true },
  'POST /api/kyc/documents': { summary: 'Upload a KYC document', access: 'signedIn', body: KycDocumentRequest, ok: 201, answer: KycDocumentBody },
  'POST /api/kyc/complete': { summary: 'Claim the KYC bonus once both documents are approved', access: 'signedIn', ok: 200, answer: KycCompleteBody },
  'GET /api/admin/kyc': { summary: 'The KYC review queue', access: 'reviewer', query: KycQueueQuery, ok: 200, answer: KycQueueItem, list: true },
  'POST /api/admin/kyc/:id/approve': { summary: 'Approve a KYC document', access: 'reviewer', idPattern: UUID, ok: 200, answer: KycDocumentBody },
  'POST /api/admin/kyc/:id/reject': { summary: 'Reject a KYC document', access: 'reviewer', idPattern: UUID, body: KycRejectRequest, ok: 200, answer: KycDocumentBody },
  'GET /api/admin/submissions': { summary: 'Proofs to review', access: 'reviewer', query: SubmissionsQuery, ok: 200, answer: SubmissionBody, list: true },
  'POST /api/admin/submissions/:id/approve': { summary: 'Approve a proof (credits the reward)', access: 'reviewer', idPattern: UUID, ok: 200, answer: SubmissionBody },
  'POST /api/admin/submissions/:id/reject': { summary: 'Reject a proof', access: 'reviewer', idPattern: UUID, body: RejectRequest, ok: 200, answer: SubmissionBody },
  'POST /api/admin/submissions/bulk': { summary: 'Approve or reject many proofs', access: 'reviewer', body: BulkReviewRequest, ok: 200, answer: BulkReviewBody },
  'GET /api/admin/withdrawals': { summary: 'Withdrawals, a page at a time', access: 'finance', query: WithdrawalListQuery, ok: 200, answer: FinanceWithdrawalBody, list: true, nextCursor: true },
  'GET /api/admin/withdrawals/:id': { summary: 'One withdrawal', access: 'finance', idPattern: UUID, ok: 200, answer: FinanceWithdrawalBody },
  'POST /api/admin/withdrawals/:id/paid': { summary: 'Mark a withdrawal paid with its bank reference', access: 'finance', idPattern: UUID, body: MarkWithdrawalPaidRequest, ok: 200, answer: FinanceWithdrawalBody },
  'POST /api/admin/withdrawals/:id/reject': { summary: 'Reject a withdrawal (refunds the wallet)', access: 'finance', idPattern: UUID, body: RejectWithdrawalRequest, ok: 200, answer: FinanceWithdrawalBody },
  'POST /api/admin/withdrawals/:id/reverse': { summary: 'Reverse a paid withdrawal the bank returned', access: 'finance', idPattern: UUID, body: ReverseWithdrawalRequest, ok: 200, answer: FinanceWithdrawalBody },
  'POST /api/admin/payout-batches': { summary: 'Batch requested withdrawals for the bank', access: 'finance', body: CreatePayoutBatchRequest, ok: 201, answer: PayoutBatchBody },
  'GET /api/admin/payout-batches': { summary: 'Payout batches', access: 'finance', ok: 200, answer: PayoutBatchBody, list: true },
  'GET /api/admin/payout-batches/:id': { summary: 'One payout batch', access: 'finance', idPattern: UUID, ok: 200, answer: PayoutBatchBody },
  'POST /api/admin/payout-batches/:id/approve': { summary: 'Second approval of a batch above the threshold', access: 'finance', idPattern: UUID, ok: 200, answer: PayoutBatchBody },
  'GET /api/admin/payout-batches/:id/file': { summary: "The batch's bank upload file (the template in settings; ?kind=upi|bank, ?valueDate)", access: 'finance', idPattern: UUID, query: PayoutFileQuery, errors: [409], ok: 200, content: 'text/csv' },
  'POST /api/admin/payout-batches/:id/results': { summary: "Import the bank's results file", access: 'finance', idPattern: UUID, rawBody: 'text/csv', ok: 200, answer: ResultsImportBody },
  'POST /api/admin/ledger/bank-statements': { summary: 'Import a bank statement: lines matched to payouts, batches, fees, fundings and returned payouts; the rest opens exceptions', access: 'finance', rawBody: 'text/csv', ok: 201, answer: BankStatementImportBody },
  'GET /api/admin/ledger/bank-statements': { summary: 'Bank statement imports', access: 'finance', ok: 200, answer: BankStatementRunBody, list: true },
  'POST /api/admin/adjustments': {
    summary: "Credit or debit a user's wallet (above the threshold it waits for a second finance member: 202)",
    access: 'finance',
    body: AdjustmentRequest,
    errors: [404],
    ok: 201,
    answer: AdjustmentBody,
    alsoOk: { status: 202, answer: AdjustmentPendingBody, description: 'The adjustment waits for a second finance member' },
  },
  'GET /api/admin/adjustments': { summary: 'Adjustments by status', access: 'finance', query: AdjustmentsQuery, ok: 200, answer: PendingAdjustmentBody, list: true },
  'POST /api/admin/adjustments/:id/approve': { summary: 'Approve a pending adjustment', access: 'finance', idPattern: UUID, ok: 200, answer: PendingAdjustmentBody },
  'POST /api/admin/adjustments/:id/reject': { summary: 'Reject a pending adjustment', access: 'finance', idPattern: UUID, ok: 200, answer: PendingAdjustmentBody },
  'POST /api/admin/ledger/users/lookup': { summary: 'Find a user by mobile number (in the body: never in a URL)', access: 'finance', body: LedgerUserLookupRequest, errors: [404], ok: 200, answer: LedgerUserLookupBody },
  'GET /api/admin/ledger/users/:userId/statement': { summary: "A user's ledger statement (JSON or CSV)", access: 'finance', params: LedgerUserParam, query: StatementQuery, ok: 200, answer: StatementBody },
  'GET /api/admin/ledger/users/:userId/balance': { summary: "A user's balance at a time", access: 'finance', params: LedgerUserParam, query: BalanceQuery, ok: 200, answer: LedgerBalanceBody },
  'GET /api/admin/ledger/trial-balance': { summary: 'The trial balance', access: 'finance', query: TrialBalanceQuery, ok: 200, answer: TrialBalanceBody },
  'GET /api/admin/ledger/reconciliation': { summary: 'Wallets against the ledger', access: 'finance', ok: 200, answer: ReconciliationBody },
  'GET /api/admin/ledger/verify': { summary: 'Verify the hash chain and signed checkpoints of the event log', access: 'finance', ok: 200, answer: LedgerVerifyBody },
  'POST /api/admin/ledger/funding': {
    summary: 'Book money paid into the payout account (above the threshold it waits for a second finance member: 202)',
    access: 'finance',
    body: FundingRequest,
    ok: 201,
    answer: FundingBody,
    alsoOk: { status: 202, answer: FundingBody, description: 'The funding waits for a second finance member' },
  },
  'GET /api/admin/ledger/funding': { summary: 'Fundings by status', access: 'finance', query: FundingQuery, ok: 200, answer: FundingBody, list: true },
  'POST /api/admin/ledger/funding/:id/approve': { summary: 'Approve a pending funding', access: 'finance', idPattern: UUID, ok: 200, answer: FundingBody },
  'POST /api/admin/ledger/funding/:id/reject': { summary: 'Reject a pending funding', access: 'finance', idPattern: UUID, ok: 200, answer: FundingBody },
  'POST /api/admin/ledger/funding/:id/reverse': { summary: 'Ask to take a booked funding back (a second finance member approves)', access: 'finance', idPattern: UUID, body: FundingReversalRequest, ok: 202, answer: FundingBody },
  'POST /api/admin/ledger/funding/:id/reverse/approve': { summary: 'Approve taking a booked funding back', access: 'finance', idPattern: UUID, ok: 200, answer: FundingBody },
  'GET /api/admin/reports/yearly': { summary: 'The yearly report of a financial year (JSON or CSV)', access: 'finance', query: YearlyReportQuery, ok: 200, answer: YearlyReportBody },
  'GET /metrics': { summary: 'Prometheus metrics (keep it off the public network; with METRICS_TOKEN set, a bearer token)', access: 'public', ok: 200, content: 'text/plain', errors: [401] },
  'GET /api/openapi.json': { summary: 'This document', access: 'public', ok: 200 },
  'POST /api/admin/webhooks': { summary: 'Register a webhook endpoint (its signing secret is in this answer only)', access: 'admin', body: WebhookEndpointRequest, ok: 201, answer: WebhookEndpointCreatedBody },
  'GET /api/admin/webhooks': { summary: 'The webhook endpoints', access: 'admin', ok: 200, answer: WebhookEndpointBody, list: true },
  'DELETE /api/admin/webhooks/:id': { summary: 'Delete a webhook endpoint (what it has pending is not sent)', access: 'admin', idPattern: UUID, ok: 204 },
  'GET /api/admin/webhooks/:id/deliveries': { summary: "A webhook endpoint's delivery log, newest first", access: 'admin', idPattern: UUID, ok: 200, answer: WebhookDeliveryBody, list: true },
  'POST /api/admin/webhooks/:id/replay': { summary: 'Send again every event of the endpoint\'s kinds from a log position on', access: 'admin', idPattern: UUID, body: WebhookReplayRequest, ok: 202, answer: WebhookReplayBody },
  'GET /api/admin/reference': { summary: 'This document as a readable reference page, for staff', access: 'staff', ok: 200, content: 'text/html' },
  'GET /api/admin/reference/scalar.js': { summary: "The reference page's viewer script", access: 'staff', ok: 200, content: 'text/javascript' },
  'POST /api/profile/consent': { summary: 'Agree to the privacy policy (people registered before consent was asked)', access: 'signedIn', body: ConsentRequest, ok: 200, answer: UserBody },
  'GET /api/push/public-key': { summary: "The server's VAPID public key, to subscribe a browser to alerts", access: 'public', ok: 200, answer: PushPublicKeyAnswer },
  'POST /api/push/subscriptions': { summary: "Send alerts to this browser (its PushSubscription's endpoint and keys)", access: 'signedIn', body: PushSubscriptionBody, ok: 204 },
  'DELETE /api/push/subscriptions': { summary: 'Stop sending alerts to this browser', access: 'signedIn', body: PushUnsubscribeBody, ok: 204 },
  'GET /api/push/alerts': { summary: 'The alert kinds you receive outside the app', access: 'signedIn', ok: 200, answer: PushAlertsBody },
  'GET /api/task-signals': { summary: "Each task's median review time and approval share over the last 30 days", access: 'signedIn', ok: 200, answer: TaskSignalBody, list: true },
  'PUT /api/push/alerts': { summary: 'Choose the alert kinds you receive outside the app', access: 'signedIn', body: PushAlertsBody, ok: 200, answer: PushAlertsBody },
  'POST /api/admin/submissions/:id/request-changes': { summary: 'Send a proof back for changes (resubmitted within 48 hours or rejected)', access: 'reviewer', idPattern: UUID, body: RequestChangesRequest, ok: 200, answer: SubmissionBody },
  'POST /api/submissions/:id/appeal': { summary: 'Appeal a rejection of your proof (once, within 7 days)', access: 'signedIn', idPattern: UUID, body: AppealRequest, ok: 201, answer: AppealOpenedBody },
  'GET /api/admin/appeals': { summary: 'Appeals to decide (or decided)', access: 'reviewer', query: AppealsQuery, ok: 200, answer: AppealBody, list: true },
  'POST /api/admin/appeals/:id/decide': { summary: 'Uphold or overturn an appeal (never your own rejection; overturning credits the reward)', access: 'reviewer', idPattern: UUID, body: DecideAppealRequest, ok: 200, answer: AppealBody },
  'GET /api/admin/reviewers/stats': { summary: 'Per reviewer over whole IST days: decisions, rejection rate, appeals lost, median decision time, rejection-rate alert', access: 'admin', query: ReviewerStatsQuery, ok: 200, answer: ReviewerStatsBody },
  'POST /api/admin/ledger/periods/:month/close': { summary: 'Ask to close a past month of the books (a second finance member approves)', access: 'finance', params: PeriodParam, ok: 202, answer: LedgerPeriodBody },
  'POST /api/admin/ledger/periods/:month/close/approve': { summary: 'Approve closing a month: nothing may be posted into it afterwards', access: 'finance', params: PeriodParam, ok: 200, answer: LedgerPeriodBody, errors: [404] },
  'GET /api/profile/invite': { summary: 'Your invite code and the link that carries it (stable)', access: 'signedIn', ok: 200, answer: InviteBody },
  'GET /api/admin/invitations': { summary: 'Invitations with each bonus and the refusal reason code', access: 'finance', query: InvitationsQuery, ok: 200, answer: InvitationBody, list: true },
  'GET /api/withdrawals/quote': { summary: 'The tax a withdrawal of this amount would have withheld now, and what the bank would be paid', access: 'signedIn', query: WithdrawalQuoteQuery, ok: 200, answer: WithdrawalQuoteBody },
  'GET /api/admin/ledger/periods': { summary: 'The current month and the twelve before it, newest first: open, close pending (who asked) or closed (who approved)', access: 'finance', ok: 200, answer: LedgerPeriodRowBody, list: true },
  'GET /api/admin/ledger/trial-balance/period': { summary: 'The trial balance over whole IST days (to included): per account opening, movement and closing in Dr/Cr columns; format=csv for the file', access: 'finance', query: PeriodTrialBalanceQuery, ok: 200, answer: PeriodTrialBalanceBody },
  'GET /api/admin/ledger/statement-exceptions': { summary: 'The bank statement exceptions queue, oldest first, with age', access: 'finance', query: StatementExceptionsQuery, ok: 200, answer: StatementExceptionBody, list: true },
  'POST /api/admin/ledger/statement-exceptions/:id/match': { summary: 'Resolve an exception as matched by hand, with a note', access: 'finance', idPattern: UUID, body: StatementExceptionNote, ok: 200, answer: StatementExceptionBody },
  'POST /api/admin/ledger/statement-exceptions/:id/write-off': { summary: 'Ask to write an exception off, with a note (a second finance member approves)', access: 'finance', idPattern: UUID, body: StatementExceptionNote, ok: 202, answer: StatementExceptionBody },
  'POST /api/admin/ledger/statement-exceptions/:id/write-off/approve': { summary: 'Approve writing an exception off (not the member who asked)', access: 'finance', idPattern: UUID, ok: 200, answer: StatementExceptionBody, errors: [404] },
  'POST /api/admin/ledger/tax-deposits': { summary: 'Record a deposit of withheld tax (a challan) against a quarter: tax payable to the bank account', access: 'finance', body: TaxDepositRequest, ok: 201, answer: TaxDepositBody },
  'GET /api/admin/ledger/tax-deposits': { summary: 'A quarter’s tax: deducted, deposited, due, and its challans', access: 'finance', query: TaxDepositsQuery, ok: 200, answer: TaxQuarterSummaryBody },
  'GET /api/admin/ledger/tax/:quarter': { summary: 'The quarterly TDS return’s rows, one per deduction with its challan (format=csv for the file)', access: 'finance', params: TaxQuarterParam, query: TaxReturnQuery, ok: 200, answer: TaxReturnBody },
  'GET /api/admin/ledger/tax/:quarter/certificates': { summary: 'Per person, the quarter’s certificate data (what Form 16A carries)', access: 'finance', params: TaxQuarterParam, ok: 200, answer: TaxCertificateBody, list: true },
  'GET /api/tax-summary': { summary: 'Your tax deducted per financial year: withdrawn, tax, sent to the bank', access: 'signedIn', ok: 200, answer: MyTaxYearBody, list: true },
  'GET /api/admin/ledger/balances': { summary: 'The payout float and the tax payable, their warning thresholds and whether each is past its own', access: 'finance', ok: 200, answer: LedgerBalancesBody },
  'POST /api/auth/login/form': {
    summary:
      'Sign in from the HTML form /login draws before the app runs (fields mobile, password, redirect): the same sign-in as POST /api/auth/login, answered with 303 to `redirect` (or /), or to /login?error=<code> (invalid_credentials, validation_failed, too_many_attempts)',
    access: 'public',
    rawBody: 'application/x-www-form-urlencoded',
    ok: 303,
  },
};
