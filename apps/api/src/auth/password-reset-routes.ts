import { createHmac, randomInt } from 'node:crypto';
import {
  PASSWORD_RESET_CODE_LENGTH,
  PASSWORD_RESET_CODE_TTL_MS,
  PASSWORD_RESET_GUESSES,
  PASSWORD_RESET_SENDS_PER_HOUR,
  PasswordResetConfirmRequest,
  PasswordResetRequest,
  type ServerMessageKey,
  msg,
  streams,
} from '@kamai/contracts';
import { passwordResetDecider, userDecider } from '@kamai/domain';
import { findUserByMobile, listUserSessions } from '@kamai/projections';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { hashPassword } from './passwords.ts';
import { tooMany } from './routes.ts';
import { clearSessionCookie, clientAddress, endSessions, readWithCatchUp } from './sessions.ts';

const HOUR_MS = 60 * 60_000;
const GUESS_WINDOW_MS = 15 * 60_000;

/** The code as stored: an HMAC under the server's secret, so the log never holds a usable code. */
function codeHash(secret: Uint8Array, userId: string, code: string): string {
  return createHmac('sha256', secret).update(`password-reset\n${userId}\n${code}`).digest('hex');
}

/** Counts this attempt against each key; a 429 naming the wait when one is over its limit. */
function throttle(c: Context<AppEnv>, checks: Array<[key: string, limit: number]>, windowMs: number, message: ServerMessageKey): void {
  const { attempts } = c.var.deps;
  const now = Date.now();
  let wait = 0;
  for (const [key, limit] of checks) {
    if (attempts.count(key, windowMs, now) > limit) wait = Math.max(wait, (attempts.get(key, now)?.resetAt ?? now + windowMs) - now);
  }
  if (wait > 0) tooMany(c, wait, message);
}

const findByMobile = (deps: AppDeps, mobile: string) => readWithCatchUp(deps, () => findUserByMobile(deps.db, mobile));

/**
 * Issues and sends a code when the number has an account; nothing otherwise. Run after the answer,
 * never awaited by it: looking the number up, hashing, appending and the SMS gateway all take time
 * only for a registered number, so a request that waited for them would tell who is registered.
 * A failure is logged (the person simply asks again); the answer was 202 either way.
 */
async function issueResetCode(deps: AppDeps, mobile: string): Promise<void> {
  const user = await findByMobile(deps, mobile);
  if (!user) return;
  const code = String(randomInt(0, 10 ** PASSWORD_RESET_CODE_LENGTH)).padStart(PASSWORD_RESET_CODE_LENGTH, '0');
  const now = deps.now();
  await handleCommand(
    deps.store,
    streams.passwordReset(user.id),
    passwordResetDecider,
    {
      type: 'IssuePasswordResetCode',
      userId: user.id,
      codeHash: codeHash(deps.secret, user.id, code),
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_CODE_TTL_MS).toISOString(),
      now: now.toISOString(),
    },
    { actor: user.id },
  );
  await deps.sms.sendPasswordResetCode({ mobile, code, language: user.language === 'hi' ? 'hi' : 'en' });
}

/**
 * A forgotten password, reset by a 6-digit code sent by SMS. The request is answered 202 whether or
 * not the number has an account (nobody learns who is registered); the code is valid for 10 minutes,
 * once, and only the latest one; sends and wrong guesses are limited per number and per address.
 */
export const passwordResetRoutes = new Hono<AppEnv>()
  .post('/api/auth/password-reset', validate('json', PasswordResetRequest), async (c) => {
    const deps = c.var.deps;
    const { mobile } = c.req.valid('json');
    throttle(
      c,
      [
        [`reset-send:mobile:${mobile}`, PASSWORD_RESET_SENDS_PER_HOUR.perMobile],
        [`reset-send:client:${clientAddress(c)}`, PASSWORD_RESET_SENDS_PER_HOUR.perClient],
      ],
      HOUR_MS,
      'passwordReset.tooManyCodes',
    );
    // The same path for every number up to the answer: the work starts on the next turn, after it.
    setImmediate(() => {
      issueResetCode(deps, mobile).catch((err: unknown) => {
        console.error(`[sms] a password reset code was not issued or sent: ${err instanceof Error ? err.message : String(err)}`);
      });
    });
    return c.body(null, 202);
  })
  .post('/api/auth/password-reset/confirm', validate('json', PasswordResetConfirmRequest), async (c) => {
    const deps = c.var.deps;
    const { mobile, code, newPassword } = c.req.valid('json');
    const guesses: Array<[string, number]> = [
      [`reset-guess:mobile:${mobile}`, PASSWORD_RESET_GUESSES.perMobile],
      [`reset-guess:client:${clientAddress(c)}`, PASSWORD_RESET_GUESSES.perClient],
    ];
    throttle(c, guesses, GUESS_WINDOW_MS, 'passwordReset.tooManyWrongCodes');
    const user = await findByMobile(deps, mobile);
    if (!user) throw new ApiError(400, 'invalid_code', msg('passwordReset.codeInvalid'), { code: msg('passwordReset.codeInvalid') });
    const now = deps.now().toISOString();
    await handleCommand(
      deps.store,
      streams.passwordReset(user.id),
      passwordResetDecider,
      { type: 'UsePasswordResetCode', userId: user.id, codeHash: codeHash(deps.secret, user.id, code), now },
      { actor: user.id },
    );
    deps.attempts.reset(guesses[0]![0]);
    const passwordHash = await hashPassword(newPassword);
    await handleCommand(deps.store, streams.user(user.id), userDecider, { type: 'ChangePassword', data: { passwordHash }, now }, { actor: user.id });
    // Whoever knew the old password is signed out everywhere, this browser included.
    const head = await deps.store.headPosition();
    if (head > deps.runner.position) await deps.runner.waitFor(head, 2000);
    const sessions = (await listUserSessions(deps.db, user.id, now)).map((s) => s.sid);
    await endSessions(deps, sessions, 'password_reset', user.id);
    clearSessionCookie(c);
    await deps.runner.waitFor(await deps.store.headPosition());
    return c.body(null, 204);
  });
