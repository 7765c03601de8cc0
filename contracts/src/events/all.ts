import type { EventsOf } from './define.ts';
import { accountEvents, credentialEvents, mobileEvents, passwordResetEvents, sessionEvents } from './account.ts';
import { deletionEvents } from './erasure.ts';
import { kycEvents } from './kyc.ts';
import { idempotencyEvents, referenceEvents, staffLimitEvents } from './finance.ts';
import { adjustmentEvents, ledgerEvents, notificationEvents } from './ledger.ts';
import { bankStatementEvents, payoutBatchEvents } from './payouts.ts';
import { fundingEvents } from './funding.ts';
import { taskCatalogueEvents, userTaskEvents } from './tasks.ts';
import { settingsEvents, withdrawalEvents } from './withdrawals.ts';
import { privacyEvents } from './privacy.ts';
import { workflowEvents } from './workflows.ts';
import { webhookEvents } from './webhooks.ts';
import { pushEvents } from './push.ts';
import { ledgerPeriodEvents } from './periods.ts';
import { taxDepositEvents, taxPayeeEvents } from './tax.ts';
import { invitationEvents } from '../invitations.ts';
import { statementExceptionEvents } from './statements.ts';
import { balanceWarningEvents } from './balance-warnings.ts';

/**
 * Every event of a `user-<id>` stream. Each business area adds its own map here; the domain's user
 * decider and the projections switch over this union.
 */
export const userEvents = {
  ...accountEvents,
  ...credentialEvents,
  ...ledgerEvents,
  ...notificationEvents,
  ...userTaskEvents,
  ...withdrawalEvents,
  ...kycEvents,
  ...adjustmentEvents,
  ...deletionEvents,
  ...pushEvents,
};
export type UserEvent = EventsOf<typeof userEvents>;
export type MobileEvent = EventsOf<typeof mobileEvents>;
export type SessionEvent = EventsOf<typeof sessionEvents>;
export type PasswordResetEvent = EventsOf<typeof passwordResetEvents>;
export type TaskCatalogueEvent = EventsOf<typeof taskCatalogueEvents>;
export type SettingsEvent = EventsOf<typeof settingsEvents>;
export type ReferenceEvent = EventsOf<typeof referenceEvents>;
export type IdempotencyEvent = EventsOf<typeof idempotencyEvents>;
export type StaffLimitEvent = EventsOf<typeof staffLimitEvents>;
export type PayoutBatchEvent = EventsOf<typeof payoutBatchEvents>;
export type BankStatementEvent = EventsOf<typeof bankStatementEvents>;
export type FundingEvent = EventsOf<typeof fundingEvents>;
export type PrivacyEvent = EventsOf<typeof privacyEvents>;
export type WorkflowEvent = EventsOf<typeof workflowEvents>;
export type WebhookEvent = EventsOf<typeof webhookEvents>;
export type LedgerPeriodEvent = EventsOf<typeof ledgerPeriodEvents>;
export type TaxDepositEvent = EventsOf<typeof taxDepositEvents>;
export type TaxPayeeEvent = EventsOf<typeof taxPayeeEvents>;
export type InvitationEvent = EventsOf<typeof invitationEvents>;
export type StatementExceptionEvent = EventsOf<typeof statementExceptionEvents>;
export type BalanceWarningEvent = EventsOf<typeof balanceWarningEvents>;

/** Every event type the system writes, by type: used to validate events read back from the store. */
export const allEvents = {
  ...userEvents,
  ...mobileEvents,
  ...sessionEvents,
  ...passwordResetEvents,
  ...taskCatalogueEvents,
  ...settingsEvents,
  ...referenceEvents,
  ...idempotencyEvents,
  ...staffLimitEvents,
  ...payoutBatchEvents,
  ...bankStatementEvents,
  ...fundingEvents,
  ...privacyEvents,
  ...workflowEvents,
  ...webhookEvents,
  ...ledgerPeriodEvents,
  ...invitationEvents,
  ...statementExceptionEvents,
  ...taxDepositEvents,
  ...balanceWarningEvents,
  ...taxPayeeEvents,
};
export type KamaiEvent = EventsOf<typeof allEvents>;
export type KamaiEventType = KamaiEvent['type'];
