import { createHash, randomBytes } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { type Limits, type SESSION_END_REASONS, SESSION_LIFETIME_MS, deviceLabel, streams } from '@kamai/contracts';
import { SESSION_SEEN_EVERY_MS, sessionDecider } from '@kamai/domain';
import { type UserRecord, type UserRow, type WalletFigures, findLiveSession, findUserRecord, findWalletFigures, getLimits } from '@kamai/projections';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { parse as parseCookies } from 'hono/utils/cookie';
import { getConnInfo } from '@hono/node-server/conninfo';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { forbidden, unauthenticated } from '../http/errors.ts';
import { requestHeader } from '../http/request.ts';
import type { Role } from '@kamai/contracts';
import type { CachedSession, UserFacts } from './session-cache.ts';

const SESSION_COOKIE = 'kamai_session';
type EndReason = (typeof SESSION_END_REASONS)[number];

/**
 * Sessions follow the token/id split: the cookie carries 160 random bits, the event store and read
 * model only their SHA-256, so a leaked database cannot be replayed as cookies.
 */
export function newSessionToken(): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(20));
}

/** node:crypto's native SHA-256: it runs on every signed-in request. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Starts a session for the user (an event on `session-<id>`), sets the cookie, returns the position. */
export async function startSession(c: Context<AppEnv>, userId: string): Promise<number> {
  const { store, now } = c.var.deps;
  const token = newSessionToken();
  const sessionId = sessionIdOf(token);
  const started = now();
  const expiresAt = new Date(started.getTime() + SESSION_LIFETIME_MS);
  const device = deviceLabel(c.req.header('user-agent'));
  const { position } = await handleCommand(
    store,
    streams.session(sessionId),
    sessionDecider,
    { type: 'StartSession', sessionId, userId, now: started.toISOString(), expiresAt: expiresAt.toISOString(), device },
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

/** Ends sessions by id (each on its own stream) and returns the last position written, or 0. */
export async function endSessions(deps: AppDeps, sessionIds: readonly string[], reason: EndReason, actor: string): Promise<number> {
  let last = 0;
  for (const sessionId of sessionIds) {
    const { position } = await handleCommand(
      deps.store,
      streams.session(sessionId),
      sessionDecider,
      { type: 'EndSession', sessionId, now: deps.now().toISOString(), reason },
      { actor },
    );
    deps.sessions.delete(sessionId);
    last = Math.max(last, position);
  }
  return last;
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c) });
}

export async function endSession(c: Context<AppEnv>, reason: EndReason = 'logout'): Promise<number> {
  const sessionId = c.var.sessionId;
  clearSessionCookie(c);
  if (!sessionId) return 0;
  return endSessions(c.var.deps, [sessionId], reason, c.var.user?.id ?? 'anonymous');
}

/**
 * The caller's address. Behind TRUSTED_PROXIES proxies, each appends the address it saw to
 * X-Forwarded-For, so the client is that many entries from the right (counting the socket's peer
 * as the last proxy); anything further left was written by the client and is ignored.
 */
