import {
  ALERT_OF_NOTIFICATION,
  MONEY_ALERTS,
  PUSH_ALERT_KINDS,
  PUSH_TEXTS,
  type PushAlertKind,
  SMS_ALERTS,
  BALANCE_WARNING_NOTIFICATION,
  FINANCE_ALERTS,
  alertDueAt,
  eventCodec,
  isPlaceholder,
  renderText,
  rupeeText,
  streams,
} from '@kamai/contracts';
import { capability, userDecider } from '@kamai/domain';
import { findUserRecord } from '@kamai/projections';
import webpush from 'web-push';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps } from '../deps.ts';
import { Leases, retryDelay } from '../outbox/leases.ts';
import { type OutboxPlace, type OutboxSql, openOutboxSql } from '../outbox/sql.ts';
import type { VapidKeys } from './vapid.ts';

/** An alert older than this when the sender first sees it is not worth sending (a new push.sqlite reading the whole log). */
const STALE_AFTER_MS = 24 * 3_600_000;
/** A push service keeps an undelivered message this long (the phone may be off). */
const PUSH_TTL_SECONDS = 24 * 3600;
const SEND_TIMEOUT_MS = 10_000;
/** A claimed row is another process's for this long; after it, a crash's row is taken again. */
const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 8;
/** A failed alert is tried again after 30 s, then twice as long each time, at most an hour apart. */
const RETRY_FIRST_MS = 30_000;
const RETRY_MAX_MS = 3_600_000;
const BATCH = 200;
const POLL_MS = 1000;
/**
 * How often at most the shared checkpoint is moved over batches that took nothing in: on PostgreSQL
 * each move is a commit waiting for its flush (20 ms and more on a loaded machine), and a restart
 * re-reads at most this much of the log, judging it by headers.
 */
const SCANNED_MOVE_MS = 10_000;
/**
 * On PostgreSQL, how long after this process's append a pass starts at most: appends in that while
 * are read by one pass. A batch that takes something in blocks the event loop there for three round
 * trips (BEGIN, move, COMMIT); most take nothing in and block it for none (catchUp).
 */
const SHARED_PASS_AFTER_APPEND_MS = 50;

/** What a push message carries to the service worker (public/sw.js shows it). */
export interface PushPayload {
  alert: PushAlertKind;
  title: string;
  body: string;
  /** Where a tap opens the app. */
  url: string;
  /** One notification per event: a repeat replaces rather than stacks. */
  tag: string;
}

interface OutboxRow {
  id: string;
  user_id: string;
  alert: PushAlertKind;
  params: string;
  channel: 'push' | 'sms';
  endpoint: string | null;
  attempts: number;
}

/** Only the facts an alert's text uses: never the reason or the destination the notification also carries. */
function alertParams(params: Readonly<Record<string, unknown>> | undefined): Record<string, string | number> {
  const kept: Record<string, string | number> = {};
  for (const name of ['amountPaise', 'taskTitle', 'reference', 'thresholdPaise']) {
    const value = params?.[name];
    if (typeof value === 'string' || typeof value === 'number') kept[name] = value;
  }
  return kept;
}

/** The user events takeIn reads (a notification only when its key raises an alert). */
const TAKEN_IN_USER_EVENTS: ReadonlySet<string> = new Set(['PushSubscribed', 'PushUnsubscribed', 'PushAlertsChosen', 'UserErased', 'NotificationSent']);

/**
 * Whether the sender may take something in from this event, judged from its header and plain key
 * (it may be read sealed): a notification whose stored key raises no alert takes nothing in, one
 * without a key (an older shape) is decoded to see.
 */
function mayTakeIn(event: { streamId: string; type: string; data: unknown }): boolean {
  if (event.streamId === streams.balanceWarnings()) return true;
  if (!event.streamId.startsWith('user-') || !TAKEN_IN_USER_EVENTS.has(event.type)) return false;
  if (event.type !== 'NotificationSent') return true;
  const key = typeof event.data === 'object' && event.data !== null ? (event.data as { key?: unknown }).key : undefined;
  return typeof key !== 'string' || Object.hasOwn(ALERT_OF_NOTIFICATION, key);
}

