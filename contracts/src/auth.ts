import * as v from 'valibot';
import { Consent } from './privacy.ts';
import { InviteCodeInput } from './invitations.ts';
import { noControlCharacters } from './text.ts';
import { refusal } from './refusal.ts';
import { Language } from './language.ts';
import type { ErrorCode } from './errors.ts';

/** The rules and messages shared by the forms and the API. */
export const MESSAGES = {
  mobile: 'Mobile number must be 10 digits',
  password: 'Password must be at least 6 characters',
  firstName: 'First name must be at least 2 characters',
  lastName: 'Last name must be at least 2 characters',
  email: 'Invalid email address',
} as const;

/**
 * A mobile number as people type or autofill it, made the 10 digits we store: "+91 90000-00001",
 * "09000000001" and "90000 00001" all become "9000000001". Spaces, dashes, dots and brackets are
 * dropped, then one leading country code (+91 / 91 with 12 digits) or trunk 0 (11 digits). Anything
 * else is returned digits-only or as typed, and the 10-digit check decides.
 */
export function normalizeMobile(input: string): string {
  const compact = input.trim().replace(/[\s\-.()]/g, '');
  if (!/^\+?\d*$/.test(compact)) return compact;
  const digits = compact.replace(/^\+/, '');
  if (compact.startsWith('+')) return digits.startsWith('91') ? digits.slice(2) : compact;
  if (digits.length === 12 && digits.startsWith('91')) return digits.slice(2);
  if (digits.length === 11 && digits.startsWith('0')) return digits.slice(1);
  return digits;
}

export const Mobile = v.pipe(v.string(refusal('auth.mobile')), v.transform(normalizeMobile), v.regex(/^\d{10}$/, refusal('auth.mobile')));
export const Password = v.pipe(v.string(refusal('auth.password')), v.minLength(6, refusal('auth.password')), v.maxLength(256, refusal('api.passwordTooLong')));
export const FirstName = v.pipe(v.string(refusal('auth.firstName')), v.trim(), v.minLength(2, refusal('auth.firstName')), v.maxLength(60, refusal('api.firstNameTooLong')), noControlCharacters());
export const LastName = v.pipe(v.string(refusal('auth.lastName')), v.trim(), v.minLength(2, refusal('auth.lastName')), v.maxLength(60, refusal('api.lastNameTooLong')), noControlCharacters());

export const LoginRequest = v.object({ mobile: Mobile, password: Password });
export type LoginRequest = v.InferOutput<typeof LoginRequest>;

export const RegisterRequest = v.object({
  mobile: Mobile,
  password: Password,
  firstName: FirstName,
  lastName: LastName,
  /** "I am 18 or older and agree to the Privacy Policy": required, recorded with the policy's version. */
  consent: Consent,
  /** The code of the invite link the person came by (docs/invitations.md); an unknown one is a field error. */
  inviteCode: v.optional(InviteCodeInput),
});
export type RegisterRequest = v.InferOutput<typeof RegisterRequest>;

export const ROLES = ['admin', 'reviewer', 'finance'] as const;
export const Role = v.picklist(ROLES);
export type Role = v.InferOutput<typeof Role>;
/** Roles that may read any user's uploaded images. */
export const STAFF_ROLES: readonly Role[] = ROLES;

/** users.kycStatus: pending until both KYC documents are approved, then verified, then bonus_claimed. */
export const KycStatus = v.picklist(['pending', 'verified', 'bonus_claimed']);
export type KycStatus = v.InferOutput<typeof KycStatus>;

/** GET /api/auth/user, and the answer of login, register and PUT /api/profile. */
export const UserBody = v.object({
  id: v.string(),
  username: v.string(),
  mobile: v.string(),
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  email: v.nullable(v.string()),
  profileImageUrl: v.nullable(v.string()),
  /** The wallet balance: decimal string with two places, e.g. "125.00". */
  totalRupees: v.string(),
  /** Withdrawals requested and not yet paid (no longer available, not yet in the bank), same format. */
  pendingPayout: v.string(),
  /** Everything earned so far (task rewards, KYC bonus), same format. */
  totalEarned: v.string(),
  notificationsEnabled: v.boolean(),
  /** The language the person reads the app in, chosen on a device and stored on the account. */
  language: v.optional(Language),
  isAdmin: v.boolean(),
  roles: v.array(Role),
  kycStatus: KycStatus,
  createdAt: v.string(),
  updatedAt: v.string(),
  /** No consent record (registered before consent was asked): the web asks at once; earning, KYC and withdrawing answer 403 `consent_required`. */
  consentRequired: v.boolean(),
});
export type UserBody = v.InferOutput<typeof UserBody>;