export function clientAddress(c: Context<AppEnv>): string {
  let socket = 'unknown';
  try {
    socket = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // not a node socket (tests calling app.fetch)
  }
  const hops = c.get('deps').config.trustedProxies;
  if (hops === 0) return socket;
  const forwarded = (c.req.header('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const chain = [...forwarded, socket];
  return chain[Math.max(0, chain.length - 1 - hops)] ?? socket;
}

export function isHttps(c: Context<AppEnv>): boolean {
  // The scheme of the absolute request URL, without parsing all of it: this runs on every answer.
  if (/^https:/i.test(c.req.url)) return true;
  return c.get('deps').config.trustProxy && c.req.header('x-forwarded-proto') === 'https';
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

/** The read model caught up with the store's head (as far as it gets in two seconds). */
async function catchUpReadModel(deps: AppDeps): Promise<void> {
  const head = await deps.store.headPosition();
  if (head > deps.runner.position) await deps.runner.waitFor(head, 2000);
}

/** The settings' limits, re-read at most every 30 s: the idle timeout needs them on every request. */
const limitsCache = new WeakMap<AppDeps, { limits: Limits; readAt: number }>();
const LIMITS_FOR_MS = 30_000;
async function currentLimits(deps: AppDeps): Promise<Limits> {
  return cachedLimits(deps) ?? readLimits(deps);
}

function cachedLimits(deps: AppDeps): Limits | undefined {
  const cached = limitsCache.get(deps);
  return cached && Date.now() - cached.readAt < LIMITS_FOR_MS ? cached.limits : undefined;
}

async function readLimits(deps: AppDeps): Promise<Limits> {
  const limits = await getLimits(deps.db);
  limitsCache.set(deps, { limits, readAt: Date.now() });
  return limits;
}

/**
 * The live session for this id if the cache has seen every event and holds it; undefined when the
 * read model must be asked (see lookUpSession). Synchronous: a hot read takes no turn of the event
 * loop for its session.
 */
function cachedSession(deps: AppDeps, sid: string): CachedSession | undefined {
  const caught = deps.sessions.catchUp();
  return caught === true ? deps.sessions.get(sid) : undefined;
}

/** The live session for this id: from the cache when it has seen every event, else the read model. */
async function lookUpSession(deps: AppDeps, sid: string): Promise<CachedSession | undefined> {
  const caught = deps.sessions.catchUp();
  // Synchronous on the embedded store: no await (and no turn of the event loop) per request.
  const cacheCurrent = typeof caught === 'boolean' ? caught : await caught;
  const cached = cacheCurrent ? deps.sessions.get(sid) : undefined;
  if (cached) return cached;
  // Not cached: the read model, once it has every event (an ended session must not be found).
  await catchUpReadModel(deps);
  const readAt = deps.runner.position;
  const row = await findLiveSession(deps.db, sid, deps.now().toISOString());
  if (!row) return undefined;
  const session = { userId: row.user_id, expiresAt: row.expires_at, lastSeenAt: row.last_seen_at ?? row.started_at };
  return cacheCurrent ? deps.sessions.remember(sid, session, readAt) : session;
}

/**
 * What the read models answer now about a user, kept per process: their record (every signed-in
 * request needs it) and their wallet figures (the user body shows them). Each is kept with the read
 * models' position when it was read, and served while no event that changes it has come after that
 * position (the session cache follows those events: userChangedAt). A record is kept while money
 * moves, the user's own included; wallet figures while anything but that user's money moves.
 */
interface Kept<T> {
  value: T;
  readAt: number;
}
const keptOf = new WeakMap<AppDeps, Record<UserFacts, Map<string, Kept<unknown>>>>();
const MAX_KEPT_USERS = 10_000;

function keptFacts<T>(deps: AppDeps, facts: UserFacts): Map<string, Kept<T>> {
  let kept = keptOf.get(deps);
  if (!kept) {
    kept = { record: new Map(), wallet: new Map() };
    keptOf.set(deps, kept);
  }
  return kept[facts] as Map<string, Kept<T>>;
}

/** What is kept of the user if unchanged since; synchronous. Only after sessions.catchUp() returned true. */
function kept<T>(deps: AppDeps, facts: UserFacts, userId: string): T | undefined {
  const entry = keptFacts<T>(deps, facts).get(userId);
  return entry && entry.readAt >= deps.sessions.userChangedAt(facts, userId) ? entry.value : undefined;
}

async function readKept<T>(deps: AppDeps, facts: UserFacts, userId: string, read: () => Promise<T | undefined>): Promise<T | undefined> {
  const caught = deps.sessions.catchUp();
  const current = typeof caught === 'boolean' ? caught : await caught;
  if (!current) return readWithCatchUp(deps, read);
  const found = kept<T>(deps, facts, userId);
  if (found !== undefined) return found;
  // The read models include at least this position when the row is read (they only move on).
  const readAt = deps.runner.position;
  const value = await readWithCatchUp(deps, read);
  if (value !== undefined) {
    const entries = keptFacts<T>(deps, facts);
    if (entries.size >= MAX_KEPT_USERS) entries.clear();
    entries.set(userId, { value, readAt });
  }
  return value;
}

function findUser(deps: AppDeps, userId: string): Promise<UserRecord | undefined> {
  return readKept(deps, 'record', userId, () => findUserRecord(deps.db, userId));
}

/**
 * The signed-in user with their wallet figures, as the read models answer now: synchronous when the
 * figures are kept and current (a user body asked for again while their money stays put).
 */
export function withWalletFigures(deps: AppDeps, user: UserRecord): UserRow | Promise<UserRow> {
  const caught = deps.sessions.catchUp();
  const figures = caught === true ? kept<WalletFigures>(deps, 'wallet', user.id) : undefined;
  if (figures) return withFigures(user, figures);
  return readKept(deps, 'wallet', user.id, () => findWalletFigures(deps.db, user.id)).then((read) =>
    withFigures(user, read ?? { balance_paise: 0, total_earned_paise: 0, pending_payout_paise: 0 }),
  );
}

/** One object per record and figures: an answer kept per row object (auth/routes.ts) is reused while both stay. */
const rowsOf = new WeakMap<UserRecord, { figures: WalletFigures; row: UserRow }>();
function withFigures(user: UserRecord, figures: WalletFigures): UserRow {
  const known = rowsOf.get(user);
  if (known?.figures === figures) return known.row;
  const row = { ...user, ...figures };
  rowsOf.set(user, { figures, row });
  return row;
}

/**
 * Session ids by Cookie header: the token's SHA-256 and the cookie parse are the same for every
 * request of a browser, so they are done once per header. A pure function of the header (whether
 * the session still lives is asked on every request), so keeping it can never outlive a sign-out.
 * Bounded: cleared when full; long headers are not kept.
 */
const sessionIds = new Map<string, string | null>();
const MAX_SESSION_IDS = 10_000;
const MAX_KEPT_COOKIE_HEADER = 1024;
const TOKEN_PATTERN = /^[a-z2-7]{32}$/;

function sessionIdFromCookies(header: string | undefined): string | null {
  if (!header) return null;
  const known = sessionIds.get(header);
  if (known !== undefined) return known;
  const token = parseCookies(header, SESSION_COOKIE)[SESSION_COOKIE];
  const sid = token && TOKEN_PATTERN.test(token) ? sessionIdOf(token) : null;
  if (header.length <= MAX_KEPT_COOKIE_HEADER) {
    if (sessionIds.size >= MAX_SESSION_IDS) sessionIds.clear();
    sessionIds.set(header, sid);
  }
  return sid;
}

/** Times of sessions' ISO strings, parsed once per string (a session's are the same on every request). */
const parsedTimes = new Map<string, number>();
function timeOf(iso: string): number {
  let time = parsedTimes.get(iso);
  if (time === undefined) {
    time = Date.parse(iso);
    if (parsedTimes.size >= MAX_SESSION_IDS) parsedTimes.clear();
    parsedTimes.set(iso, time);
  }
  return time;
}

function isLive(session: CachedSession, limits: Limits, now: Date): boolean {
  const idleMs = limits.sessionIdleDays * 24 * 60 * 60_000;
  return timeOf(session.expiresAt) > now.getTime() && timeOf(session.lastSeenAt) + idleMs > now.getTime();
}

/**
 * Sets `user` and `sessionId` from the session cookie. Synchronous (no promise) when the session,
 * the limits and the user row are all in memory and current, as on nearly every request; otherwise
 * a promise of the same answer from the read model.
 */
export function resolveSession(c: Context<AppEnv>): Promise<void> | undefined {
  c.set('user', null);
  c.set('sessionId', null);
  const sid = sessionIdFromCookies(requestHeader(c, 'cookie'));
  if (!sid) return undefined;
  const deps = c.get('deps');
  const session = cachedSession(deps, sid);
  const limits = cachedLimits(deps);
  if (!session || !limits) return resolveFromReadModel(c, deps, sid);
  const now = deps.now();
  if (!isLive(session, limits, now)) return undefined;
  const user = kept<UserRecord>(deps, 'record', session.userId);
  if (!user) return resolveFromReadModel(c, deps, sid);
  // An erased person's sessions are ended by the erasure; until that lands, none of them counts.
  if (user.erased_at !== null) return undefined;
  c.set('user', user);
  c.set('sessionId', sid);
  return now.getTime() - timeOf(session.lastSeenAt) < SESSION_SEEN_EVERY_MS ? undefined : recordSeen(deps, sid, session, now);
}

async function resolveFromReadModel(c: Context<AppEnv>, deps: AppDeps, sid: string): Promise<void> {
  const session = await lookUpSession(deps, sid);
  const now = deps.now();
  if (!session || !isLive(session, await currentLimits(deps), now)) return;
  const user = await findUser(deps, session.userId);
  if (!user || user.erased_at !== null) return;
  c.set('user', user);
  c.set('sessionId', sid);
  await recordSeen(deps, sid, session, now);
}

/** "Last seen", at most every SESSION_SEEN_EVERY_MS: one event per few minutes, never one per request. */
async function recordSeen(deps: AppDeps, sid: string, session: CachedSession, now: Date): Promise<void> {
  if (now.getTime() - Date.parse(session.lastSeenAt) < SESSION_SEEN_EVERY_MS) return;
  session.lastSeenAt = now.toISOString();
  await handleCommand(deps.store, streams.session(sid), sessionDecider, { type: 'SeeSession', sessionId: sid, now: now.toISOString() }, {
    actor: session.userId,
  });
}

export function requireUser(c: Context<AppEnv>): UserRecord {
  const user = c.get('user');
  if (!user) throw unauthenticated();
  return user;
}

/** The signed-in user if they hold one of `roles`; 401 when signed out, 403 otherwise. */
export function requireRole(c: Context<AppEnv>, ...roles: Role[]): UserRecord {
  const user = requireUser(c);
  const held = JSON.parse(user.roles) as Role[];
  if (!roles.some((role) => held.includes(role))) throw forbidden();
  return user;
}