/** The sender's tables: in DATA_DIR/push.sqlite, or in schema `kamai` beside the shared log. */
const TABLES = {
  sqlite: { checkpoint: 'checkpoint', subscriptions: 'subscriptions', choices: 'choices', outbox: 'outbox' },
  postgres: { checkpoint: 'kamai.push_checkpoint', subscriptions: 'kamai.push_subscriptions', choices: 'kamai.push_choices', outbox: 'kamai.push_outbox' },
};

/**
 * Sends alerts outside the app (Web Push, SMS for money) for the notifications the deciders record.
 * It follows the event log with its own checkpoint in DATA_DIR/push.sqlite (or in PostgreSQL beside
 * the log, EVENT_STORE=postgres, where every node shares it): each batch of events
 * turns into outbox rows and moves the checkpoint in one transaction, and a row is deleted only once
 * it was sent (or can never be), so a restart resumes where it stopped and loses no alert. Every API
 * process (every node) runs one: the checkpoint moves only from where it was read, so a batch is taken in once, and
 * a row is leased before it is sent, so it is sent by one process (at least once: a crash between the
 * send and the delete sends it again after the lease).
 *
 * The subscriptions and choices are kept here, from the person's events, in log order: an alert is
 * sent to the browsers subscribed when it was raised, and its kind is checked against the person's
 * choice when it goes (a non-money alert raised at night waits for 08:00 IST).
 */
