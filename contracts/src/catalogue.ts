import { AUDIT_MESSAGES } from './audit.ts';
import { MESSAGES, PASSWORD_RESET_MESSAGES, WRONG_CURRENT_PASSWORD } from './auth.ts';
import { CONTROL_MESSAGES } from './controls.ts';
import { FUNDING_MESSAGES } from './funding.ts';
import { KYC_MESSAGES } from './kyc.ts';
import { FINANCIAL_YEAR_MESSAGE, USER_ID_MESSAGE, WITHDRAWAL_LIST_STATUS_MESSAGE } from './ledger.ts';
import { type MessageParams, renderText } from './messages.ts';
import { type FieldName, refusalOf } from './refusal.ts';
import { PAYOUT_MESSAGES } from './payouts.ts';
import { DELETION_TEXTS, PRIVACY_MESSAGES } from './privacy.ts';
import { IMAGE_TOO_LARGE } from './rules.ts';
import { LIMIT_TEXTS, SETTINGS_MESSAGES } from './settings.ts';
import { SUSPENSION_MESSAGES } from './suspension.ts';
import { REVIEW_MESSAGES, TASK_MESSAGES } from './tasks.ts';
import { APPEAL_MESSAGES } from './appeals.ts';
import { CONTROL_CHARACTERS_MESSAGE } from './text.ts';
import { WALLET_MESSAGES } from './wallet.ts';
import { WITHDRAWAL_MESSAGES, WITHDRAWAL_STATE_MESSAGES } from './withdrawals.ts';
import { WEBHOOK_MESSAGES } from './webhooks.ts';
import { PUSH_MESSAGES } from './push.ts';
import { TAX_MESSAGES } from './tax.ts';
import { PERIOD_MESSAGES } from './periods.ts';
import { TAX_RETURN_MESSAGES } from './tax-returns.ts';
import { INVITATION_MESSAGES } from './invitations.ts';
import { STATEMENT_MESSAGES } from './statements.ts';
import { BANK_FILE_MESSAGES } from './bank-files.ts';

/**
 * The texts of the server's errors that only the server says (the rules' own messages are kept with
 * their rules, below). `{name}` is a parameter, filled in by renderText.
 */
