import * as v from 'valibot';
import type { EventSchemas, EventsOf } from './define.ts';
import { allEvents } from './all.ts';

/**
 * Event evolution. Every event type has a schema version; each appended event records it in its
 * metadata under SCHEMA_VERSION_KEY. Stored events are read through `decode`: the upcasters of its
 * type lift the payload from the version it was written at to the current one, step by step
 * (1 -> 2 -> 3 ...), and the result is validated against the current contract. Before an append,
 * `encode` validates the payload, so an event that breaks its contract is refused and never stored.
 *
 * To change an event's shape: bump its version in EVENT_SCHEMA_VERSIONS, change its schema, and add
 * the upcaster from the previous version. Deciders and projections then only ever see the current
 * shape.
 */
export const SCHEMA_VERSION_KEY = 'schemaVersion';

type Payload = Record<string, unknown>;
/** Lifts one payload from version n to version n + 1. Pure; must accept every payload stored at n. */
export type Upcaster = (data: Payload) => Payload;

/** An event that breaks its contract (or cannot be lifted to it): a bug, never a user's mistake. */
export class EventContractError extends Error {
  override readonly name = 'EventContractError';
  constructor(
    readonly eventType: string,
    message: string,
  ) {
    super(`event ${eventType}: ${message}`);
  }
}

export interface EventCodec<S extends EventSchemas> {
  versions: { readonly [T in keyof S]: number };
  /** A stored event as its current shape; null for a type this code does not know (a newer writer's). */
  decode(stored: { type: string; data: unknown; metadata?: Readonly<Record<string, unknown>> | undefined }): EventsOf<S> | null;
  /** Validates an event before it is appended and says which schema version to record with it. */
  encode<E extends { type: string; data: unknown }>(event: E): { type: E['type']; data: E['data']; schemaVersion: number };
}

export function createEventCodec<S extends EventSchemas>(
  schemas: S,
  versions: { readonly [T in keyof S]: number },
  upcasters: { readonly [T in keyof S]?: Readonly<Record<number, Upcaster>> },
): EventCodec<S> {
  const known = (type: string): type is keyof S & string => Object.hasOwn(schemas, type);
  // Both maps list every known type (the types say so); the casts only undo noUncheckedIndexedAccess.
  const versionOf = (type: keyof S & string) => versions[type] as number;
  const parse = (type: keyof S & string, data: unknown) => {
    const result = v.safeParse(schemas[type] as v.GenericSchema, data);
    if (!result.success) {
      const issues = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(payload)'}: ${issue.message}`).join('; ');
      throw new EventContractError(type, `breaks its contract: ${issues}`);
    }
    return result.output;
  };
  return {
    versions,
    decode(stored) {
      const { type } = stored;
      if (!known(type)) return null;
      const current = versionOf(type);
      const recorded = stored.metadata?.[SCHEMA_VERSION_KEY];
      // Events appended before versions were recorded are version 1.
      const from = recorded === undefined ? 1 : recorded;
      if (typeof from !== 'number' || !Number.isInteger(from) || from < 1) {
        throw new EventContractError(type, `unreadable schema version ${JSON.stringify(from)}`);
      }
      if (from > current) throw new EventContractError(type, `written at schema version ${from}, this code reads up to ${current}`);
      let data = stored.data;
      for (let version = from; version < current; version++) {
        const lift = upcasters[type]?.[version];
        if (!lift) throw new EventContractError(type, `no upcaster from schema version ${version}`);
        if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new EventContractError(type, 'payload is not an object');
        data = lift(data as Payload);
      }
      return { type, data: parse(type, data) } as EventsOf<S>;
    },
    encode(event) {
      if (!known(event.type)) throw new EventContractError(event.type, 'unknown event type');
      const type: keyof S & string = event.type;
      parse(type, event.data);
      return { type: event.type, data: event.data, schemaVersion: versionOf(type) };
    },
  };
}

type KamaiSchemas = typeof allEvents;

/**
 * The current schema version of every event type. Version 2 of the notification and ledger events
 * is the one whose texts are message keys and parameters (NOTIFICATION_TEXTS, LEDGER_TEXTS).
 */