export class AlertSender {
  private readonly sql: OutboxSql;
  private readonly t: (typeof TABLES)['sqlite'];
  private readonly leases: Leases;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: Pick<AppDeps, 'store' | 'db' | 'now' | 'sms' | 'runner'>,
    place: OutboxPlace,
    private readonly vapid: VapidKeys & { subject: string },
    private readonly log: (line: string) => void,
  ) {
    const pg = TABLES.postgres;
    this.sql = openOutboxSql(place, {
      // Endpoints and mobile-bound rows are personal: deleted bytes are zeroed (PostgreSQL: docs/privacy.md).
      pragmas: ['secure_delete = ON'],
      sqlite: `
      CREATE TABLE IF NOT EXISTS checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), position INTEGER NOT NULL);
      INSERT OR IGNORE INTO checkpoint (id, position) VALUES (1, 0);
      CREATE TABLE IF NOT EXISTS subscriptions (endpoint TEXT PRIMARY KEY, user_id TEXT NOT NULL, p256dh TEXT NOT NULL, auth TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS subscriptions_user ON subscriptions (user_id);
      CREATE TABLE IF NOT EXISTS choices (user_id TEXT PRIMARY KEY, alerts TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS outbox (
        id TEXT PRIMARY KEY, user_id TEXT NOT NULL, alert TEXT NOT NULL, params TEXT NOT NULL,
        channel TEXT NOT NULL, endpoint TEXT, due_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        lease_until INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX IF NOT EXISTS outbox_due ON outbox (due_at);
    `,
      postgres: `
      CREATE TABLE IF NOT EXISTS ${pg.checkpoint} (id integer PRIMARY KEY CHECK (id = 1), position double precision NOT NULL);
      INSERT INTO ${pg.checkpoint} (id, position) VALUES (1, 0) ON CONFLICT DO NOTHING;
      CREATE TABLE IF NOT EXISTS ${pg.subscriptions} (endpoint text PRIMARY KEY, user_id text NOT NULL, p256dh text NOT NULL, auth text NOT NULL);
      CREATE INDEX IF NOT EXISTS push_subscriptions_user ON ${pg.subscriptions} (user_id);
      CREATE TABLE IF NOT EXISTS ${pg.choices} (user_id text PRIMARY KEY, alerts text NOT NULL);
      CREATE TABLE IF NOT EXISTS ${pg.outbox} (
        id text PRIMARY KEY, user_id text NOT NULL, alert text NOT NULL, params text NOT NULL,
        channel text NOT NULL, endpoint text, due_at double precision NOT NULL, attempts integer NOT NULL DEFAULT 0,
        lease_until double precision NOT NULL DEFAULT 0);
      CREATE INDEX IF NOT EXISTS push_outbox_due ON ${pg.outbox} (due_at)`,
    });
    this.t = TABLES[this.sql.kind];
    this.leases = new Leases(this.sql, { table: this.t.outbox, key: 'id', due: 'due_at' });
  }

  /** Follows the log: a look each second, and at once after this process appends. */
  start(): void {
    const afterAppend = this.sql.kind === 'postgres' ? () => this.wakeSoon() : () => this.wake();
    const unhook = capability(this.deps.store, 'changeSignal')?.onAppended(afterAppend);
    this.timer = setInterval(() => {
      this.deliverWanted = true;
      this.wake();
    }, POLL_MS);
    this.timer.unref();
    this.unhook = unhook ?? null;
    this.wake();
  }

  private unhook: (() => void) | null = null;

  private soon: NodeJS.Timeout | null = null;

  /** Runs a pass within SHARED_PASS_AFTER_APPEND_MS (one for every append meanwhile). */
  private wakeSoon(): void {
    if (this.soon || this.stopped) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      this.wake();
    }, SHARED_PASS_AFTER_APPEND_MS);
  }

  /** Runs a pass now, or right after the one running. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((err: unknown) => this.log(`[push] ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * Whether the next pass looks for due rows: the timer's passes do, and a pass after this process
   * queued some; one after an append that queued nothing has none of its own to send (another
   * node's, and a retry's, wait for the timer, as they did).
   */
  private deliverWanted = true;

  private async pass(): Promise<void> {
    await this.catchUp();
    if (!this.deliverWanted) return;
    this.deliverWanted = false;
    await this.deliverDue();
  }

  /** Takes in every event after the checkpoint (what a route calls before it reads a choice). */
  async catchUp(): Promise<void> {
    for (;;) {
      const from = this.scannedTo();
      // Read sealed: most events take nothing in and are judged by their headers, with no decryption.
      let events = await this.deps.store.readAll({ after: from, limit: BATCH, sealed: true });
      const takesIn = events.some(mayTakeIn);
      // Rare (a subscription, a choice, an alert): read again opened, the same events first.
      if (takesIn) events = await this.deps.store.readAll({ after: from, limit: BATCH });
      if (events.length === 0) return this.moveCheckpoint(false);
      // Another catch-up of this process moved on meanwhile: read on from where it got to.
      if (from !== this.scanned) continue;
      const last = events.at(-1)!.position;
      if (!takesIn) this.scanned = last;
      else {
        const checkpoint = this.checkpoint;
        const now = this.deps.now();
        const took = this.sql.transaction(() => {
          // The checkpoint moves only from where this process last saw it: another process (or node)
          // that took a batch in first has moved it, and this one reads again from there. The UPDATE
          // waits for that other's transaction, so a batch is taken in once. Events between the
          // checkpoint and `from` take nothing in (scanned), so moving past them unread is the same.
          const moved = this.sql.all(`UPDATE ${this.t.checkpoint} SET position = ? WHERE id = 1 AND position = ? RETURNING 1`, last, checkpoint);
          if (moved.length === 0) return false;
          for (const recorded of events) this.takeIn(recorded, now);
          return true;
        });
        if (!took) {
          // Another process took in from this checkpoint: read on from where it got to.
          this.seeCheckpoint();
          continue;
        }
        this.checkpoint = this.scanned = last;
      }
      if (events.length < BATCH) return this.moveCheckpoint(false);
    }
  }

  /**
   * The checkpoint as this process last read or moved it, and how far past it every event takes
   * nothing in (scanned): each pass reads from there without a blocking round trip for the
   * checkpoint, and a batch that takes nothing in moves no shared row (PostgreSQL: a commit waiting
   * for its flush per pass). The shared checkpoint follows now and then (moveCheckpoint).
   */
  private checkpoint = 0;
  private scanned: number | null = null;
  private movedAt = 0;

  private scannedTo(): number {
    if (this.scanned === null) this.seeCheckpoint();
    return this.scanned!;
  }

  /** Reads the shared checkpoint: another process may have moved it past what this one scanned. */
  private seeCheckpoint(): void {
    this.checkpoint = this.position();
    // What was scanned past the old checkpoint takes nothing in, past the new one too.
    this.scanned = Math.max(this.scanned ?? 0, this.checkpoint);
  }

  /**
   * Moves the shared checkpoint over what was scanned, at most once a SCANNED_MOVE_MS unless `now`: a
   * restart (or another node) reads from there, so nothing it re-reads takes anything in.
   */
  private moveCheckpoint(now: boolean): void {
    const scanned = this.scanned;
    if (scanned === null || scanned <= this.checkpoint || (!now && performance.now() - this.movedAt < SCANNED_MOVE_MS)) return;
    this.movedAt = performance.now();
    const moved = this.sql.all(`UPDATE ${this.t.checkpoint} SET position = ? WHERE id = 1 AND position = ? RETURNING 1`, scanned, this.checkpoint);
    if (moved.length > 0) this.checkpoint = scanned;
    else this.seeCheckpoint();
  }

  private position(): number {
    return this.sql.all<{ position: number }>(`SELECT position FROM ${this.t.checkpoint} WHERE id = 1`)[0]!.position;
  }

  private takeIn(recorded: Parameters<typeof eventCodec.decode>[0] & { id: string; streamId: string }, now: Date): void {
    if (!mayTakeIn(recorded)) return;
    if (recorded.streamId === streams.balanceWarnings()) return this.takeInWarning(recorded, now);
    const event = eventCodec.decode(recorded);
    if (!event) return;
    const userId = recorded.streamId.slice('user-'.length);
    switch (event.type) {
      case 'PushSubscribed':
        // An erased person's endpoint reads as a placeholder: nothing to send to.
        if (isPlaceholder(event.data.endpoint) || isPlaceholder(event.data.p256dh)) return;
        this.sql.run(
          `INSERT INTO ${this.t.subscriptions} (endpoint, user_id, p256dh, auth) VALUES (?, ?, ?, ?) ON CONFLICT(endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth`,
          event.data.endpoint, userId, event.data.p256dh, event.data.auth,
        );
        return;
      case 'PushUnsubscribed':
        this.sql.run(`DELETE FROM ${this.t.subscriptions} WHERE endpoint = ? AND user_id = ?`, event.data.endpoint, userId);
        this.sql.run(`DELETE FROM ${this.t.outbox} WHERE endpoint = ? AND user_id = ? AND channel = 'push'`, event.data.endpoint, userId);
        return;
      case 'PushAlertsChosen':
        this.sql.run(`INSERT INTO ${this.t.choices} (user_id, alerts) VALUES (?, ?) ON CONFLICT(user_id) DO UPDATE SET alerts = excluded.alerts`, userId, JSON.stringify(event.data.alerts));
        return;
      case 'UserErased':
        for (const table of [this.t.subscriptions, this.t.choices, this.t.outbox]) this.sql.run(`DELETE FROM ${table} WHERE user_id = ?`, userId);
        return;
      case 'NotificationSent': {
        const alert = event.data.key ? ALERT_OF_NOTIFICATION[event.data.key] : undefined;
        if (!alert || now.getTime() - Date.parse(event.data.sentAt) > STALE_AFTER_MS) return;
        this.queue(recorded.id, userId, alert, alertParams(event.data.params), now);
        return;
      }
      default:
        return;
    }
  }

  /** Outbox rows of one alert to one person: one per browser subscribed now, and the SMS for money. */
  private queue(tag: string, userId: string, alert: PushAlertKind, params: Record<string, string | number>, now: Date): void {
    const due = alertDueAt(alert, now).getTime();
    const json = JSON.stringify(params);
    this.deliverWanted = true;
    const insert = `INSERT INTO ${this.t.outbox} (id, user_id, alert, params, channel, endpoint, due_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;
    const endpoints = this.sql.all<{ endpoint: string }>(`SELECT endpoint FROM ${this.t.subscriptions} WHERE user_id = ? ORDER BY endpoint`, userId);
    endpoints.forEach(({ endpoint }, i) => this.sql.run(insert, `${tag}:push:${i}`, userId, alert, json, 'push', endpoint, due));
    if (SMS_ALERTS.includes(alert)) this.sql.run(insert, `${tag}:sms`, userId, alert, json, 'sms', null, due);
  }

  /**
   * A balance's warning (one event on `balance-warnings`) alerts each finance member it names, as the
   * notifications read model shows it to each: taken in with the checkpoint, so once.
   */
  private takeInWarning(recorded: Parameters<typeof eventCodec.decode>[0] & { id: string }, now: Date): void {
    const event = eventCodec.decode(recorded);
    if (event?.type !== 'BalanceWarningRaised' || now.getTime() - Date.parse(event.data.raisedAt) > STALE_AFTER_MS) return;
    const alert = BALANCE_WARNING_NOTIFICATION[event.data.balance];
    const params = { amountPaise: event.data.amountPaise, thresholdPaise: event.data.thresholdPaise };
    // The tag (before the first ':') names the event: one notification per event on the phone.
    for (const userId of event.data.notify) this.queue(`${recorded.id}:${userId}`, userId, alert, params, now);
  }

  /** The alert kinds the person wants: every kind until they choose. */
  chosen(userId: string): PushAlertKind[] {
    const [row] = this.sql.all<{ alerts: string }>(`SELECT alerts FROM ${this.t.choices} WHERE user_id = ?`, userId);
    if (!row) return [...PUSH_ALERT_KINDS];
    const alerts = JSON.parse(row.alerts) as string[];
    return PUSH_ALERT_KINDS.filter((kind) => alerts.includes(kind));
  }

  /** How many browsers of the person's receive alerts. */
  subscriptionCount(userId: string): number {
    return Number(this.sql.all<{ n: number | string }>(`SELECT count(*) AS n FROM ${this.t.subscriptions} WHERE user_id = ?`, userId)[0]!.n);
  }

  private async deliverDue(): Promise<void> {
    // On a shared database another node may have taken alerts in ahead of this node's read models,
    // which name the person's language and mobile: they are sent once those have caught up.
    const { runner } = this.deps;
    const position = this.position();
    // The wait ends early when the read models stop (the server stops them with this sender).
    if (position > runner.position) await runner.waitFor(position, LEASE_MS / 2);
    if (this.stopped) return;
    const now = this.deps.now().getTime();
    const rows = this.leases.due<OutboxRow>(now, 50, 'id, user_id, alert, params, channel, endpoint, attempts');
    // A full page may leave more due: the next pass looks again.
    if (rows.length === 50) this.deliverWanted = true;
    for (const row of rows) {
      if (this.stopped) return;
      // Claimed one at a time, as it is sent: a batch's lease could lapse while the first ones are still being tried.
      if (!this.leases.claimOne(row.id, now, LEASE_MS)) continue;
      try {
        await this.deliver(row);
        this.sql.run(`DELETE FROM ${this.t.outbox} WHERE id = ?`, row.id);
      } catch (err) {
        const attempts = row.attempts + 1;
        if (attempts >= MAX_ATTEMPTS) {
          this.log(`[push] ${row.channel} alert ${row.alert} for user ${row.user_id} given up after ${attempts} attempts: ${String(err)}`);
          this.sql.run(`DELETE FROM ${this.t.outbox} WHERE id = ?`, row.id);
        } else {
          const retryAt = this.deps.now().getTime() + retryDelay(RETRY_FIRST_MS, attempts, RETRY_MAX_MS);
          this.sql.run(`UPDATE ${this.t.outbox} SET attempts = ?, due_at = ?, lease_until = 0 WHERE id = ?`, attempts, retryAt, row.id);
        }
      }
    }
  }

  private async deliver(row: OutboxRow): Promise<void> {
    if (!this.chosen(row.user_id).includes(row.alert)) return;
    const user = await findUserRecord(this.deps.db, row.user_id);
    if (!user) return;
    const language = user.language === 'hi' ? 'hi' : 'en';
    const params = JSON.parse(row.params) as Record<string, string | number>;
    const locale = language === 'hi' ? 'hi-IN' : 'en-IN';
    const texts = PUSH_TEXTS[row.alert][language];
    const title = renderText(texts.title, params, locale);
    const body = renderText(texts.body, params, locale);
    if (row.channel === 'sms') {
      if (!user.mobile || isPlaceholder(user.mobile)) return;
      const money = (value: string | number | undefined) => (typeof value === 'number' ? rupeeText(value, locale) : '');
      const amount = money(params.amountPaise);
      await this.deps.sms.sendAlert({
        mobile: user.mobile,
        language,
        alert: row.alert as 'payout_paid' | 'payout_failed' | 'payout_float_low' | 'tax_payable_high',
        text: `${title}: ${body}`,
        variables: FINANCE_ALERTS.includes(row.alert) ? { amount, threshold: money(params.thresholdPaise) } : { amount, reference: String(params.reference ?? '') },
      });
      return;
    }
    const subscription = row.endpoint
      ? this.sql.all<{ endpoint: string; p256dh: string; auth: string }>(`SELECT endpoint, p256dh, auth FROM ${this.t.subscriptions} WHERE endpoint = ? AND user_id = ?`, row.endpoint, row.user_id)[0]
      : undefined;
    if (!subscription) return;
    const payload: PushPayload = { alert: row.alert, title, body, url: FINANCE_ALERTS.includes(row.alert) ? '/admin/finance' : MONEY_ALERTS.includes(row.alert) ? '/wallet' : '/', tag: row.id.split(':')[0]! };
    // web-push encrypts (RFC 8291) and signs (VAPID, RFC 8292); the request itself goes by fetch.
    const request = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, JSON.stringify(payload), {
      vapidDetails: { subject: this.vapid.subject, publicKey: this.vapid.publicKey, privateKey: this.vapid.privateKey },
      TTL: PUSH_TTL_SECONDS,
      urgency: MONEY_ALERTS.includes(row.alert) ? 'high' : 'normal',
    });
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ?? null,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) {
      // The browser dropped the subscription: record it, so it is not tried again.
      await handleCommand(
        this.deps.store,
        streams.user(row.user_id),
        userDecider,
        { type: 'UnsubscribePush', data: { endpoint: subscription.endpoint, reason: 'expired' }, now: this.deps.now().toISOString() },
        { actor: 'push' },
      );
      this.sql.run(`DELETE FROM ${this.t.subscriptions} WHERE endpoint = ?`, subscription.endpoint);
      return;
    }
    if (!response.ok) throw new Error(`push service answered ${response.status}`);
  }

  /** Stops following and waits for the pass under way; the outbox keeps what was not sent. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.unhook?.();
    await this.running;
    try {
      // What was scanned is not scanned again after a restart.
      this.moveCheckpoint(true);
    } catch (err) {
      this.log(`[push] ${err instanceof Error ? err.message : String(err)}`);
    }
    this.sql.close();
  }
}
