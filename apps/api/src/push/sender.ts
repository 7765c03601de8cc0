import {
  ALERT_OF_NOTIFICATION,
  MONEY_ALERTS,
  PUSH_ALERT_KINDS,
  PUSH_TEXTS,
  type PushAlertKind,
  SMS_ALERTS,
  alertDueAt,
  eventCodec,
  isPlaceholder,
  renderText,
  rupeeText,
  streams,
} from '@kamai/contracts';
import { capability, userDecider } from '@kamai/domain';
import { findUserRecord } from '@kamai/projections';
import type Database from 'better-sqlite3';
import webpush from 'web-push';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps } from '../deps.ts';
import { Leases, retryDelay } from '../outbox/leases.ts';
import { openWalFile } from '../sqlite-file.ts';
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
  for (const name of ['amountPaise', 'taskTitle', 'reference']) {
    const value = params?.[name];
    if (typeof value === 'string' || typeof value === 'number') kept[name] = value;
  }
  return kept;
}

/**
 * Sends alerts outside the app (Web Push, SMS for money) for the notifications the deciders record.
 * It follows the event log with its own checkpoint in DATA_DIR/push.sqlite: each batch of events
 * turns into outbox rows and moves the checkpoint in one transaction, and a row is deleted only once
 * it was sent (or can never be), so a restart resumes where it stopped and loses no alert. Every API
 * process runs one: the checkpoint is re-read under the write lock, so a batch is taken in once, and
 * a row is leased before it is sent, so it is sent by one process (at least once: a crash between the
 * send and the delete sends it again after the lease).
 *
 * The subscriptions and choices are kept here, from the person's events, in log order: an alert is
 * sent to the browsers subscribed when it was raised, and its kind is checked against the person's
 * choice when it goes (a non-money alert raised at night waits for 08:00 IST).
 */
