import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AttemptStore } from './attempts.ts';

const WINDOW_MS = 15 * 60_000;
const HOUR_MS = 60 * 60_000;

export interface LoginGuardOptions {
  /** Failures per mobile number from clients it does not recognise, per window. */
  perMobile: number;
  /** Failures per client address (many people share a carrier address), per window. */
  perClient: number;
  /** Failures per recognised device (its device cookie), per window. */
  perDevice: number;
  /** Registrations per client address per hour. */
  registrationsPerHour: number;
}

export const DEFAULT_LOGIN_GUARD: LoginGuardOptions = { perMobile: 10, perClient: 100, perDevice: 10, registrationsPerHour: 20 };

/**
 * The sign-in guard, after OWASP's device cookies: a client that once signed in to this mobile number
 * successfully holds a signed device cookie and has its own allowance, so someone guessing the
 * number's password from elsewhere (refused after ten failures per window) cannot lock its owner
 * out. Unknown clients are limited per mobile number and per address. Counts live in the shared
 * AttemptStore: every process on the data directory sees the same counts, across restarts.
 */
export class LoginGuard {
  constructor(
    private readonly store: AttemptStore,
    private readonly secret: Uint8Array,
    private readonly options: LoginGuardOptions = DEFAULT_LOGIN_GUARD,
  ) {}

  /**
   * Counts this attempt before the password is checked (a burst sent at once then sees itself) and
   * answers how long to wait when it is over a limit, else 0. `device` is the device cookie's id when
   * the client holds a valid one for this mobile.
   */
  attempt(mobile: string, client: string, device: string | null, now = Date.now()): number {
    const checks: Array<[string, number]> = device
      ? [[`device:${device}`, this.options.perDevice]]
      : [
          [`mobile:${mobile}`, this.options.perMobile],
          [`client:${client}`, this.options.perClient],
        ];
    let wait = 0;
    for (const [key, limit] of checks) {
      const count = this.store.count(key, WINDOW_MS, now);
      if (count > limit) wait = Math.max(wait, (this.store.get(key, now)?.resetAt ?? now + WINDOW_MS) - now);
    }
    return wait;
  }

  /** The password was right: clear what this client counted against the number, take back its address's count. */
  succeed(mobile: string, client: string, device: string | null): void {
    if (device) {
      this.store.reset(`device:${device}`);
      return;
    }
    this.store.reset(`mobile:${mobile}`);
    this.store.takeBack(`client:${client}`);
  }

  /**
   * Counts a check of the current password made in a signed-in session (a password change), and
   * answers how long to wait when that session is over its limit (perDevice per window), else 0.
   * Counted per session only: strangers' failed sign-ins to the number never hold the holder off,
   * and a session cannot be had without the password, so its allowance is the holder's own.
   */
  attemptInSession(sessionId: string, now = Date.now()): number {
    const key = `session:${sessionId}`;
    if (this.store.count(key, WINDOW_MS, now) <= this.options.perDevice) return 0;
    return (this.store.get(key, now)?.resetAt ?? now + WINDOW_MS) - now;
  }

  /** The current password was right: the session's count starts again. */
  succeedInSession(sessionId: string): void {
    this.store.reset(`session:${sessionId}`);
  }

  /** Counts a registration from this address; answers how long to wait when over the hourly limit. */
  register(client: string, now = Date.now()): number {
    const key = `register:${client}`;
    if (this.store.count(key, HOUR_MS, now) <= this.options.registrationsPerHour) return 0;
    return (this.store.get(key, now)?.resetAt ?? now + HOUR_MS) - now;
  }

  /** A device cookie for this mobile number: a random id and its HMAC, bound to the number. */
  issueDevice(mobile: string): string {
    const id = randomBytes(16).toString('base64url');
    return `${id}.${this.sign(mobile, id)}`;
  }

  /** The device id when `cookie` is a device cookie this server issued for `mobile`, else null. */
  recognise(mobile: string, cookie: string | undefined): string | null {
    const [id, signature, ...rest] = (cookie ?? '').split('.');
    if (!id || !signature || rest.length > 0 || !/^[A-Za-z0-9_-]{22}$/.test(id)) return null;
    const expected = Buffer.from(this.sign(mobile, id));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
  }

  private sign(mobile: string, id: string): string {
    return createHmac('sha256', this.secret).update(`device:${mobile}:${id}`).digest('base64url');
  }
}
