import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import { streams } from '@kamai/contracts';
import { SESSION_LIFETIME_MS } from '@kamai/contracts';
import { sessionDecider } from '@kamai/domain';
import { findLiveSession, findUserById, type UserRow } from '@kamai/projections';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { getConnInfo } from '@hono/node-server/conninfo';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { forbidden, unauthenticated } from '../http/errors.ts';
import type { Role } from '@kamai/contracts';

export const SESSION_COOKIE = 'kamai_session';

/**
 * Sessions follow the token/id split: the cookie carries 160 random bits, the event store and read
 * model only their SHA-256, so a leaked database cannot be replayed as cookies.
 */
export function newSessionToken(): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
}

export function sessionIdOf(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** Starts a session for the user (an event on `session-<id>`), sets the cookie, returns the position. */
export async function startSession(c: Context<AppEnv>, userId: string): Promise<number> {
  const { store, now } = c.var.deps;
  const token = newSessionToken();
  const sessionId = sessionIdOf(token);
  const started = now();
  const expiresAt = new Date(started.getTime() + SESSION_LIFETIME_MS);
  const { position } = await handleCommand(
    store,
    streams.session(sessionId),
    sessionDecider,
    { type: 'StartSession', sessionId, userId, now: started.toISOString(), expiresAt: expiresAt.toISOString() },
    { actor: userId },
  );
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    path: '/',
    expires: expiresAt,
  });
  return position;
}

export async function endSession(c: Context<AppEnv>): Promise<number> {
  const sessionId = c.var.sessionId;
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c) });
  if (!sessionId) return 0;
  const { position } = await handleCommand(
    c.var.deps.store,
    streams.session(sessionId),
    sessionDecider,
    { type: 'EndSession', sessionId, now: c.var.deps.now().toISOString() },
    { actor: c.var.user?.id ?? 'anonymous' },
  );
  return position;
}

/** The caller's address: the proxy's X-Forwarded-For when the proxy is trusted, else the socket's. */
export function clientAddress(c: Context<AppEnv>): string {
  if (c.var.deps.config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function isHttps(c: Context<AppEnv>): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return c.var.deps.config.trustProxy && c.req.header('x-forwarded-proto') === 'https';
}

/**
 * Reads from the read model, and when it finds nothing, first lets the local read model catch up
 * with the store's head and looks again: a session or user written a moment ago by another API
 * process is then found here too.
 */
export async function readWithCatchUp<T>(deps: AppDeps, read: () => Promise<T | undefined>): Promise<T | undefined> {
  const found = await read();
  if (found !== undefined) return found;
  const head = await deps.store.headPosition();
  if (head <= deps.runner.position) return undefined;
  await deps.runner.waitFor(head, 2000);
  return read();
}

/** Sets `user` and `sessionId` from the session cookie, for every route. */
export const sessionMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  c.set('user', null);
  c.set('sessionId', null);
  const token = getCookie(c, SESSION_COOKIE);
  if (token && /^[a-z2-7]{32}$/.test(token)) {
    const deps = c.var.deps;
    const sid = sessionIdOf(token);
    const session = await readWithCatchUp(deps, () => findLiveSession(deps.db, sid, deps.now().toISOString()));
    if (session) {
      const user = await readWithCatchUp(deps, () => findUserById(deps.db, session.user_id));
      if (user) {
        c.set('user', user);
        c.set('sessionId', sid);
      }
    }
  }
  await next();
});

export function requireUser(c: Context<AppEnv>): UserRow {
  const user = c.var.user;
  if (!user) throw unauthenticated();
  return user;
}

/** The signed-in user if they hold one of `roles`; 401 when signed out, 403 otherwise. */
export function requireRole(c: Context<AppEnv>, ...roles: Role[]): UserRow {
  const user = requireUser(c);
  const held = JSON.parse(user.roles) as Role[];
  if (!roles.some((role) => held.includes(role))) throw forbidden();
  return user;
}
