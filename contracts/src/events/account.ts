import * as v from 'valibot';
import { Role } from '../auth.ts';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());

/** Events of the account part of a `user-<id>` stream. */
export const accountEvents = {
  UserRegistered: v.object({
    userId: v.string(),
    mobile: v.string(),
    passwordHash: v.string(),
    firstName: v.string(),
    lastName: v.string(),
    registeredAt: IsoTime,
    /** The privacy policy version the person agreed to (and confirmed being 18 or older); absent before consent was asked. */
    consentPolicyVersion: v.optional(v.string()),
  }),
  /** Only the fields that changed are present; `email: null` clears the e-mail. */
  ProfileUpdated: v.object({
    firstName: v.optional(v.string()),
    lastName: v.optional(v.string()),
    email: v.optional(v.nullable(v.string())),
    notificationsEnabled: v.optional(v.boolean()),
    /** 'en' | 'hi'; kept a plain string so a language added later still reads. */
    language: v.optional(v.string()),
    updatedAt: IsoTime,
  }),
  RoleGranted: v.object({ role: Role, grantedBy: v.string(), grantedAt: IsoTime }),
  RoleRevoked: v.object({ role: Role, revokedBy: v.string(), revokedAt: IsoTime }),
  /**
   * An admin suspended the account: it may sign in and see its wallet, but not submit proof, start
   * a task or withdraw. The reason is a staff member's words about the account, not the person's data.
   */
  AccountSuspended: v.object({ reason: v.string(), suspendedBy: v.string(), suspendedAt: IsoTime }),
  AccountUnsuspended: v.object({ unsuspendedBy: v.string(), unsuspendedAt: IsoTime }),
  /**
   * A person registered before consent was asked agreed later (at a sign-in): the privacy policy
   * version, as UserRegistered's consentPolicyVersion. Not personal: a version and a time.
   */
  ConsentGiven: v.object({ policyVersion: v.string(), givenAt: IsoTime }),
};

/** A user's password changed (on their stream); the API ends their other sessions with it. */
export const credentialEvents = {
  PasswordChanged: v.object({ passwordHash: v.string(), changedAt: IsoTime }),
};

/**
 * `password-reset-<userId>`: the codes sent by SMS to reset a forgotten password. The code itself is
 * never stored: `codeHash` is an HMAC of it under the server's secret.
 */
export const passwordResetEvents = {
  PasswordResetCodeIssued: v.object({ userId: v.string(), codeHash: v.string(), issuedAt: IsoTime, expiresAt: IsoTime }),
  /** The code was used: it sets a password once, never again. */
  PasswordResetCodeUsed: v.object({ userId: v.string(), usedAt: IsoTime }),
};

/** Why a session ended: the user signed out here, elsewhere, everywhere, changed or reset the password, or was erased. */
export const SESSION_END_REASONS = ['logout', 'revoked', 'logout_all', 'password_changed', 'password_reset', 'erased', 'suspended'] as const;

/**
 * `mobile-<keyed hash of the number>`: appended once with "no stream" expected, so a mobile registers once.
 * `reservationId` names one holding of the number (random; '' in events from before it): the number and
 * the holder's id are sealed under that reservation's own key, which erasure deletes, so the stream a
 * later holder of the number appends to names no earlier holder (docs/privacy.md).
 */
export const mobileEvents = {
  MobileReserved: v.object({ mobile: v.string(), userId: v.string(), reservedAt: IsoTime, reservationId: v.string() }),
  /** Its holder was erased: the number may register again. */
  MobileReleased: v.object({ userId: v.string(), releasedAt: IsoTime, reservationId: v.string() }),
};

/** `session-<id>`: a signed-in session; the id is the SHA-256 of the cookie's token, never the token. */
export const sessionEvents = {
  SessionStarted: v.object({
    sessionId: v.string(),
    userId: v.string(),
    startedAt: IsoTime,
    expiresAt: IsoTime,
    /** The browser's User-Agent (cut short), for the user's list of signed-in devices. */
    device: v.optional(v.string()),
  }),
  /** The session was used; recorded at most every few minutes, for the idle timeout and "last seen". */
  SessionSeen: v.object({ sessionId: v.string(), seenAt: IsoTime }),
  SessionEnded: v.object({
    sessionId: v.string(),
    endedAt: IsoTime,
    reason: v.optional(v.picklist(SESSION_END_REASONS)),
  }),
};