/** PUT /api/auth/password: signs out every other session of the user. */
export const ChangePasswordRequest = v.object({
  currentPassword: v.pipe(v.string(refusal('api.currentPasswordMissing')), v.minLength(1, refusal('api.currentPasswordMissing')), v.maxLength(256)),
  newPassword: Password,
});
export type ChangePasswordRequest = v.InferOutput<typeof ChangePasswordRequest>;
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

/** A password-reset code: 6 digits, sent by SMS, valid for 10 minutes, used once. */
export const PASSWORD_RESET_CODE_LENGTH = 6;
export const PASSWORD_RESET_CODE_TTL_MS = 10 * 60_000;
/** Codes sent per mobile number, and reset requests per client address, per hour. */
export const PASSWORD_RESET_SENDS_PER_HOUR = { perMobile: 3, perClient: 20 } as const;
/** Wrong codes tried per mobile number, and per client address, per 15 minutes. */
export const PASSWORD_RESET_GUESSES = { perMobile: 5, perClient: 50 } as const;
/** The password reset's refusals; `{minutes}` is the wait before the next try. */
export const PASSWORD_RESET_MESSAGES = {
  codeRequired: 'Enter the 6-digit code',
  codeInvalid: 'This code is wrong or has expired. Ask for a new one.',
  tooManyCodes: 'Too many codes asked for. Please try again in {minutes} minutes.',
  tooManyWrongCodes: 'Too many wrong codes. Please try again in {minutes} minutes.',
} as const;

/** POST /api/auth/password-reset: always answered 202, whether or not the number has an account. */
export const PasswordResetRequest = v.object({ mobile: Mobile });
export type PasswordResetRequest = v.InferOutput<typeof PasswordResetRequest>;

/** POST /api/auth/password-reset/confirm: sets the password and ends every session of the user. */
export const PasswordResetConfirmRequest = v.object({
  mobile: Mobile,
  code: v.pipe(v.string(refusal('passwordReset.codeRequired')), v.trim(), v.regex(/^\d{6}$/, refusal('passwordReset.codeRequired'))),
  newPassword: Password,
});
export type PasswordResetConfirmRequest = v.InferOutput<typeof PasswordResetConfirmRequest>;

/** GET /api/auth/sessions: where the user is signed in. */
export const SessionBody = v.object({
  id: v.string(),
  /** A short description of the browser and system, e.g. "Chrome on Android". */
  device: v.string(),
  startedAt: v.string(),
  lastSeenAt: v.string(),
  /** The session this request came with. */
  current: v.boolean(),
});
export type SessionBody = v.InferOutput<typeof SessionBody>;

/** The label of a device whose User-Agent says nothing useful. */
export const UNKNOWN_DEVICE = 'Unknown device';
const DEVICE_SYSTEMS = ['Android', 'iOS', 'Windows', 'macOS', 'Linux'];

/**
 * The browser and system a label of `deviceLabel` names (either null), so a reader sees the label
 * in their own language; the names themselves are brands and stay as they are.
 */
export function deviceLabelParts(label: string): { browser: string | null; system: string | null } {
  if (label === UNKNOWN_DEVICE) return { browser: null, system: null };
  const [browser = label, system] = label.split(' on ');
  if (system !== undefined) return { browser, system };
  return DEVICE_SYSTEMS.includes(label) ? { browser: null, system: label } : { browser: label, system: null };
}

/** "Chrome on Android" from a User-Agent; "Unknown device" when it says nothing useful. */
export function deviceLabel(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /SamsungBrowser\//.test(ua)
      ? 'Samsung Internet'
      : /(Chrome|Chromium|CriOS)\//.test(ua)
        ? 'Chrome'
        : /(Firefox|FxiOS)\//.test(ua)
          ? 'Firefox'
          : /Safari\//.test(ua)
            ? 'Safari'
            : null;
  const system = /Android/.test(ua)
    ? 'Android'
    : /(iPhone|iPad|iPod)/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? UNKNOWN_DEVICE;
}

/**
 * The refusals of the form sign-in (POST /api/auth/login/form) that send the reader back to
 * `/login?error=<code>`, where the form says them in the catalogue's words (docs/first-screen.md).
 */
export const LOGIN_FORM_ERRORS = ['invalid_credentials', 'too_many_attempts', 'validation_failed'] as const satisfies readonly ErrorCode[];
export type LoginFormError = (typeof LOGIN_FORM_ERRORS)[number];
