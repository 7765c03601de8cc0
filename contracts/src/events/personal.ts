import type { KamaiEventType } from './all.ts';
import type { JsonValue } from './json.ts';

/**
 * Personal data in events. The log is kept forever and hash-chained, so a person can be forgotten
 * only if what identifies them never sits in it in plain text: every sealed field is stored
 * encrypted with its data subject's key (crypto-shredding), and erasing the person deletes that key.
 * Deciders and projections see the plain values (or, once the key is gone, ERASED) through the codec.
 *
 * EVENT_FIELDS classifies every string field of every event (a unit test walks the schemas and fails
 * on one left out): `personal` (names, mobile numbers, e-mail, secrets, bank and UPI details, image
 * keys, device data), `freeText` (words someone wrote about the person: reasons; staff read them while
 * the person exists) — both sealed under the subject's key — or `plain`, with why it identifies no one.
 * PERSONAL_FIELDS, which the sealing code and the read models' erasure scrub read, is derived from it.
 * Paths are dot-separated (`destination.upiId`); `[]` is an array's items, `*` a record's values
 * (`params.*`); a path whose value is absent in an event is simply skipped.
 */
export interface PersonalFields {
  /**
   * Whose key seals it: the user id of a `user-<id>` stream (`stream`), the payload's `userId`, the
   * metadata's actor (`caller`), or the payload's `reservationId` (a mobile reservation's own key, so
   * the sealed blob, whose subject is stored in plain, does not name the holder).
   */
  subject: 'stream' | 'userId' | 'caller' | 'reservationId';
  /** Every sealed path: the personal ones, then the free text. */
  paths: readonly string[];
}

/**
 * Why a plain string field identifies no one: an id (of a user, staff member, task, withdrawal…), a
 * code from a closed or operator-set list, a timestamp or day, a digest or token that names nothing, a
 * text of the catalogue or settings (written by staff for everyone), a bank's own reference — or a
 * sentence saying why, for anything else.
 */
export type PlainWhy = 'id' | 'code' | 'time' | 'digest' | 'catalogue' | 'bank reference' | { why: string };

export interface EventFieldClasses {
  /** Whose key seals the personal and free-text fields (required when there are any). */
  subject?: PersonalFields['subject'];
  personal?: readonly string[];
  freeText?: readonly string[];
  plain?: Readonly<Record<string, PlainWhy>>;
}

const ID = 'id' as const;
const TIME = 'time' as const;
const CODE = 'code' as const;
const DIGEST = 'digest' as const;
const CATALOGUE = 'catalogue' as const;
const BANK_REFERENCE = 'bank reference' as const;

/** A list of tax rules: finance's codes and labels, for everyone (docs/tax.md). */
const TAX_RULE_TEXTS = (path: string): Readonly<Record<string, PlainWhy>> => ({
  [`${path}[].code`]: CODE,
  [`${path}[].label`]: CATALOGUE,
});

/** The catalogue texts of a task (TaskCreated and TaskUpdated carry the whole task). */
const TASK_TEXTS: Readonly<Record<string, PlainWhy>> = {
  taskId: ID,
  title: CATALOGUE,
  description: CATALOGUE,
  estimatedTime: CATALOGUE,
  'hi.title': CATALOGUE,
  'hi.description': CATALOGUE,
  'hi.proofInstructions': CATALOGUE,
  taskUrl: CATALOGUE,
  iconColor: CODE,
  proofInstructions: CATALOGUE,
  expiresAt: TIME,
};

/**
 * Message parameters (`params`, by the names NOTIFICATION_TEXTS and LEDGER_TEXTS use): the
 * destination is the person's, a reason is free text about them; the rest are facts.
 */
const PARAMS_PLAIN: Readonly<Record<string, PlainWhy>> = {
  'params.*': { why: 'a parameter not named here is a fact of the text (amount, count); the test checks every name the texts use is classified' },
  'params.taskTitle': CATALOGUE,
  'params.reference': BANK_REFERENCE,
  'params.amountPaise': { why: 'an amount' },
  'params.code': CODE,
  /** An app-written adjustment reason's code (ADJUSTMENT_REASONS), beside the sealed reason. */
  'params.reasonCode': CODE,
  /** A tax deposit's challan (the journal's own line, never a person's): the bank's numbers, the quarter and the day. */
  'params.quarter': TIME,
  'params.bsrCode': BANK_REFERENCE,
  'params.serial': BANK_REFERENCE,
  'params.date': TIME,
  'params.thresholdPaise': { why: 'an amount' },
};

