import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { type EventStore, capability } from '@kamai/domain';
import {
  CheckpointWatcher,
  ProjectionRunner,
  type ReadDbHandle,
  type ReadModels,
  WAL_AUTOCHECKPOINT_PAGES,
  type WalCheckpointer,
  allProjections,
  openReadDb,
  readEventTextsFrom,
  sqliteConnectionOf,
  startWalCheckpointer,
} from '@kamai/projections';
import type { Config } from './config.ts';
import { readOrCreateSecretFile } from './secret-file.ts';
import { openSqliteEventStore } from './event-store/sqlite.ts';
import { PLAIN_LOG_WARNING, markOrCheckLog } from './privacy/marker.ts';
import type { OpenPersonalData } from './privacy/personal-data.ts';
import { openPersonalData } from './privacy/open.ts';
import { type SealedEventStore, sealEventStore } from './privacy/sealed-store.ts';
import { DEFAULT_LOGIN_GUARD, LoginGuard } from './auth/throttle.ts';
import { type AttemptStore, SqliteAttemptStore } from './auth/attempts.ts';
import { PostgresAttemptStore } from './auth/postgres-attempts.ts';
import { PostgresUploadLedger } from './uploads/postgres-uploads.ts';
import { consoleSms, gatewaySms } from './auth/sms.ts';
import { SqliteUploadLedger, type UploadLedger, sweepUnreferencedUploads } from './uploads/sweep.ts';
import { sweepWorkflows } from './workflows/run.ts';
import { followInvitationMilestones, sweepInvitations } from './invitations/award.ts';
import type { OutboxPlace } from './outbox/sql.ts';
import { AlertSender } from './push/sender.ts';
import { followBalances } from './finance/balance-warnings.ts';
import { loadVapidKeys } from './push/vapid.ts';
import { WORKFLOW_DEFINITIONS } from './workflows/payouts.ts';
import type { AppDeps } from './deps.ts';
import { runAutoApprovals } from './review/auto-approve.ts';
import { SessionCache } from './auth/session-cache.ts';
import { createApp } from './http/app.ts';
import { createObjectStorage } from './object-storage/index.ts';
import { readAheadFor } from './projections/read-ahead.ts';
import { ProjectionThread } from './projections/thread.ts';
import { type DemoAccount, seedDemoData } from './seed.ts';
import { startLedgerCheckpoints } from './finance/verify.ts';
import { createLedgerWitness } from './event-store/witness.ts';
import { monotonicClock } from './clock.ts';
import { logger } from './observability/index.ts';
import { StorageGuard } from './storage/guard.ts';
import { SECOND_PROCESS_WARNING, takeProcessSlot } from './storage/processes.ts';
import { WebhookSender } from './webhooks/sender.ts';
// Registers the demo task catalogue as a seed step.
import './tasks/seed.ts';
// Registers the demo wallet (a balance and a pending withdrawal) as a seed step.
import './wallet/seed.ts';

