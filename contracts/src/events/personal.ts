import type { KamaiEventType } from './all.ts';

/**
 * Personal data in events. The log is kept forever and hash-chained, so a person can be forgotten
 * only if what identifies them never sits in it in plain text: every field listed here is stored
 * encrypted with its data subject's key (crypto-shredding), and erasing the person deletes that key.
 * Deciders and projections see the plain values (or, once the key is gone, ERASED) through the codec.
 *
 * Ask of every new event field "could this identify a person?" and list it here when the answer is
 * yes (names, mobile numbers, e-mail, password hashes, bank and UPI details, image keys, free text a
 * user wrote, device or address data). Paths are dot-separated (`destination.upiId`); a path whose
 * value is absent in an event is simply skipped.
 */
export interface PersonalFields {
  /** Whose data it is: the user id of a `user-<id>` stream (`stream`), or a field of the payload. */
  subject: 'stream' | 'userId' | 'caller';
  paths: readonly string[];
}

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

/** Erased or unreadable: a placeholder standing where the person's value was, never a value of theirs. */
export function isPlaceholder(value: unknown): boolean {
  return isErased(value) || isUnreadable(value);
}

export const PERSONAL_FIELDS: { readonly [T in KamaiEventType]?: PersonalFields } = {
  UserRegistered: { subject: 'stream', paths: ['mobile', 'passwordHash', 'firstName', 'lastName'] },
  ProfileUpdated: { subject: 'stream', paths: ['firstName', 'lastName', 'email'] },
  PasswordChanged: { subject: 'stream', paths: ['passwordHash'] },
  /** A secret of the person's, like the password hash. */
  PasswordResetCodeIssued: { subject: 'userId', paths: ['codeHash'] },
  WithdrawalRequested: { subject: 'stream', paths: ['destination.accountNumber', 'destination.holderName', 'destination.upiId'] },
  /** A withdrawal's hold names its (masked) destination. */
  WalletDebited: { subject: 'stream', paths: ['params.destination'] },
  /** Reasons are free text written about the person (a suspension's, a rejection's). */
  NotificationSent: { subject: 'stream', paths: ['params.destination', 'params.reason'] },
  AccountSuspended: { subject: 'stream', paths: ['reason'] },
  /** The picture's hash is derived from the person's picture: forgotten with it. */
  ProofSubmitted: { subject: 'stream', paths: ['proofImageUrl', 'proofDescription', 'proofDhash'] },
  KycDocumentSubmitted: { subject: 'stream', paths: ['frontImageUrl', 'backImageUrl', 'frontImageSha256', 'backImageSha256', 'panNumber'] },
  MobileReserved: { subject: 'userId', paths: ['mobile'] },
  SessionStarted: { subject: 'userId', paths: ['device'] },
  /** A browser's push endpoint and keys reach that device. */
  PushSubscribed: { subject: 'stream', paths: ['endpoint', 'p256dh', 'auth'] },
  PushUnsubscribed: { subject: 'stream', paths: ['endpoint'] },
};