/** An entry's effective day and what a correction corrects (a transaction, entry or funding id: never words). */
const ACCOUNTING_PLAIN: Readonly<Record<string, PlainWhy>> = {
  effectiveDate: TIME,
  corrects: ID,
};

/**
 * A refusal's answer: its code, catalogue message and field names, fixed texts with no personal data
 * (docs/errors). What an idempotent command recorded when it was refused.
 */
const REFUSAL: PlainWhy = { why: "a refusal's error body: code, catalogue message and field names, fixed texts" };

/**
 * Every event type's string fields, classified. Picklists and literals are codes by their schema and
 * need no entry; everything else does.
 */
export const EVENT_FIELDS: { readonly [T in KamaiEventType]: EventFieldClasses } = {
  UserRegistered: {
    subject: 'stream',
    personal: ['mobile', 'passwordHash', 'firstName', 'lastName'],
    plain: { userId: ID, registeredAt: TIME, consentPolicyVersion: CODE },
  },
  ProfileUpdated: { subject: 'stream', personal: ['firstName', 'lastName', 'email'], plain: { language: CODE, updatedAt: TIME } },
  RoleGranted: { plain: { grantedBy: ID, grantedAt: TIME } },
  RoleRevoked: { plain: { revokedBy: ID, revokedAt: TIME } },
  /** A staff member's words about the account. */
  AccountSuspended: { subject: 'stream', freeText: ['reason'], plain: { suspendedBy: ID, suspendedAt: TIME } },
  AccountUnsuspended: { plain: { unsuspendedBy: ID, unsuspendedAt: TIME } },
  PasswordChanged: { subject: 'stream', personal: ['passwordHash'], plain: { changedAt: TIME } },
  /** A secret of the person's, like the password hash. */
  PasswordResetCodeIssued: { subject: 'userId', personal: ['codeHash'], plain: { userId: ID, issuedAt: TIME, expiresAt: TIME } },
  PasswordResetCodeUsed: { plain: { userId: ID, usedAt: TIME } },
  AdjustmentRequested: {
    subject: 'stream',
    freeText: ['reason'],
    plain: { adjustmentId: ID, reasonCode: CODE, requestedBy: ID, requestedAt: TIME, ...ACCOUNTING_PLAIN },
  },
  AdjustmentApproved: { plain: { adjustmentId: ID, approvedBy: ID, approvedAt: TIME } },
  AdjustmentRejected: { plain: { adjustmentId: ID, rejectedBy: ID, rejectedAt: TIME } },
  /** A refund's reason or an adjustment's is free text about the person; older events' literal description may quote it. */
  WalletCredited: {
    subject: 'stream',
    personal: ['params.destination'],
    freeText: ['description', 'params.reason'],
    plain: { entryId: ID, taskId: ID, reference: { why: 'what caused it: a submission, withdrawal or adjustment id, or a reason code' }, by: ID, creditedAt: TIME, ...PARAMS_PLAIN, ...ACCOUNTING_PLAIN },
  },
  /** A withdrawal's hold names its (masked) destination. */
  WalletDebited: {
    subject: 'stream',
    personal: ['params.destination'],
    freeText: ['description', 'params.reason'],
    plain: { entryId: ID, reference: { why: 'what caused it: a withdrawal or adjustment id' }, by: ID, debitedAt: TIME, ...PARAMS_PLAIN, ...ACCOUNTING_PLAIN },
  },
  /** Reasons are free text written about the person (a suspension's, a rejection's); older events' literal texts may quote them. */
  NotificationSent: {
    subject: 'stream',
    personal: ['params.destination'],
    freeText: ['params.reason', 'title', 'message'],
    plain: { notificationId: ID, sentAt: TIME, ...PARAMS_PLAIN },
  },
  NotificationRead: { plain: { notificationId: ID, readAt: TIME } },
  AllNotificationsRead: { plain: { readAt: TIME } },
  NotificationDeleted: { plain: { notificationId: ID, deletedAt: TIME } },
  TaskStarted: { plain: { taskId: ID, startedAt: TIME } },
  /** The picture's hash is derived from the person's picture: forgotten with it. */
  ProofSubmitted: {
    subject: 'stream',
    personal: ['proofImageUrl', 'proofDhash'],
    freeText: ['proofDescription'],
    plain: { submissionId: ID, taskId: ID, taskTitle: CATALOGUE, submittedAt: TIME, startedAt: TIME },
  },
  ProofApproved: { plain: { submissionId: ID, taskId: ID, reviewedBy: ID, approvedAt: TIME } },
  ProofRejected: {
    subject: 'stream',
    freeText: ['reason'],
    plain: { submissionId: ID, taskId: ID, reviewedBy: ID, reasonCode: CODE, rejectedAt: TIME },
  },
  WithdrawalRequested: {
    subject: 'stream',
    personal: ['destination.accountNumber', 'destination.holderName', 'destination.upiId'],
    plain: {
      withdrawalId: ID,
      'destination.ifsc': { why: "a bank branch's public code, shared by everyone banking there: the payout file and queue group by it, and without the account number it names no one" },
      requestedAt: TIME,
      'taxes[].code': CODE,
    },
  },
  WithdrawalPaid: { plain: { withdrawalId: ID, reference: BANK_REFERENCE, paidBy: ID, paidAt: TIME, valueDate: TIME } },
  WithdrawalRejected: {
    subject: 'stream',
    freeText: ['reason'],
    plain: { withdrawalId: ID, reasonCode: CODE, rejectedBy: ID, rejectedAt: TIME },
  },
  WithdrawalProcessing: { plain: { withdrawalId: ID, batchId: ID, by: ID, processingAt: TIME } },
  /** The bank's failure reason, as its results file gave it: it may quote the person's name or account. */
  WithdrawalFailed: { subject: 'stream', freeText: ['reason'], plain: { withdrawalId: ID, by: ID, failedAt: TIME } },
  WithdrawalReversed: { subject: 'stream', freeText: ['reason'], plain: { withdrawalId: ID, by: ID, reversedAt: TIME } },
  KycDocumentSubmitted: {
    subject: 'stream',
    personal: ['frontImageUrl', 'backImageUrl', 'frontImageSha256', 'backImageSha256', 'panNumber'],
    plain: { documentId: ID, submittedAt: TIME },
  },
  KycDocumentApproved: { plain: { documentId: ID, reviewedBy: ID, approvedAt: TIME, 'carried[].fy': TIME, 'carried[].credited[].kind': CODE, 'carried[].withheld[].code': CODE } },
  KycDocumentRejected: {
    subject: 'stream',
    freeText: ['reason'],
    plain: { documentId: ID, reviewedBy: ID, reasonCode: CODE, rejectedAt: TIME },
  },
  KycBonusClaimed: { plain: { entryId: ID, claimedAt: TIME } },
  /**
   * Sealed under the reservation's own key (a sealed blob names its key's owner in plain): once
   * erasure deletes that key, the number points at nobody and its stream links no erased id to a new one.
   */
  MobileReserved: { subject: 'reservationId', personal: ['mobile', 'userId'], plain: { reservationId: ID, reservedAt: TIME } },
  MobileReleased: { subject: 'reservationId', personal: ['userId'], plain: { reservationId: ID, releasedAt: TIME } },
  DeletionRequested: { plain: { requestId: ID, requestedAt: TIME, coolingOffEndsAt: TIME } },
  DeletionCancelled: { plain: { requestId: ID, cancelledAt: TIME } },
  UserErased: { plain: { requestId: ID, erasedBy: ID, erasedAt: TIME } },
  SessionStarted: {
    subject: 'userId',
    personal: ['device'],
    plain: { sessionId: { why: "the SHA-256 of the cookie's token, never the token" }, userId: ID, startedAt: TIME, expiresAt: TIME },
  },
  SessionEnded: { plain: { sessionId: DIGEST, endedAt: TIME } },
  SessionSeen: { plain: { sessionId: DIGEST, seenAt: TIME } },
  TaskCreated: { plain: { ...TASK_TEXTS, createdBy: ID, createdAt: TIME } },
  TaskUpdated: { plain: { ...TASK_TEXTS, updatedBy: ID, updatedAt: TIME } },
  TaskDeleted: { plain: { taskId: ID, deletedBy: ID, deletedAt: TIME } },
  TaskSlotTaken: { plain: { taskId: ID, submissionId: ID, userId: ID, takenAt: TIME } },
  TaskSlotReleased: { plain: { taskId: ID, submissionId: ID, releasedAt: TIME } },
  SettingsUpdated: {
    plain: {
      supportEmail: { why: "the company's published support address, not a person's" },
      homepageUrl: CATALOGUE,
      'cannedReasons[].en': CATALOGUE,
      'cannedReasons[].hi': CATALOGUE,
      ...TAX_RULE_TEXTS('taxRules'),
      taxDeductorTan: CODE,
      taxDeductorName: { why: "the company's name as deductor, not a person's" },
      taxDeductorAddress: { why: "the company's registered address, not a person's" },
      updatedBy: ID,
      updatedAt: TIME,
      bankDebitAccount: { why: "the company's own payout account, not a person's" },
      bankPayerName: { why: "the company's name as its bank knows it" },
      bankPayerIfsc: { why: "the branch of the company's payout account" },
    },
  },
  SettingsChangeRequested: {
    plain: { requestId: ID, requestedBy: ID, requestedAt: TIME, ...TAX_RULE_TEXTS('changes.taxRules'), ...TAX_RULE_TEXTS('basis.taxRules') },
  },
  SettingsChangeApproved: { plain: { requestId: ID, approvedBy: ID, approvedAt: TIME } },
  SettingsChangeRejected: { plain: { requestId: ID, rejectedBy: ID, rejectedAt: TIME } },
  ReferenceReserved: { plain: { reference: BANK_REFERENCE, withdrawalId: ID, by: ID, reservedAt: TIME } },
  ReferenceReleased: { plain: { reference: BANK_REFERENCE, withdrawalId: ID, releasedAt: TIME } },
  IdempotencyKeyReserved: {
    plain: {
      caller: ID,
      requestHash: DIGEST,
      method: CODE,
      path: { why: 'a route path: ids only, no personal data goes in a URL (docs/privacy.md)' },
      reservedAt: TIME,
      token: DIGEST,
    },
  },
  IdempotentCommandCompleted: { plain: { token: DIGEST, error: REFUSAL, completedAt: TIME } },
  MemberMoneyCounted: { plain: { entryId: ID, countedAt: TIME } },
  /**
   * A whole HTTP answer, written by older code only: it may hold anyone's data (a staff member's answer
   * names the user acted on). Sealed under the caller's key, and migrate-privacy keeps only its facts
   * (`factsOfAnswer`): ids, amounts, times and codes.
   */
  IdempotentResponseRecorded: { subject: 'caller', personal: ['body'], plain: { recordedAt: TIME } },
  IdempotencyKeyReleased: { plain: { releasedAt: TIME } },
  PayoutBatchCreated: { plain: { batchId: ID, 'items[].withdrawalId': ID, 'items[].userId': ID, createdBy: ID, createdAt: TIME } },
  PayoutBatchItemDropped: { plain: { batchId: ID, withdrawalId: ID, droppedAt: TIME } },
  PayoutBatchApproved: { plain: { batchId: ID, approvedBy: ID, approvedAt: TIME } },
  PayoutBatchFileDownloaded: { plain: { batchId: ID, by: ID, downloadedAt: TIME } },
  PayoutResultsImported: { plain: { batchId: ID, by: ID, importedAt: TIME } },
  BankStatementReconciled: {
    plain: {
      runId: ID,
      by: ID,
      from: TIME,
      to: TIME,
      'missingFromStatement[].withdrawalId': ID,
      'missingFromStatement[].utr': BANK_REFERENCE,
      'missingFromStatement[].paidAt': TIME,
      'unmatchedDebits[].date': TIME,
      'unmatchedDebits[].utr': BANK_REFERENCE,
      reconciledAt: TIME,
    },
  },
  BankFundingRecorded: { plain: { fundingId: ID, reference: BANK_REFERENCE, valueDate: TIME, recordedBy: ID, recordedAt: TIME } },
  BankFundingApproved: { plain: { fundingId: ID, reference: BANK_REFERENCE, valueDate: TIME, approvedBy: ID, approvedAt: TIME } },
  BankFundingRejected: { plain: { fundingId: ID, rejectedBy: ID, rejectedAt: TIME } },
  BankFundingReversalRequested: {
    plain: {
      fundingId: ID,
      reason: { why: "a finance member's words about a company transfer, on a funding stream: no person's stream, no person's key" },
      requestedBy: ID,
      requestedAt: TIME,
    },
  },
  BankFundingReversed: {
    plain: {
      fundingId: ID,
      reference: BANK_REFERENCE,
      valueDate: TIME,
      reason: { why: "a finance member's words about a company transfer (as BankFundingReversalRequested)" },
      requestedBy: ID,
      approvedBy: ID,
      reversedAt: TIME,
    },
  },
  PersonalDataSealed: { plain: { sealedAt: TIME, 'migratedFrom.headHash': DIGEST } },
  WorkflowStarted: {
    plain: {
      workflowId: ID,
      batchId: ID,
      by: ID,
      'steps[].target': ID,
      'steps[].userId': ID,
      'steps[].utr': BANK_REFERENCE,
      'steps[].refusal': CODE,
      'steps[].valueDate': TIME,
      startedAt: TIME,
    },
  },
  WorkflowStepRecorded: { plain: { workflowId: ID, outcome: CODE, recordedAt: TIME } },
  WorkflowCompleted: { plain: { workflowId: ID, completedAt: TIME } },
  /** An admin's endpoint for a finance or BI tool: a business's URL, no person's; the secret is sealed under a system key. */
  WebhookEndpointRegistered: {
    plain: {
      endpointId: ID,
      url: { why: "a business tool's endpoint, registered by an admin; names no person" },
      sealedSecret: { why: 'already sealed (AES-256-GCM under a system key of the key store), never plain' },
      registeredBy: ID,
      registeredAt: TIME,
    },
  },
  WebhookEndpointDeleted: { plain: { endpointId: ID, deletedBy: ID, deletedAt: TIME } },
  WebhookReplayRequested: { plain: { endpointId: ID, requestedBy: ID, requestedAt: TIME } },
  ConsentGiven: { plain: { policyVersion: CODE, givenAt: TIME } },
  /** A browser's push endpoint and keys reach that device. */
  PushSubscribed: { subject: 'stream', personal: ['endpoint', 'p256dh', 'auth'], plain: { subscribedAt: TIME } },
  PushUnsubscribed: { subject: 'stream', personal: ['endpoint'], plain: { unsubscribedAt: TIME } },
  PushAlertsChosen: { plain: { 'alerts[]': CODE, chosenAt: TIME } },
  /** A change request's reason is free text about the person's work, sealed like a rejection's. */
  ProofChangesRequested: {
    subject: 'stream',
    freeText: ['reason'],
    plain: { submissionId: ID, taskId: ID, reviewedBy: ID, reasonCode: CODE, requestedAt: TIME, resubmitBy: TIME },
  },
  ProofResubmitted: {
    subject: 'stream',
    personal: ['proofImageUrl', 'proofDhash'],
    freeText: ['proofDescription'],
    plain: { submissionId: ID, taskId: ID, resubmittedAt: TIME },
  },
  /** The person's note is their own words; a new image is their picture. */
  AppealOpened: {
    subject: 'stream',
    personal: ['proofImageUrl'],
    freeText: ['note'],
    plain: { appealId: ID, submissionId: ID, taskId: ID, rejectedBy: ID, openedAt: TIME },
  },
  AppealDecided: {
    subject: 'stream',
    freeText: ['reason'],
    plain: { appealId: ID, submissionId: ID, decidedBy: ID, decidedAt: TIME },
  },
  LedgerPeriodCloseRequested: { plain: { month: TIME, requestedBy: ID, requestedAt: TIME } },
  LedgerPeriodClosed: { plain: { month: TIME, requestedBy: ID, closedBy: ID, closedAt: TIME } },
  /** An invite code is a random-looking handle for a person's id, as an id is. */
  InviteCodeIssued: { plain: { code: ID, userId: ID, issuedAt: TIME } },
  InvitationAccepted: { plain: { inviteeId: ID, inviterId: ID, code: ID, acceptedAt: TIME } },
  InvitationBonusAwarded: { plain: { inviteeId: ID, userId: ID, entryId: ID, awardedAt: TIME } },
  InvitationBonusRefused: { plain: { inviteeId: ID, refusedAt: TIME } },
  InvitationBonusCounted: { plain: { inviteeId: ID, inviterId: ID, countedAt: TIME } },
  /** Statement narrations are not kept (they may name people): only kinds, ids, amounts and bank references. */
  BankStatementMatched: {
    plain: {
      runId: ID,
      'matches[].target': { why: 'a withdrawal, batch or funding id' },
      'exceptions[].exceptionId': ID,
      'exceptions[].date': TIME,
      'exceptions[].reference': BANK_REFERENCE,
      matchedAt: TIME,
    },
  },
  /** A finance member's note on a bank line may name a payee: free text, sealed under its writer's key. */
  StatementExceptionMatchedByHand: { subject: 'caller', freeText: ['note'], plain: { exceptionId: ID, by: ID, matchedAt: TIME } },
  StatementWriteOffRequested: { subject: 'caller', freeText: ['note'], plain: { exceptionId: ID, by: ID, requestedAt: TIME } },
  StatementWrittenOff: { plain: { exceptionId: ID, requestedBy: ID, approvedBy: ID, writtenOffAt: TIME } },
  /** A challan's numbers are the bank's, not a person's. */
  TaxDepositRecorded: { plain: { depositId: ID, quarter: TIME, bsrCode: CODE, serial: CODE, depositDate: TIME, recordedBy: ID, recordedAt: TIME } },
  /** A fee line's facts: the line's day and amount, the payout or batch it sat beside; no narration. */
  BankFeeBooked: { plain: { runId: ID, date: TIME, effectiveDate: TIME, target: { why: 'a withdrawal or batch id' }, by: ID, bookedAt: TIME } },
  StatementDifferenceBooked: { plain: { exceptionId: ID, effectiveDate: TIME, corrects: ID, approvedBy: ID, bookedAt: TIME } },
  /** Amounts and finance members' ids: nothing about a person. */
  BalanceWarningRaised: { plain: { warningId: ID, 'notify[]': ID, raisedAt: TIME } },
  BalanceWarningCleared: { plain: { warningId: ID, clearedAt: TIME } },
  TaxPayeeClaimed: { plain: { userId: ID, documentId: ID, claimedAt: TIME } },
  TaxPayeeReleased: { plain: { userId: ID, 'years[].fy': TIME, 'years[].credited[].kind': CODE, 'years[].withheld[].code': CODE, releasedAt: TIME } },
};

