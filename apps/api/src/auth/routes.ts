import { LOGIN_FORM_ERRORS, LoginRequest, RegisterRequest, type ServerMessageKey, msg, safeRedirect } from '@kamai/contracts';
import { type UserRow, findUserById, findUserByMobile, toUserBody } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../deps.ts';
import { ApiError, notYetVisible } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { registerUser } from './accounts.ts';
import { acceptInvitation, inviterOf } from '../invitations/codes.ts';
import { verifyPassword } from './passwords.ts';
import { clientAddress, endSession, isHttps, readWithCatchUp, requireUser, startSession, withWalletFigures } from './sessions.ts';

/** OWASP's device cookie: proof this browser signed in to the number before (see LoginGuard). */
export const DEVICE_COOKIE = 'kamai_device';

/** 429 `too_many_attempts` with Retry-After, its message (a key with a `{minutes}` parameter) naming the wait. */
export function tooMany(c: Parameters<typeof clientAddress>[0], wait: number, key: ServerMessageKey): never {
  c.header('Retry-After', String(Math.ceil(wait / 1000)));
  throw new ApiError(429, 'too_many_attempts', msg(key, { minutes: Math.ceil(wait / 60_000) }));
}

/** The device cookie, for a year, sent only to the auth routes. */
function setDeviceCookie(c: Parameters<typeof isHttps>[0], value: string): void {
  setCookie(c, DEVICE_COOKIE, value, { httpOnly: true, sameSite: 'Lax', secure: isHttps(c), path: '/api/auth', maxAge: 365 * 24 * 60 * 60 });
}

const JSON_TYPE = { 'Content-Type': 'application/json' } as const;
/**
 * `GET /api/auth/user`'s answer per user row. The session middleware keeps a record, and
 * withWalletFigures the figures, until an event changes them and then reads new ones (a new row
 * object), so an answer kept per row object is always the row's own; entries go with their rows.
 */
const userAnswers = new WeakMap<UserRow, string>();
function userJson(user: UserRow): string {
  let json = userAnswers.get(user);
  if (json === undefined) {
    json = JSON.stringify(toUserBody(user));
    userAnswers.set(user, json);
  }
  return json;
}

/** Checks the credentials and starts a session (cookies set), for the JSON and the form sign-in alike. */
async function signIn(c: Context<AppEnv>, { mobile, password }: LoginRequest): Promise<UserRow> {
  const deps = c.var.deps;
  const client = clientAddress(c);
  const device = deps.loginGuard.recognise(mobile, getCookie(c, DEVICE_COOKIE));
  // Counted before the slow checks below, so concurrent guesses see each other (taken back on success).
  const wait = deps.loginGuard.attempt(mobile, client, device);
  if (wait > 0) tooMany(c, wait, 'api.tooManySignIns');
  const user = await readWithCatchUp(deps, () => findUserByMobile(deps.db, mobile));
  // Same answer, and about the same time, whether or not the mobile exists.
  const ok = await verifyPassword(user?.password_hash ?? null, password);
  if (!user || !ok) throw new ApiError(401, 'invalid_credentials', msg('api.badCredentials'));
  deps.loginGuard.succeed(mobile, client, device);
  setDeviceCookie(c, device ? (getCookie(c, DEVICE_COOKIE) ?? '') : deps.loginGuard.issueDevice(mobile));
  const position = await startSession(c, user.id);
  await deps.runner.waitFor(position);
  return user;
}

/** The refusals the form sign-in sends back to /login by code (LOGIN_FORM_ERRORS); anything else answers as any error does. */
const FORM_REFUSALS: ReadonlySet<string> = new Set<string>(LOGIN_FORM_ERRORS);

export const authRoutes = new Hono<AppEnv>()
  .post('/api/auth/register', validate('json', RegisterRequest), async (c) => {
    const deps = c.var.deps;
    const wait = deps.loginGuard.register(clientAddress(c));
    if (wait > 0) tooMany(c, wait, 'api.tooManyAccounts');
    const body = c.req.valid('json');
    // An unknown invite code is a field error before anything is recorded: the person fixes a typo or clears it.
    const inviterId = body.inviteCode === undefined ? null : await inviterOf(deps, body.inviteCode);
    const { userId } = await registerUser(deps.store, deps.personalData, body, deps.now());
    if (inviterId !== null && body.inviteCode !== undefined) await acceptInvitation(c, DEVICE_COOKIE, userId, inviterId, body.inviteCode);
    // Registering proves the password as a sign-in does: this browser is the holder's device from now on.
    setDeviceCookie(c, deps.loginGuard.issueDevice(body.mobile));
    const position = await startSession(c, userId);
    await deps.runner.waitFor(position);
    const user = await findUserById(deps.db, userId);
    if (!user) throw notYetVisible();
    return c.json(toUserBody(user), 201);
  })
  .post('/api/auth/login', validate('json', LoginRequest), async (c) => {
    const user = await signIn(c, c.req.valid('json'));
    return c.json(toUserBody(user), 200);
  })
  /**
   * The sign-in form as the server draws it into /login (docs/first-screen.md) posts here before the
   * app's script runs: the same sign-in (throttles, session and device cookies; the pipeline's
   * cross-site check as for every /api write), answered by a 303 to the app, or back to /login with
   * the refusal's code, which the form shows in the catalogue's words.
   */
  .post('/api/auth/login/form', async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const redirect = safeRedirect(form.redirect);
    const parsed = v.safeParse(LoginRequest, { mobile: form.mobile, password: form.password });
    try {
      if (!parsed.success) throw new ApiError(400, 'validation_failed', msg('api.badRequest'));
      await signIn(c, parsed.output);
    } catch (err) {
      if (!(err instanceof ApiError) || !FORM_REFUSALS.has(err.code)) throw err;
      const back = new URLSearchParams({ error: err.code, ...(redirect ? { redirect } : {}) });
      return c.redirect(`/login?${back}`, 303);
    }
    return c.redirect(redirect ?? '/', 303);
  })
  .post('/api/auth/logout', async (c) => {
    const position = await endSession(c);
    if (position > 0) await c.var.deps.runner.waitFor(position);
    return c.body(null, 204);
  })
  .get('/api/auth/user', (c): Response | Promise<Response> => {
    const user = withWalletFigures(c.var.deps, requireUser(c));
    // Synchronous while the user's figures are kept: no turn of the event loop for the hot read.
    if (user instanceof Promise) return user.then((row) => c.body(userJson(row), 200, JSON_TYPE));
    return c.body(userJson(user), 200, JSON_TYPE);
  })
  // The client's 401 target: the sign-in screen.
  .get('/api/login', (c) => c.redirect('/login', 302));