export const API_MESSAGES = {
  notSignedIn: 'You are not signed in',
  notAllowed: 'You are not allowed to do this',
  notFound: 'Not found',
  noSuchRoute: 'No such API route: {method} {path}',
  badRequest: 'Bad request',
  internal: 'Something went wrong. Please try again.',
  bodyTooLarge: 'Request body too large',
  bodyNotJson: 'Request body must be JSON',
  crossSite: 'This request did not come from the Kamai app',
  notYetVisible: 'Your change was saved but is taking a moment to show. Please refresh in a few seconds.',
  stillProcessing: 'This request is still being processed. Please try again in a moment.',
  tooManyChanges: 'Too many changes at once. Please try again.',
  storageFull: 'Kamai is busy, try again in a minute',
  storageReadOnly: 'Kamai cannot save changes just now. Please try again in a few minutes.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different request',
  idempotencyKeyFormat: 'Idempotency-Key must be 1 to 100 visible characters',
  badCredentials: 'Invalid mobile number or password',
  tooManySignIns: 'Too many failed sign-ins. Please try again in {minutes} minutes.',
  tooManyAccounts: 'Too many new accounts from your network. Please try again in {minutes} minutes.',
  mobileTaken: 'This mobile number is already registered',
  accountExists: 'This account already exists',
  sessionExists: 'Session already exists',
  sessionNotFound: 'Session not found',
  wrongCurrentPassword: WRONG_CURRENT_PASSWORD,
  currentPasswordMissing: 'Enter your current password',
  passwordTooLong: 'Password must be at most 256 characters',
  firstNameTooLong: 'First name must be at most 60 characters',
  lastNameTooLong: 'Last name must be at most 60 characters',
  noSuchUser: 'No such user',
  noUserWithMobile: 'No user with this mobile number',
  notificationNotFound: 'Notification not found',
  taskNotFound: 'Task not found',
  taskExists: 'This task already exists',
  noProofNeeded: 'This task does not need proof',
  proofUnderReview: 'Your proof for this task is already under review',
  taskCompleted: 'You have already completed this task',
  submissionExists: 'This submission already exists',
  submissionNotFound: 'Submission not found',
  submissionReviewed: 'This submission has already been reviewed',
  submissionStatus: 'Status must be submitted, approved, rejected or needs_changes',
  documentExists: 'This document submission already exists',
  documentStatus: 'Status must be pending, approved or rejected',
  uploadPurpose: 'Purpose must be proof or kyc',
  uploadFirst: 'Upload the image first',
  imageAlreadyUploaded: 'This image was already uploaded',
  imageNotYours: 'That image was not uploaded by you',
  imageNotViewable: 'You cannot view this image',
  imageNotFound: 'That image was not found. Please upload it again.',
  imageTooLarge: IMAGE_TOO_LARGE,
  fileTooLarge: 'This file is larger than {megabytes}MB',
  notImageFile: 'This file is not an image',
  unreadableImage: 'This file is not a readable image. Please choose another photo.',
  notProofImage: 'That image was not uploaded as proof',
  notAnImage: 'Only PNG, JPEG, WebP or GIF images are allowed',
  invalidObjectKey: 'Invalid object key',
  uploadLinkInvalid: 'This upload link is not valid',
  uploadLinkExpired: 'This upload link has expired. Please upload the image again.',
  uploadIncomplete: 'The upload did not complete. Please try again.',
  withdrawalNotFound: 'Withdrawal request not found',
  withdrawalExists: 'This withdrawal request already exists',
  ownWithdrawal: 'You cannot process your own withdrawal',
  holderNameTooLong: 'Account holder name must be at most 100 characters',
  transferReference: 'Enter the bank or UPI transfer reference (4 to 64 letters and digits)',
  duplicateReference: 'This transfer reference has already been used for another withdrawal',
  reasonTooShort: 'Give a reason of at least 3 characters',
  reasonUnder300: 'Keep the reason under 300 characters',
  amountAboveZero: 'Amount must be more than zero',
  positiveAmount: 'Amount must be a positive number of rupees',
  ownWallet: 'You cannot adjust your own wallet',
  adjustmentNotFound: 'Adjustment not found',
  adjustmentApproved: 'This adjustment was already approved',
  adjustmentRejected: 'This adjustment was already rejected',
  ownAdjustment: 'Another finance member must approve an adjustment you made',
  unknownIfsc: 'No bank branch has the IFSC {code}',
  noBranchDirectory: 'This server has no bank branch directory',
  textTooLong: '{what} must be at most {max} characters',
  controlCharacters: CONTROL_CHARACTERS_MESSAGE,
  // Query and form checks of the contracts' schemas that have no rule group of their own.
  statusFilter: 'status must be pending, processing, paid, failed, rejected, reversed or all',
  withdrawalListStatus: WITHDRAWAL_LIST_STATUS_MESSAGE,
  financialYear: FINANCIAL_YEAR_MESSAGE,
  userIdParam: USER_ID_MESSAGE,
  transferReferenceRequired: 'Enter the transfer reference',
  reasonRequired: 'Give a reason',
  directionFilter: 'direction must be credit or debit',
  languageValue: 'language must be "en" or "hi"',
  notificationsEnabledValue: 'notificationsEnabled must be true or false',
  proofInstructionsText: 'Proof instructions must be text',
  dateOrTime: 'Give a date or an ISO-8601 time',
  dateFormatOrTime: 'Give a date (YYYY-MM-DD) or an ISO-8601 time',
  realDate: 'Give a real date',
  mobileOrUserId: 'Give a 10-digit mobile number or a user id',
  formatValue: 'format must be json or csv',
  lateValue: 'late must be true or false',
  cursorValue: 'cursor is the X-Next-Cursor of the previous page',
  limitRange: 'limit is 1 to 1000',
  reviewStatusFilter: 'status must be pending, approved or rejected',
} as const;

