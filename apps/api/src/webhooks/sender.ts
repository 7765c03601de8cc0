import {
  WEBHOOK_DELIVERY_ID_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMEOUT_MS,
} from '@kamai/contracts';
import { type ReadDbHandle, type ReadModels, findWebhookDelivery, findWebhookEndpoint, webhookDeliveriesQueuedAfter } from '@kamai/projections';
import type { KeyStore } from '../privacy/key-store.ts';
import { logger } from '../observability/logger.ts';
import { webhookTargetPublic } from './address.ts';
import type { OutboxPlace } from '../outbox/sql.ts';
import { type SendState, WebhookOutbox } from './outbox.ts';
import { openWebhookSecret, sealWebhookSecret, signWebhook } from './signing.ts';

export interface WebhookSenderOptions {
  /** DATA_DIR/webhooks.sqlite, or the shared database (EVENT_STORE=postgres). */
  place: OutboxPlace;
  db: ReadDbHandle;
  /** This process's read models: a delivery another node took in is sent once they have reached it. */
  readModels: Pick<ReadModels, 'position' | 'waitFor'>;
  keys: KeyStore;
  /** The first retry's wait (WEBHOOK_RETRY_FIRST_MS). */
  retryFirstMs: number;
  /** How often it looks for new and due deliveries. */
  pollMs?: number;
  /** Deliveries may go to loopback (WEBHOOK_HTTP_LOOPBACK, the tests); never to other private addresses. */
  allowLoopback: boolean;
}

/** Longer than an attempt can take: a process that died mid-send leaves its claim to lapse after this. */
const LEASE_MS = WEBHOOK_TIMEOUT_MS * 3;
/** Deliveries sent at once by one process. */
const BATCH = 8;
/** The delivery log's `lastError` for an endpoint whose host is, or resolves to, a private address. */
export const PRIVATE_ADDRESS = 'private_address';

/**
 * Sends the deliveries the webhooks read model queues (projections/src/webhooks), signed, each
 * until the receiver answers 2xx, with backoff for 24 hours. It runs in every API process: the
 * outbox file says what was sent and lets one process at a time claim a delivery; what was pending
 * when a process stopped is sent by the next one (or the restarted one).
 */
export class WebhookSender {
  readonly outbox: WebhookOutbox;
  readonly #options: WebhookSenderOptions;
  readonly #secrets = new Map<string, string>();
  readonly #inFlight = new Map<string, { send: SendState; abort: AbortController }>();
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #stopped = false;

  constructor(options: WebhookSenderOptions) {
    this.#options = options;
    this.outbox = new WebhookOutbox(options.place);
  }

  /** An endpoint's secret as its registration event keeps it. */
  seal(endpointId: string, secret: string): string {
    return sealWebhookSecret(this.#options.keys, endpointId, secret);
  }

  start(): void {
    const poll = this.#options.pollMs ?? Math.min(1000, this.#options.retryFirstMs);
    this.#timer = setInterval(() => void this.tick(), poll);
    this.#timer.unref();
    void this.tick();
  }

  /** One round: take in what the read model queued, then send what is due. Never two rounds at once. */
  tick(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.#running ??= this.#round()
      .catch((err) => logger.error({ err }, 'webhooks: a sending round failed'))
      .finally(() => (this.#running = null));
    return this.#running;
  }

  async #round(): Promise<void> {
    const { db } = this.#options;
    const queued = await webhookDeliveriesQueuedAfter(db, this.outbox.cursor());
    if (this.#stopped) return;
    this.outbox.take(queued, Date.now());
    for (;;) {
      const due = this.outbox.claim(Date.now(), LEASE_MS, BATCH);
      if (due.length === 0 || this.#stopped) {
        this.outbox.release(due);
        return;
      }
      await Promise.all(due.map((send) => this.#send(send)));
    }
  }

  async #send(send: SendState): Promise<void> {
    const { db, keys, retryFirstMs, allowLoopback, readModels } = this.#options;
    // On a shared database another node may have taken it in from read models ahead of this node's:
    // absent here until they catch up, which is not the endpoint's deletion.
    // The wait ends early when the read models stop (the server stops them with this sender).
    if (send.generation > readModels.position) await readModels.waitFor(send.generation, LEASE_MS / 2);
    // Stopping: handed back for the next process to take, as an in-flight send is.
    if (this.#stopped) return this.outbox.release([send]);
    const delivery = await findWebhookDelivery(db, send.deliveryId);
    const endpoint = delivery && (await findWebhookEndpoint(db, delivery.endpoint_id));
    if (!delivery || !endpoint || endpoint.deletedAt !== null) {
      this.outbox.cancel(send);
      return;
    }
    // Its name may point somewhere private now that did not at registration: not sent, and not retried.
    if (!(await webhookTargetPublic(endpoint.url, allowLoopback))) {
      this.outbox.refused(send, PRIVATE_ADDRESS, Date.now());
      return;
    }
    let secret = this.#secrets.get(endpoint.id);
    if (secret === undefined) {
      secret = openWebhookSecret(keys, endpoint.id, endpoint.sealedSecret);
      this.#secrets.set(endpoint.id, secret);
    }
    const abort = new AbortController();
    this.#inFlight.set(send.deliveryId, { send, abort });
    const timeout = setTimeout(() => abort.abort(new Error('timeout')), WEBHOOK_TIMEOUT_MS);
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Kamai-Webhooks/1',
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, delivery.body, Math.floor(Date.now() / 1000)),
          [WEBHOOK_DELIVERY_ID_HEADER]: send.deliveryId,
          [WEBHOOK_EVENT_HEADER]: delivery.kind,
        },
        body: delivery.body,
        // A redirect is not followed: the endpoint registered is the one that gets the body.
        redirect: 'manual',
        signal: abort.signal,
      });
      await res.body?.cancel().catch(() => {});
      if (res.status >= 200 && res.status < 300) this.outbox.delivered(send, res.status, Date.now());
      else this.outbox.failed(send, res.status, `HTTP ${res.status}`, Date.now(), retryFirstMs);
    } catch (err) {
      // Stopping: the claim is given back below, to be sent by the next process at once.
      if (this.#stopped) return;
      const reason = abort.signal.aborted ? 'timeout' : err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
      this.outbox.failed(send, null, reason, Date.now(), retryFirstMs);
    } finally {
      clearTimeout(timeout);
      this.#inFlight.delete(send.deliveryId);
    }
  }

  /** Stops sending: attempts in flight are abandoned and their claims given back, so nothing waits for a lease after a restart. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    const abandoned = [...this.#inFlight.values()];
    for (const { abort } of abandoned) abort.abort(new Error('stopping'));
    await this.#running;
    this.outbox.release(abandoned.map(({ send }) => send));
    this.outbox.close();
  }
}
