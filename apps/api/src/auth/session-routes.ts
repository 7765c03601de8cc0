import { ChangePasswordRequest, type SessionBody, UNKNOWN_DEVICE, msg, streams } from '@kamai/contracts';
import { userDecider } from '@kamai/domain';
import { listUserSessions } from '@kamai/projections';
import { Hono } from 'hono';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { idParam, signedIn } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { tooMany } from './routes.ts';
import { clearSessionCookie, endSessions, requireUser } from './sessions.ts';

const sessionIdParam = idParam('id', /^[0-9a-f]{64}$/, msg('api.sessionNotFound'));

/** The user's live sessions, from a read model that has every event so far. */
async function sessionsOf(deps: AppDeps, userId: string) {
  const head = await deps.store.headPosition();
  if (head > deps.runner.position) await deps.runner.waitFor(head, 2000);
  return listUserSessions(deps.db, userId, deps.now().toISOString());
}

/** Sessions a user controls: where they are signed in, signing out elsewhere, changing the password. */
export const sessionRoutes = new Hono<AppEnv>()
  .get('/api/auth/sessions', signedIn, async (c) => {
    const user = requireUser(c);
    const rows = await sessionsOf(c.var.deps, user.id);
    const body: SessionBody[] = rows.map((r) => ({
      id: r.sid,
      device: r.device ?? UNKNOWN_DEVICE,
      startedAt: r.started_at,
      lastSeenAt: r.last_seen_at ?? r.started_at,
      current: r.sid === c.var.sessionId,
    }));
    return c.json(body);
  })
  .delete('/api/auth/sessions/:id', signedIn, sessionIdParam, async (c) => {
    const deps = c.var.deps;
    const user = requireUser(c);
    const id = c.req.param('id');
    // Only one's own sessions; anyone else's is "not found", never "not yours".
    if (!(await sessionsOf(deps, user.id)).some((s) => s.sid === id)) throw notFound(msg('api.sessionNotFound'));
    const position = await endSessions(deps, [id], 'revoked', user.id);
    if (id === c.var.sessionId) clearSessionCookie(c);
    if (position > 0) await deps.runner.waitFor(position);
    return c.body(null, 204);
  })
  .post('/api/auth/logout-all', signedIn, async (c) => {
    const deps = c.var.deps;
    const user = requireUser(c);
    const ids = (await sessionsOf(deps, user.id)).map((s) => s.sid);
    const position = await endSessions(deps, ids, 'logout_all', user.id);
    clearSessionCookie(c);
    if (position > 0) await deps.runner.waitFor(position);
    return c.body(null, 204);
  })
  .put('/api/auth/password', signedIn, validate('json', ChangePasswordRequest), async (c) => {
    const deps = c.var.deps;
    const user = requireUser(c);
    const { currentPassword, newPassword } = c.req.valid('json');
    // Guesses of the current password are counted per session (signedIn: there is one), so
    // strangers failing to sign in to the number never lock its holder out of a change.
    const sessionId = c.var.sessionId ?? user.id;
    const wait = deps.loginGuard.attemptInSession(sessionId);
    if (wait > 0) tooMany(c, wait, 'api.tooManySignIns');
    if (!(await verifyPassword(user.password_hash, currentPassword))) {
      throw new ApiError(400, 'validation_failed', msg('api.wrongCurrentPassword'), { currentPassword: msg('api.wrongCurrentPassword') });
    }
    deps.loginGuard.succeedInSession(sessionId);
    const passwordHash = await hashPassword(newPassword);
    const now = deps.now().toISOString();
    await handleCommand(deps.store, streams.user(user.id), userDecider, { type: 'ChangePassword', data: { passwordHash }, now }, {
      actor: user.id,
    });
    // Every other device must sign in again with the new password; this one stays signed in.
    const others = (await sessionsOf(deps, user.id)).map((s) => s.sid).filter((sid) => sid !== c.var.sessionId);
    await endSessions(deps, others, 'password_changed', user.id);
    await deps.runner.waitFor(await deps.store.headPosition());
    return c.body(null, 204);
  });