type Prefixed<P extends string, T> = { readonly [K in keyof T & string as `${P}.${K}`]: T[K] };
function prefixed<P extends string, T extends Record<string, unknown>>(prefix: P, texts: T): Prefixed<P, T> {
  return Object.fromEntries(Object.entries(texts).filter(([, text]) => typeof text === 'string').map(([key, text]) => [`${prefix}.${key}`, text])) as Prefixed<P, T>;
}

/**
 * Every text the server can send a person in an error, by its key: the message and each field's.
 * Errors are raised with a key and its parameters (a MessageRef); the API's error body carries the
 * English text (`message`, `fields`) for API clients beside the key and parameters (`key`,
 * `params`, `fieldKeys`), and the web app shows the key's text in the reader's language (its
 * `messages` namespace, under `server.<key>`); a unit test there fails on a key without both an
 * English and a Hindi text. A new server message goes here first (a rule's own texts beside the rule,
 * spread in below).
 */
export const SERVER_MESSAGES = {
  ...prefixed('api', API_MESSAGES),
  ...prefixed('auth', MESSAGES),
  ...prefixed('kyc', KYC_MESSAGES),
  ...prefixed('task', TASK_MESSAGES),
  ...prefixed('review', REVIEW_MESSAGES),
  ...prefixed('withdrawal', WITHDRAWAL_MESSAGES),
  ...prefixed('withdrawalState', WITHDRAWAL_STATE_MESSAGES),
  ...prefixed('payout', PAYOUT_MESSAGES),
  ...prefixed('privacy', PRIVACY_MESSAGES),
  ...prefixed('deletion', DELETION_TEXTS),
  ...prefixed('passwordReset', PASSWORD_RESET_MESSAGES),
  ...prefixed('limit', LIMIT_TEXTS),
  ...prefixed('settings', SETTINGS_MESSAGES),
  ...prefixed('wallet', WALLET_MESSAGES),
  ...prefixed('controls', CONTROL_MESSAGES),
  ...prefixed('suspension', SUSPENSION_MESSAGES),
  ...prefixed('funding', FUNDING_MESSAGES),
  ...prefixed('audit', AUDIT_MESSAGES),
  ...prefixed('webhook', WEBHOOK_MESSAGES),
  ...prefixed('push', PUSH_MESSAGES),
  ...prefixed('appeal', APPEAL_MESSAGES),
  ...prefixed('tax', TAX_MESSAGES),
  ...prefixed('period', PERIOD_MESSAGES),
  ...prefixed('invitation', INVITATION_MESSAGES),
  ...prefixed('statement', STATEMENT_MESSAGES),
  ...prefixed('taxReturn', TAX_RETURN_MESSAGES),
  ...prefixed('bankFile', BANK_FILE_MESSAGES),
} as const;
export type ServerMessageKey = keyof typeof SERVER_MESSAGES;

/** A server message as facts: its catalogue key and parameters. */
export interface MessageRef {
  key: ServerMessageKey;
  params?: MessageParams;
}

/** The message of a key, with its parameters (money parameters end in `Paise`). */
export function msg(key: ServerMessageKey, params?: MessageParams): MessageRef {
  return params ? { key, params } : { key };
}

/** The English names of the fields a refusal names by key (its `what` parameter, refusal.ts). */
export const FIELD_NAMES: Readonly<Record<FieldName, string>> = {
  title: 'Title',
  description: 'Description',
  proofInstructions: 'Proof instructions',
  taskUrl: 'Task URL',
  estimatedTime: 'Estimated time',
};

/** The English text of a message; a field named by key (`what`) in its English name. */
export function serverText(ref: MessageRef): string {
  const what = ref.params?.['what'];
  const field = typeof what === 'string' && Object.hasOwn(FIELD_NAMES, what) ? FIELD_NAMES[what as FieldName] : null;
  return renderText(SERVER_MESSAGES[ref.key], field === null ? ref.params : { ...ref.params, what: field });
}

/** The English text of a schema's refusal (its key and parameters, refusal.ts); the message as it came when it names no key. */
export function refusalText(message: string): string {
  const ref = refusalOf(message);
  return ref && Object.hasOwn(SERVER_MESSAGES, ref.key) ? serverText({ key: ref.key as ServerMessageKey, ...(ref.params && { params: ref.params }) }) : message;
}
