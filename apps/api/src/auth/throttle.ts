/**
 * Failed sign-ins counted per key (a mobile number, a client address) in a fixed window, so
 * passwords cannot be guessed at speed. Kept in memory: each API process counts its own, which
 * still bounds a guesser to a few tries per window per process.
 */
export interface ThrottleOptions {
  /** Failures allowed in one window before the key is refused. */
  limit: number;
  windowMs: number;
  now?: () => number;
}

export class FailureThrottle {
  private readonly windows = new Map<string, { failures: number; resetAt: number }>();
  private readonly now: () => number;

  constructor(private readonly options: ThrottleOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds until `key` may try again, or 0 when it may try now. */
  retryAfter(key: string): number {
    const window = this.windows.get(key);
    if (!window) return 0;
    const now = this.now();
    if (now >= window.resetAt) {
      this.windows.delete(key);
      return 0;
    }
    return window.failures >= this.options.limit ? window.resetAt - now : 0;
  }

  fail(key: string): void {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || now >= window.resetAt) this.windows.set(key, { failures: 1, resetAt: now + this.options.windowMs });
    else window.failures += 1;
    if (this.windows.size > 100_000) this.sweep(now);
  }

  succeed(key: string): void {
    this.windows.delete(key);
  }

  /** Takes back one failure counted ahead of an attempt that then succeeded. */
  forgive(key: string): void {
    const window = this.windows.get(key);
    if (window && window.failures > 0) window.failures -= 1;
  }

  /** Drops finished windows, so a flood of distinct keys cannot grow the map without bound. */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now >= window.resetAt) this.windows.delete(key);
  }
}

/**
 * The sign-in guard: ten failures per mobile number, or a hundred per client address (many people
 * share one carrier address), in fifteen minutes.
 */
export class LoginGuard {
  private readonly byMobile: FailureThrottle;
  private readonly byClient: FailureThrottle;

  constructor(now?: () => number) {
    const windowMs = 15 * 60_000;
    this.byMobile = new FailureThrottle({ limit: 10, windowMs, ...(now && { now }) });
    this.byClient = new FailureThrottle({ limit: 100, windowMs, ...(now && { now }) });
  }

  /** Milliseconds to wait before this mobile may try from this address, or 0. */
  retryAfter(mobile: string, client: string): number {
    return Math.max(this.byMobile.retryAfter(mobile), this.byClient.retryAfter(client));
  }

  /**
   * Counts an attempt as failed before its password is checked: the check is slow, and a count made
   * only after it would let a burst of guesses sent at once all pass `retryAfter`.
   */
  fail(mobile: string, client: string): void {
    this.byMobile.fail(mobile);
    this.byClient.fail(client);
  }

  /** The attempt was right after all: clear the mobile number's count and take back the address's. */
  succeed(mobile: string, client: string): void {
    this.byMobile.succeed(mobile);
    this.byClient.forgive(client);
  }
}