/**
 * Every metadata entry an event may carry, classified as its payload's fields are. None is personal:
 * a personal value never goes in metadata except sealed (`personal`).
 */
export const EVENT_METADATA_FIELDS: Readonly<Record<string, PlainWhy>> = {
  actor: { why: 'who caused it: a user or staff id, or a system name' },
  causationId: ID,
  schemaVersion: { why: 'a number' },
  commandKey: DIGEST,
  commandStep: { why: 'a number' },
  personal: { why: 'the sealed blob itself: subject id, paths, nonce, ciphertext' },
  'kamai.chain': DIGEST,
  $kamaiChain: DIGEST,
};

/** What a personal field reads as once its subject's key is erased. */
export const ERASED = '[erased]';
/** The same for fields that must look like a SHA-256 hex digest. */
export const ERASED_SHA256 = '0'.repeat(64);

export function isErased(value: unknown): boolean {
  return value === ERASED || value === ERASED_SHA256;
}

/** What a personal field (a path of PERSONAL_FIELDS) reads as once its subject is erased. */
export function erasedValue(path: string): string {
  return path.endsWith('Sha256') ? ERASED_SHA256 : ERASED;
}

/**
 * What a personal field reads as when its sealed blob does not open although its subject's key is
 * there (the stored bytes were changed): not ERASED, so an attacker's edit never passes for a lawful
 * erasure. Readers keep working on it as on an erased field (docs/privacy.md).
 */
