/**
 * This device had a signed-in session (set when the app sees a user, cleared on Logout): a visitor
 * who never signed in is sent to /login quietly; the red 'Unauthorized' toast is for a session that
 * ended (expired, or signed out elsewhere).
 */
const SIGNED_IN_KEY = 'kamai.hadSession';

export function hadSession(): boolean {
  try {
    return globalThis.localStorage?.getItem(SIGNED_IN_KEY) === '1';
  } catch {
    return false;
  }
}

export function forgetSession(): void {
  try {
    globalThis.localStorage?.removeItem(SIGNED_IN_KEY);
  } catch {
    // Storage blocked: nothing was remembered either.
  }
  forgetSessionHint();
}

/**
 * Whether this browser may hold a session, so the app knows a signed-out visit without asking
 * `GET /api/auth/user` (which would answer 401, an error in the console, on every first visit).
 * The session cookie itself is HttpOnly, out of the page's reach; this hint is a cookie of the page's
 * own holding nothing secret ('1'): set whenever the app sees the signed-in user, removed on Logout
 * and when the server answers 401. A wrong hint costs one request: a forged or stale one asks and is
 * told 401; it cannot sign anyone in, and the server still checks the session on every request.
 * A cookie rather than localStorage: it lives and goes with the session cookie it stands for when a
 * person or a tool clears the site's cookies, and storage can be cleared without them.
 */
const SESSION_HINT = 'kamai_signed_in';
/** Longer than any session (the server decides expiry); a hint outliving its session costs one 401. */
const SESSION_HINT_MAX_AGE_S = 400 * 24 * 60 * 60;
/** Set on a device once the hint is in use: a session signed in before it existed is asked about once. */
const HINT_IN_USE_KEY = 'kamai.sessionHint';

function setHintCookie(value: string, maxAge: number): void {
  if (typeof document === 'undefined') return;
  const secure = globalThis.location?.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${SESSION_HINT}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure}`;
  try {
    globalThis.localStorage?.setItem(HINT_IN_USE_KEY, '1');
  } catch {
    // Without storage a device only relies on the cookie.
  }
}

/** The app sees the signed-in user: this device had a session, and this browser holds one. */
export function rememberSession(): void {
  try {
    globalThis.localStorage?.setItem(SIGNED_IN_KEY, '1');
  } catch {
    // Not remembered: a later expiry is then treated as a first visit (no red toast).
  }
  setHintCookie('1', SESSION_HINT_MAX_AGE_S);
}

export function forgetSessionHint(): void {
  setHintCookie('', 0);
}

export function mayHaveSession(): boolean {
  if (typeof document === 'undefined') return true;
  if (document.cookie.split('; ').includes(`${SESSION_HINT}=1`)) return true;
  // A device that had a session before the hint existed: ask once; the answer sets or clears it.
  try {
    return hadSession() && globalThis.localStorage?.getItem(HINT_IN_USE_KEY) !== '1';
  } catch {
    return false;
  }
}