export const EVENT_SCHEMA_VERSIONS: { readonly [T in keyof KamaiSchemas]: number } = {
  UserRegistered: 1,
  ProfileUpdated: 1,
  RoleGranted: 1,
  RoleRevoked: 1,
  AccountSuspended: 1,
  AccountUnsuspended: 1,
  PasswordChanged: 1,
  PasswordResetCodeIssued: 1,
  PasswordResetCodeUsed: 1,
  AdjustmentRequested: 1,
  AdjustmentApproved: 1,
  AdjustmentRejected: 1,
  WalletCredited: 2,
  WalletDebited: 2,
  NotificationSent: 2,
  NotificationRead: 1,
  AllNotificationsRead: 1,
  NotificationDeleted: 1,
  TaskStarted: 1,
  ProofSubmitted: 1,
  ProofApproved: 1,
  ProofRejected: 1,
  WithdrawalRequested: 1,
  WithdrawalPaid: 1,
  WithdrawalRejected: 1,
  WithdrawalProcessing: 1,
  WithdrawalFailed: 1,
  WithdrawalReversed: 1,
  KycDocumentSubmitted: 1,
  KycDocumentApproved: 1,
  KycDocumentRejected: 1,
  KycBonusClaimed: 1,
  MobileReserved: 2,
  MobileReleased: 2,
  DeletionRequested: 1,
  DeletionCancelled: 1,
  UserErased: 1,
  SessionStarted: 1,
  SessionEnded: 1,
  SessionSeen: 1,
  TaskCreated: 1,
  TaskUpdated: 1,
  TaskDeleted: 1,
  TaskSlotTaken: 1,
  TaskSlotReleased: 1,
  SettingsUpdated: 1,
  SettingsChangeRequested: 1,
  SettingsChangeApproved: 1,
  SettingsChangeRejected: 1,
  ReferenceReserved: 1,
  ReferenceReleased: 1,
  IdempotencyKeyReserved: 2,
  IdempotentCommandCompleted: 1,
  MemberMoneyCounted: 1,
  IdempotentResponseRecorded: 1,
  IdempotencyKeyReleased: 1,
  PayoutBatchCreated: 1,
  PayoutBatchItemDropped: 1,
  PayoutBatchApproved: 1,
  PayoutBatchFileDownloaded: 1,
  PayoutResultsImported: 1,
  BankStatementReconciled: 1,
  BankFundingRecorded: 1,
  BankFundingApproved: 1,
  BankFundingRejected: 1,
  BankFundingReversalRequested: 1,
  BankFundingReversed: 1,
  PersonalDataSealed: 1,
  WorkflowStarted: 1,
  WorkflowStepRecorded: 1,
  WorkflowCompleted: 1,
  WebhookEndpointRegistered: 1,
  WebhookEndpointDeleted: 1,
  WebhookReplayRequested: 1,
  ConsentGiven: 1,
  PushSubscribed: 1,
  PushUnsubscribed: 1,
  PushAlertsChosen: 1,
  ProofChangesRequested: 1,
  ProofResubmitted: 1,
  AppealOpened: 1,
  AppealDecided: 1,
  LedgerPeriodCloseRequested: 1,
  LedgerPeriodClosed: 1,
  InviteCodeIssued: 1,
  InvitationAccepted: 1,
  InvitationBonusAwarded: 1,
  InvitationBonusRefused: 1,
  InvitationBonusCounted: 1,
  BankStatementMatched: 1,
  StatementExceptionMatchedByHand: 1,
  StatementWriteOffRequested: 1,
  StatementWrittenOff: 1,
  TaxDepositRecorded: 1,
  BankFeeBooked: 1,
  StatementDifferenceBooked: 1,
  BalanceWarningRaised: 1,
  BalanceWarningCleared: 1,
  TaxPayeeClaimed: 1,
  TaxPayeeReleased: 1,
};

/**
 * Version 1 texts were English sentences: `title` and `message` on a notification, `description` on
 * a ledger entry. Version 2 says it with a key and parameters, and keeps the sentence of an older
 * event as its literal text: `key` absent means "show title/message (or description) as written".
 * Version-1 payloads written after keys came in (before versions were recorded) already carry the
 * key; they pass unchanged.
 */
const literalNotification: Upcaster = (data) => {
  if (data.key !== undefined) return data;
  // Already literal (two strings, neither a key nor parameters named): as it is, not copied. The
  // contract check after the upcast makes the object decode returns; a rebuild decodes every one.
  if (!Object.hasOwn(data, 'key') && !Object.hasOwn(data, 'params') && typeof data.title === 'string' && typeof data.message === 'string') return data;
  const { key: _none, params: _noParams, ...literal } = data;
  return { ...literal, title: String(data.title ?? ''), message: String(data.message ?? '') };
};
const literalDescription: Upcaster = (data) => {
  if (data.params !== undefined || data.description === undefined || typeof data.description === 'string') return data;
  return { ...data, description: String(data.description) };
};

export const EVENT_UPCASTERS: { readonly [T in keyof KamaiSchemas]?: Readonly<Record<number, Upcaster>> } = {
  NotificationSent: { 1: literalNotification },
  WalletCredited: { 1: literalDescription },
  WalletDebited: { 1: literalDescription },
  // Reservations from before tokens: no event carries an empty token, so a retry runs afresh.
  IdempotencyKeyReserved: { 1: (data) => ({ ...data, token: '' }) },
  // Reservations from before each had its own key: no reservation id (their holder's id is plain).
  MobileReserved: { 1: (data) => ({ ...data, reservationId: '' }) },
  MobileReleased: { 1: (data) => ({ ...data, reservationId: '' }) },
};

/** The codec of every event the system writes. */
export const eventCodec = createEventCodec(allEvents, EVENT_SCHEMA_VERSIONS, EVENT_UPCASTERS);