export class AlertSender {
  private readonly db: Database.Database;
  private readonly leases: Leases;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: Pick<AppDeps, 'store' | 'db' | 'now' | 'sms'>,
    file: string,
    private readonly vapid: VapidKeys & { subject: string },
    private readonly log: (line: string) => void,
  ) {
    this.db = openWalFile(file, 5000);
    // Endpoints and mobile-bound rows are personal: deleted bytes are zeroed.
    this.db.pragma('secure_delete = ON');
    this.db.exec(`
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
    `);
    this.leases = new Leases(this.db, { table: 'outbox', key: 'id', due: 'due_at' });
  }

  /** Follows the log: a look each second, and at once after this process appends. */
  start(): void {
    const unhook = capability(this.deps.store, 'changeSignal')?.onAppended(() => this.wake());
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.unhook = unhook ?? null;
    this.wake();
  }

  private unhook: (() => void) | null = null;

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

  private async pass(): Promise<void> {
    await this.catchUp();
    await this.deliverDue();
  }

  /** Takes in every event after the checkpoint (what a route calls before it reads a choice). */
  async catchUp(): Promise<void> {
    for (;;) {
      const from = this.position();
      const events = await this.deps.store.readAll({ after: from, limit: BATCH });
      if (events.length === 0) return;
      const now = this.deps.now();
      this.db
        .transaction(() => {
          // Another process took this batch in first: read again from its checkpoint.
          if (this.position() !== from) return;
          for (const recorded of events) this.takeIn(recorded, now);
          this.db.prepare('UPDATE checkpoint SET position = ? WHERE id = 1').run(events.at(-1)!.position);
        })
        .immediate();
    }
  }

  private position(): number {
    return (this.db.prepare('SELECT position FROM checkpoint WHERE id = 1').get() as { position: number }).position;
  }

  private takeIn(recorded: Parameters<typeof eventCodec.decode>[0] & { id: string; streamId: string }, now: Date): void {
    if (!recorded.streamId.startsWith('user-')) return;
    const event = eventCodec.decode(recorded);
    if (!event) return;
    const userId = recorded.streamId.slice('user-'.length);
    switch (event.type) {
      case 'PushSubscribed':
        // An erased person's endpoint reads as a placeholder: nothing to send to.
        if (isPlaceholder(event.data.endpoint) || isPlaceholder(event.data.p256dh)) return;
        this.db
          .prepare('INSERT INTO subscriptions (endpoint, user_id, p256dh, auth) VALUES (?, ?, ?, ?) ON CONFLICT(endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth')
          .run(event.data.endpoint, userId, event.data.p256dh, event.data.auth);
        return;
      case 'PushUnsubscribed':
        this.db.prepare('DELETE FROM subscriptions WHERE endpoint = ? AND user_id = ?').run(event.data.endpoint, userId);
        this.db.prepare("DELETE FROM outbox WHERE endpoint = ? AND user_id = ? AND channel = 'push'").run(event.data.endpoint, userId);
        return;
      case 'PushAlertsChosen':
        this.db.prepare('INSERT INTO choices (user_id, alerts) VALUES (?, ?) ON CONFLICT(user_id) DO UPDATE SET alerts = excluded.alerts').run(userId, JSON.stringify(event.data.alerts));
        return;
      case 'UserErased':
        for (const table of ['subscriptions', 'choices', 'outbox']) this.db.prepare(`DELETE FROM ${table} WHERE user_id = ?`).run(userId);
        return;
      case 'NotificationSent': {
        const alert = event.data.key ? ALERT_OF_NOTIFICATION[event.data.key] : undefined;
        if (!alert || now.getTime() - Date.parse(event.data.sentAt) > STALE_AFTER_MS) return;
        const due = alertDueAt(alert, now).getTime();
        const params = JSON.stringify(alertParams(event.data.params));
        const insert = this.db.prepare('INSERT OR IGNORE INTO outbox (id, user_id, alert, params, channel, endpoint, due_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
        const endpoints = this.db.prepare('SELECT endpoint FROM subscriptions WHERE user_id = ?').all(userId) as { endpoint: string }[];
        endpoints.forEach(({ endpoint }, i) => insert.run(`${recorded.id}:push:${i}`, userId, alert, params, 'push', endpoint, due));
        if (SMS_ALERTS.includes(alert)) insert.run(`${recorded.id}:sms`, userId, alert, params, 'sms', null, due);
        return;
      }
      default:
        return;
    }
  }

  /** The alert kinds the person wants: every kind until they choose. */
  chosen(userId: string): PushAlertKind[] {
    const row = this.db.prepare('SELECT alerts FROM choices WHERE user_id = ?').get(userId) as { alerts: string } | undefined;
    if (!row) return [...PUSH_ALERT_KINDS];
    const alerts = JSON.parse(row.alerts) as string[];
    return PUSH_ALERT_KINDS.filter((kind) => alerts.includes(kind));
  }

  /** How many browsers of the person's receive alerts. */
  subscriptionCount(userId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM subscriptions WHERE user_id = ?').get(userId) as { n: number }).n;
  }

  private async deliverDue(): Promise<void> {
    const now = this.deps.now().getTime();
    const rows = this.leases.due<OutboxRow>(now, 50, 'id, user_id, alert, params, channel, endpoint, attempts');
    for (const row of rows) {
      if (this.stopped) return;
      // Claimed one at a time, as it is sent: a batch's lease could lapse while the first ones are still being tried.
      if (!this.leases.claimOne(row.id, now, LEASE_MS)) continue;
      try {
        await this.deliver(row);
        this.db.prepare('DELETE FROM outbox WHERE id = ?').run(row.id);
      } catch (err) {
        const attempts = row.attempts + 1;
        if (attempts >= MAX_ATTEMPTS) {
          this.log(`[push] ${row.channel} alert ${row.alert} for user ${row.user_id} given up after ${attempts} attempts: ${String(err)}`);
          this.db.prepare('DELETE FROM outbox WHERE id = ?').run(row.id);
        } else {
          const retryAt = this.deps.now().getTime() + retryDelay(RETRY_FIRST_MS, attempts, RETRY_MAX_MS);
          this.db.prepare('UPDATE outbox SET attempts = ?, due_at = ?, lease_until = 0 WHERE id = ?').run(attempts, retryAt, row.id);
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
      const amount = typeof params.amountPaise === 'number' ? rupeeText(params.amountPaise, locale) : '';
      await this.deps.sms.sendAlert({
        mobile: user.mobile,
        language,
        alert: row.alert as 'payout_paid' | 'payout_failed',
        text: `${title}: ${body}`,
        variables: { amount, reference: String(params.reference ?? '') },
      });
      return;
    }
    const subscription = row.endpoint
      ? (this.db.prepare('SELECT endpoint, p256dh, auth FROM subscriptions WHERE endpoint = ? AND user_id = ?').get(row.endpoint, row.user_id) as
          | { endpoint: string; p256dh: string; auth: string }
          | undefined)
      : undefined;
    if (!subscription) return;
    const payload: PushPayload = { alert: row.alert, title, body, url: MONEY_ALERTS.includes(row.alert) ? '/wallet' : '/', tag: row.id.split(':')[0]! };
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
      this.db.prepare('DELETE FROM subscriptions WHERE endpoint = ?').run(subscription.endpoint);
      return;
    }
    if (!response.ok) throw new Error(`push service answered ${response.status}`);
  }

  /** Stops following and waits for the pass under way; the outbox keeps what was not sent. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unhook?.();
    await this.running;
    this.db.close();
  }
}