export const UNREADABLE = '[unreadable]';
/** The same for fields that must look like a SHA-256 hex digest (all `f`, where erased is all `0`). */
export const UNREADABLE_SHA256 = 'f'.repeat(64);

export function isUnreadable(value: unknown): boolean {
  return value === UNREADABLE || value === UNREADABLE_SHA256;
}

/** What a personal field reads as when its sealed blob does not open. */
export function unreadableValue(path: string): string {
  return path.endsWith('Sha256') ? UNREADABLE_SHA256 : UNREADABLE;
}

/**
 * What a sealed field reads as in a rebuild none of whose read models reads it (Projection.opens):
 * its blob is left shut, as opening costs an AES-GCM decryption per event. Neither the person's value
 * nor an erasure; no read model stores it (projectionSpec checks each model's declaration).
 */
export const NOT_OPENED = '[not opened]';
/** The same for fields that must look like a SHA-256 hex digest. */
export const NOT_OPENED_SHA256 = 'e'.repeat(64);

/** What a sealed field reads as when its blob is left shut. */
export function notOpenedValue(path: string): string {
  return path.endsWith('Sha256') ? NOT_OPENED_SHA256 : NOT_OPENED;
}

type JsonObject = { [key: string]: JsonValue };
const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each personal field's path, split once: every append of a sealed event walks them. */
const splitPaths = new Map<string, readonly string[]>();
function partsOf(path: string): readonly string[] {
  let parts = splitPaths.get(path);
  if (!parts) splitPaths.set(path, (parts = path.split('.')));
  return parts;
}

