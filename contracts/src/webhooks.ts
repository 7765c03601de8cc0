import * as v from 'valibot';
import { refusal } from './refusal.ts';

/**
 * Signed webhooks for finance and BI tools (docs/api.md#webhooks): an admin registers an endpoint
 * and the event kinds it wants; each event of those kinds is delivered to it, signed, with a
 * delivery id that stays the same on every retry.
 */

/** The event kinds an endpoint may ask for: what a finance or BI tool follows. */
export const WEBHOOK_EVENT_KINDS = [
  'withdrawal.requested',
  'withdrawal.sent_to_bank',
  'withdrawal.paid',
  'withdrawal.failed',
  'withdrawal.returned',
  'adjustment.booked',
  'funding.booked',
  'proof.approved',
] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** The headers of a delivery. The signature is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Kamai-Signature';
export const WEBHOOK_DELIVERY_ID_HEADER = 'Kamai-Delivery-Id';
export const WEBHOOK_EVENT_HEADER = 'Kamai-Event';

/** Retries end this long after a delivery was first due: it is then `failed` (a replay queues it again). */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Retries wait twice as long each time, never longer than this. */
export const WEBHOOK_RETRY_MAX_DELAY_MS = 60 * 60 * 1000;
/** A delivery's answer must come within this long, else it counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Most endpoints at once (each one is sent every event of its kinds). */
export const WEBHOOK_ENDPOINTS_MAX = 20;
/** The delivery log answers the newest this many deliveries. */
export const WEBHOOK_DELIVERY_LOG_SIZE = 100;

export const WEBHOOK_MESSAGES = {
  url: 'Enter the endpoint URL (https://…, at most 500 characters)',
  httpsRequired: 'The endpoint must use https',
  events: 'Choose at least one event kind',
  eventKind: 'Unknown event kind',
  notFound: 'Webhook endpoint not found',
  deleted: 'This webhook endpoint was deleted',
  tooMany: 'At most {max} webhook endpoints can be registered',
  fromPosition: 'fromPosition is a whole number from 0',
  exists: 'This webhook endpoint is already registered',
  privateAddress: 'The endpoint must be on the public internet, not a private or local address',
} as const;

/** POST /api/admin/webhooks */
export const WebhookEndpointRequest = v.object({
  url: v.pipe(
    v.string(refusal('webhook.url')),
    v.trim(),
    v.maxLength(500, refusal('webhook.url')),
    v.url(refusal('webhook.url')),
    v.regex(/^https?:\/\//i, refusal('webhook.url')),
  ),
  events: v.pipe(
    v.array(v.picklist(WEBHOOK_EVENT_KINDS, refusal('webhook.eventKind')), refusal('webhook.events')),
    v.minLength(1, refusal('webhook.events')),
    v.maxLength(WEBHOOK_EVENT_KINDS.length * 2, refusal('webhook.events')),
  ),
});
export type WebhookEndpointRequest = v.InferOutput<typeof WebhookEndpointRequest>;

/** POST /api/admin/webhooks/:id/replay: every event of the endpoint's kinds from this log position on is sent again. */
export const WebhookReplayRequest = v.object({
  fromPosition: v.pipe(v.number(refusal('webhook.fromPosition')), v.integer(refusal('webhook.fromPosition')), v.minValue(0, refusal('webhook.fromPosition'))),
});
export type WebhookReplayRequest = v.InferOutput<typeof WebhookReplayRequest>;

/** An endpoint as the admin screen lists it (never its secret). */
export const WebhookEndpointBody = v.object({
  id: v.string(),
  url: v.string(),
  events: v.array(v.picklist(WEBHOOK_EVENT_KINDS)),
  createdBy: v.string(),
  createdAt: v.string(),
  /** The log position it was registered at: events after it are delivered. */
  position: v.number(),
});
export type WebhookEndpointBody = v.InferOutput<typeof WebhookEndpointBody>;

/** The 201 of a registration: the endpoint and its signing secret, shown this once. */
export const WebhookEndpointCreatedBody = v.object({ ...WebhookEndpointBody.entries, secret: v.string() });
export type WebhookEndpointCreatedBody = v.InferOutput<typeof WebhookEndpointCreatedBody>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One row of an endpoint's delivery log. */
export const WebhookDeliveryBody = v.object({
  /** The `Kamai-Delivery-Id`: the same on every retry and replay of this event to this endpoint. */
  id: v.string(),
  event: v.picklist(WEBHOOK_EVENT_KINDS),
  position: v.number(),
  status: v.picklist(WEBHOOK_DELIVERY_STATUSES),
  attempts: v.number(),
  /** The HTTP status of the last attempt (null: no answer, or not tried yet). */
  lastStatusCode: v.nullable(v.number()),
  /** Why the last attempt failed, in a few words (a timeout, a refused connection). */
  lastError: v.nullable(v.string()),
  nextAttemptAt: v.nullable(v.string()),
  deliveredAt: v.nullable(v.string()),
  createdAt: v.string(),
});
export type WebhookDeliveryBody = v.InferOutput<typeof WebhookDeliveryBody>;

/** What a replay queued. */
export const WebhookReplayBody = v.object({ queued: v.number() });

/**
 * The JSON body of a delivery: ids and amounts only (decimal rupee strings, as everywhere on the
 * wire), never a name, mobile number, UPI id, account number or free text.
 */
export interface WebhookPayload {
  /** The delivery id (as the header). */
  id: string;
  type: WebhookEventKind;
  /** The event's position in the log: replay from it with `fromPosition`. */
  position: number;
  occurredAt: string;
  data: {
    userId?: string;
    withdrawalId?: string;
    batchId?: string;
    adjustmentId?: string;
    direction?: 'credit' | 'debit';
    fundingId?: string;
    submissionId?: string;
    taskId?: string;
    /** Decimal rupees. */
    amount?: string;
  };
}