export interface RunningServer {
  url: string;
  port: number;
  seeded: DemoAccount[];
  /** The stores this server works on, for operators' scripts and tests. */
  store: EventStore;
  /** The personal-data keys of this server's store. */
  personalData: OpenPersonalData;
  db: ReadDbHandle;
  runner: ReadModels;
  /** Every route the app answers (method and Hono path), for the authorization matrix test. */
  routes: Array<{ method: string; path: string }>;
  /**
   * Settles with the reason when DATA_DIR's files are deleted or replaced under the process: it can
   * never write there again, and should stop (main.ts does).
   */
  storageGone: Promise<string>;
  /** Runs the unreferenced-upload sweep now (as if at `now`); returns the keys it deleted. */
  sweepUploads(now?: number): Promise<string[]>;
  /** Runs a round of the webhook sender now: takes in what the read model queued, sends what is due. */
  sweepWebhooks(): Promise<void>;
  /** Decides the invitation bonuses whose moment came now (invitations/award.ts); answers how many. */
  sweepInvitations(): Promise<number>;
  /** Checks the balances that warn now (and waits for a check under way). */
  checkBalances(): Promise<void>;
  /** Graceful: stops accepting, lets in-flight requests finish (up to `graceMs`), stops the projections at a checkpoint, closes the stores. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The configured event store, with personal data sealed by the key store of DATA_DIR (closing the
 * store closes the key store). `log` hears the key store's start-up advice.
 */
export async function openEventStore(config: Config, log?: (line: string) => void): Promise<SealedEventStore> {
  const personal = openPersonalData(config, log);
  try {
    return sealEventStore(await openAdapter(config), personal, { closesKeys: true, signingKey: config.ledgerSigningKey });
  } catch (err) {
    personal.close();
    throw err;
  }
}

async function openAdapter(config: Config): Promise<EventStore> {
  if (config.eventStore.kind === 'kurrentdb') {
    // Loaded only when configured: the gRPC client is heavy and the embedded default needs none of it.
    const { openKurrentDbEventStore } = await import('./event-store/kurrentdb.ts');
    return openKurrentDbEventStore(config.eventStore.url);
  }
  if (config.eventStore.kind === 'postgres') {
    const { openPostgresEventStore } = await import('./event-store/postgres.ts');
    return openPostgresEventStore(config.eventStore.url);
  }
  return openSqliteEventStore(config.eventStore.file, { walAutocheckpointPages: WAL_AUTOCHECKPOINT_PAGES, writerThread: config.eventStore.writerThread });
}

/**
 * Checkpoints of this process's SQLite files (the embedded event store, the read database) on a
 * thread of their own; this process's connections then checkpoint only past a safety net.
 */
export function checkpointOffTheEventLoop(config: Config, db: ReadDbHandle): WalCheckpointer {
  sqliteConnectionOf(db).pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  const files = [config.readDbFile, ...(config.eventStore.kind === 'sqlite' ? [config.eventStore.file] : [])];
  return startWalCheckpointer(files);
}

/**
 * The signing key for upload URLs, shared by every process on this DATA_DIR: taken from APP_SECRET,
 * or created once in the data folder.
 */
export function loadSecret(config: Pick<Config, 'appSecret' | 'dataDir'>): Uint8Array {
  if (config.appSecret) return new TextEncoder().encode(config.appSecret);
  return readOrCreateSecretFile(join(config.dataDir, 'secret.key')).secret;
}

/**
 * The stores every process shares beside the log: the throttles' counters and the upload ledger, in
 * DATA_DIR/throttle.sqlite, or in PostgreSQL with the log (EVENT_STORE=postgres), so that every node
 * counts the same guesses.
 */
function openSideStores(config: Config, secret: Uint8Array): { attempts: AttemptStore; uploads: UploadLedger } {
  if (config.eventStore.kind === 'postgres') {
    // One synchronous connection serves both (and the key store): the second opens nothing new.
    return { attempts: new PostgresAttemptStore(config.eventStore.url, secret), uploads: new PostgresUploadLedger(config.eventStore.url) };
  }
  return { attempts: new SqliteAttemptStore(config.throttleFile, secret), uploads: new SqliteUploadLedger(config.throttleFile) };
}

/** Where the outboxes keep their rows: DATA_DIR's file, or the shared database, so that N nodes send each once. */
function outboxPlace(config: Config, file: string): OutboxPlace {
  return config.eventStore.kind === 'postgres' ? { database: config.eventStore.url } : { file };
}

/**
 * The server's secret (upload URLs' signatures, the throttles' HMAC): APP_SECRET; else, on
 * PostgreSQL, a system key of the shared key store (every node has the same one); else the file in
 * DATA_DIR.
 */
function serverSecret(config: Config, personal: OpenPersonalData): Uint8Array {
  if (!config.appSecret && config.eventStore.kind === 'postgres') return personal.keys.systemKey('app-secret');
  return loadSecret(config);
}

/** The time of the log's last event, the floor of this process's clock; null for an empty log. */
async function lastRecordedAt(store: EventStore): Promise<Date | null> {
  const head = await store.headPosition();
  const [last] = head > 0 ? await store.readAll({ after: head - 1, limit: 1 }) : [];
  return last ? new Date(last.recordedAt) : null;
}

/** Opens the stores, catches the read models up, seeds demo data when asked, and serves HTTP. */
type FetchHandler = Parameters<typeof serve>[0]['fetch'];

export interface ServerOptions {
  /** Wraps the event store before anything uses it: the crash tests' seam (testing/crash-main.ts); never set in production. */
  decorateStore?: <S extends EventStore>(store: S) => S;
  /** The clock commands are dated by; tests set one that runs behind, to make work look old. */
  now?: () => Date;
  /** Wraps the app's fetch handler: the tests' check of every answer against the OpenAPI document (testing/server.ts); never set in production. */
  decorateFetch?: (fetch: FetchHandler) => FetchHandler;
}

/** How long an idle keep-alive connection stays open (see where the server starts). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export async function startServer(config: Config, log: (line: string) => void = console.log, options: ServerOptions = {}): Promise<RunningServer> {
  mkdirSync(config.dataDir, { recursive: true });
  // On the embedded store a second process on the same files does not help (issue 39): said once, at its start.
  const slot = config.eventStore.kind === 'sqlite' ? takeProcessSlot(config.dataDir) : { othersRunning: false, release: () => {} };
  if (slot.othersRunning) log(SECOND_PROCESS_WARNING);
  // A store that will not open (a wrong key, a broken file) leaves no slot held in this process.
  const opened = await openEventStore(config, log).catch((err: unknown) => {
    slot.release();
    throw err;
  });
  const store = options.decorateStore ? options.decorateStore(opened) : opened;
  const db = await openReadDb(config.readDbFile);
  readEventTextsFrom(db, store);
  const checkpointer = checkpointOffTheEventLoop(config, db);

  const runner: ReadModels =
    config.projections === 'off'
      ? new CheckpointWatcher(db, allProjections)
      : config.projections === 'thread' && config.eventStore.kind === 'sqlite'
        ? new ProjectionThread({ eventStoreFile: config.eventStore.file, readDbFile: config.readDbFile, keys: store.personal.location, log: (line) => log(`[projections] ${line}`) })
        : new ProjectionRunner(db, store, allProjections, { log: (line) => log(`[projections] ${line}`), readAhead: readAheadFor(store) });
  // Started first: a projection thread boots (loads its modules, opens its connections) while this
  // thread seeds and wires the app, so a cold start pays for the two side by side.
  const starting = runner.start();
  starting.catch(() => {}); // awaited below, before the app answers anything
  // The projection thread follows the file with connections of its own: told of each commit here,
  // it applies at once rather than at its next look.
  const signal = capability(store, 'changeSignal');
  const unwake = runner instanceof ProjectionThread && signal ? signal.onAppended((position) => runner.wake(position)) : () => {};

  let seeded: DemoAccount[] = [];
  const embedded = config.eventStore.kind === 'sqlite';
  try {
    const empty = (await store.headPosition()) === 0;
    if ((await markOrCheckLog(store, new Date())) === 'plain') log(PLAIN_LOG_WARNING);
    if (config.seedDemo === 'true' || (config.seedDemo === 'auto' && embedded && empty)) {
      seeded = await seedDemoData(store, store.personal, new Date());
    }
  } catch (err) {
    unwake();
    await runner.stop().catch(() => {});
    slot.release();
    throw err;
  }

  let goneWith: (reason: string) => void = () => {};
  const storageGone = new Promise<string>((resolve) => (goneWith = resolve));
  const secret = serverSecret(config, store.personal);
  const objects = createObjectStorage(
    config.objectStorage === 's3'
      ? { kind: 's3', ...config.s3 }
      : { kind: 'disk', root: join(config.dataDir, 'objects'), secret },
  );
  const sessions = new SessionCache(store);
  await sessions.start();
  const { attempts, uploads } = openSideStores(config, secret);
  const loginGuard = new LoginGuard(attempts, secret, { ...DEFAULT_LOGIN_GUARD, registrationsPerHour: config.registrationsPerHour });
  // Webhook deliveries: queued by the webhooks read model, sent from here (every process may send;
  // the outbox file lets one claim each delivery). Started once the read models are caught up.
  const webhooks = new WebhookSender({ place: outboxPlace(config, config.webhooks.file), db, readModels: runner, keys: store.personal.keys, retryFirstMs: config.webhooks.retryFirstMs, allowLoopback: config.webhooks.httpLoopback });
  const sms = config.sms.kind === 'gateway' ? gatewaySms(config.sms) : consoleSms(log);
  const now = options.now ?? monotonicClock({
    floor: await lastRecordedAt(store),
    onBackwards: (ms) => logger.warn({ behindMs: ms }, 'clock: the machine clock went back; commands keep the last time until it catches up'),
  });
  const storage = new StorageGuard({
    dataDir: config.dataDir,
    files: [
      ...(config.eventStore.kind === 'sqlite' ? [config.eventStore.file] : []),
      config.readDbFile,
      // On PostgreSQL the keys, the counters and the outboxes are in the database.
      ...(config.eventStore.kind === 'postgres' ? [] : [config.keysFile, config.throttleFile, config.webhooks.file, config.push.file]),
      ...(config.objectStorage === 'disk' ? [join(config.dataDir, 'objects')] : []),
    ],
    reserveBytes: config.diskReserveBytes,
    log: (level, line) => logger[level](line),
    onGone: (reason) => goneWith(reason),
  });
  await storage.start();
  // Signs from the start (after walking on from the newest checkpoint, checked against the key and the
  // witness), so /api/health says at once whether the log extends what was signed before; the log
  // under that checkpoint is walked again in the background.
  const ledgerCheckpoints = startLedgerCheckpoints(store, config.ledgerSigningKey, log, { witness: createLedgerWitness(config) });
  const vapid = loadVapidKeys(config.push);
  const alerts = new AlertSender({ store, db, now, sms, runner }, outboxPlace(config, config.push.file), { ...vapid, subject: config.push.subject }, log);
  const appDeps: AppDeps = {
    config, store, personalData: store.personal, db, runner, now, loginGuard, sessions, attempts, uploads, sms, secret, storage,
    ledger: ledgerCheckpoints, webhooks, objects,
    push: { publicKey: vapid.publicKey, catchUp: () => alerts.catchUp(), chosen: (userId) => alerts.chosen(userId) },
  };
  const app = createApp({ ...appDeps, objects });
  // Hourly: uploads no command referenced within a day are deleted (any process may do it; it is idempotent).
  const sweep = setInterval(() => {
    sweepUnreferencedUploads({ ledger: uploads, storage: objects, db, store, runner }).catch((err) => log(`[uploads] sweep failed: ${String(err)}`));
  }, 60 * 60_000);
  sweep.unref();
  // Every minute: proofs past the auto-approval delay are approved by the system. Every process may
  // sweep; each approval is decided on its user's stream, so two sweeps never credit twice.
  let autoApproving = false;
  const autoApprove = setInterval(() => {
    if (autoApproving) return;
    autoApproving = true;
    runAutoApprovals({ store, db, now: now() })
      .then((r) => r.approved.length > 0 && log(`[review] auto-approved ${r.approved.length} submissions`))
      .catch((err) => log(`[review] auto-approval sweep failed: ${String(err)}`))
      .finally(() => (autoApproving = false));
  }, 60_000);
  autoApprove.unref();
  // At start and every minute: workflows a crash left unfinished are finished (docs/workflows.md).
  // Every process may sweep: steps are idempotent and each workflow's stream records a step once.
  let sweepingWorkflows = false;
  const sweepAbandoned = () => {
    if (sweepingWorkflows) return;
    sweepingWorkflows = true;
    sweepWorkflows(appDeps, WORKFLOW_DEFINITIONS, log)
      .then((n) => n > 0 && log(`[workflows] finished ${n} workflows left unfinished`))
      // Then the invitation bonuses whose moment came (an approval, a paid withdrawal): each a workflow.
      .then(() => sweepInvitations(appDeps, log))
      .then((n) => n > 0 && log(`[invitations] decided ${n} bonuses`))
      .catch((err) => log(`[workflows] sweep failed: ${String(err)}`))
      .finally(() => (sweepingWorkflows = false));
  };
  const workflowSweep = setInterval(sweepAbandoned, 60_000);
  workflowSweep.unref();
  await starting;
  sweepAbandoned();
  const invitations = followInvitationMilestones(appDeps, log);
  // Balances that warn: each crossing of a threshold recorded once (finance/balance-warnings.ts).
  const balances = followBalances(appDeps, log);
  webhooks.start();
  // Alerts outside the app follow the log from their own checkpoint (push/sender.ts).
  alerts.start();
  // The demo accounts sign in on the first request: their rows are in before the app answers.
  if (seeded.length > 0) await runner.waitFor(await store.headPosition(), 60_000);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: options.decorateFetch ? options.decorateFetch(app.fetch) : app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  // Idle keep-alive connections are kept longer than a proxy's or a client's own idle timeout (60 s
  // and 4 s are common): a server that closes first races the client's next request on that socket,
  // which then fails as "other side closed" (seen under load with Node's 5 s default).
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;

  return {
    url,
    port,
    seeded,
    store,
    personalData: store.personal,
    db,
    runner,
    // Middleware is registered as method ALL; only real routes are listed.
    routes: [...new Map(app.routes.filter((r) => r.method !== 'ALL').map((r) => [`${r.method} ${r.path}`, { method: r.method, path: r.path }])).values()],
    storageGone,
    sweepUploads: (now?: number) => sweepUnreferencedUploads({ ledger: uploads, storage: objects, db, store, runner, ...(now !== undefined && { now }) }),
    sweepWebhooks: () => webhooks.tick(),
    sweepInvitations: () => sweepInvitations(appDeps, log),
    checkBalances: () => balances.check(),
    async close(graceMs = 10_000) {
      // Stop accepting; idle keep-alive connections close now, busy ones once their response is out.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const force = setTimeout(() => (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.(), graceMs);
      await closed;
      clearTimeout(force);
      clearInterval(sweep);
      clearInterval(autoApprove);
      clearInterval(workflowSweep);
      await invitations.stop();
      await balances.stop();
      // The outbox senders stop with the read models: a pass of theirs waiting for them hears false
      // when the runner stops, sees it is stopping and hands its sends back.
      const senders = Promise.all([webhooks.stop(), alerts.stop()]);
      senders.catch(() => {}); // awaited below, once the runner has stopped
      storage.stop();
      await sessions.stop();
      attempts.close();
      uploads.close();
      unwake();
      await runner.stop();
      await senders;
      await db.destroy();
      // The head as this process leaves it, signed, after its last append.
      await ledgerCheckpoints.stop();
      await store.close();
      await checkpointer.stop();
      slot.release();
    },
  };
}