/** The value at a personal field's path (dotted for a nested field, as PERSONAL_FIELDS lists them), or undefined where there is none. */
export function valueAtPath(data: JsonValue, path: string): JsonValue | undefined {
  let node: JsonValue | undefined = data;
  for (const part of partsOf(path)) {
    if (!isJsonObject(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/** A copy of `data` with the path set to `value` (or removed when undefined), sharing untouched branches; a missing branch stays missing. */
export function withValueAtPath(data: JsonObject, path: string, value: JsonValue | undefined): JsonObject {
  return withPartsAt(data, partsOf(path), 0, value);
}

function withPartsAt(data: JsonObject, parts: readonly string[], at: number, value: JsonValue | undefined): JsonObject {
  const head = parts[at]!;
  const copy: JsonObject = { ...data };
  if (at === parts.length - 1) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const child = copy[head];
  if (!isJsonObject(child)) return copy;
  copy[head] = withPartsAt(child, parts, at + 1, value);
  return copy;
}

/** Erased or unreadable: a placeholder standing where the person's value was, never a value of theirs. */
export function isPlaceholder(value: unknown): boolean {
  return isErased(value) || isUnreadable(value);
}

/** The sealed fields of each event type, as EVENT_FIELDS classifies them: what sealing and the erasure scrub read. */
export const PERSONAL_FIELDS: { readonly [T in KamaiEventType]?: PersonalFields } = Object.fromEntries(
  Object.entries(EVENT_FIELDS).flatMap(([type, classes]: [string, EventFieldClasses]) => {
    const paths = [...(classes.personal ?? []), ...(classes.freeText ?? [])];
    if (paths.length === 0) return [];
    if (!classes.subject) throw new Error(`EVENT_FIELDS.${type}: sealed fields need a subject`);
    return [[type, { subject: classes.subject, paths }]];
  }),
);

/** The reason code of a reason written by hand (or of a kind with no canned reasons). */
export const REASON_OTHER = 'other';

/**
 * The plain code kept beside a sealed reason, for statistics: the canned reason it is (its English
 * text as a slug, e.g. `the-screenshot-is-blurry-or-cut-off`), or REASON_OTHER. The canned texts are
 * the settings', written by staff for everyone, so the code names no one.
 */
export function reasonCodeOf(reason: string, canned: readonly { en: string; hi: string }[]): string {
  const text = reason.trim();
  const match = canned.find((c) => c.en.trim() === text || c.hi.trim() === text);
  if (!match) return REASON_OTHER;
  const slug = match.en.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
  return slug === '' ? REASON_OTHER : slug;
}
