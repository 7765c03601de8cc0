import * as v from 'valibot';
import { WEBHOOK_EVENT_KINDS } from '../webhooks.ts';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());

/**
 * `webhook-<id>`: one endpoint registered by an admin. Its signing secret is kept sealed
 * (AES-256-GCM under a system key of the key store, bound to the endpoint id), never in plain text.
 */
export const webhookEvents = {
  WebhookEndpointRegistered: v.object({
    endpointId: v.string(),
    url: v.string(),
    events: v.array(v.picklist(WEBHOOK_EVENT_KINDS)),
    /** base64url of nonce, ciphertext and tag. */
    sealedSecret: v.string(),
    registeredBy: v.string(),
    registeredAt: IsoTime,
  }),
  WebhookEndpointDeleted: v.object({ endpointId: v.string(), deletedBy: v.string(), deletedAt: IsoTime }),
  /** Every event of the endpoint's kinds from `fromPosition` on is queued again (same delivery ids). */
  WebhookReplayRequested: v.object({ endpointId: v.string(), fromPosition: v.pipe(v.number(), v.integer(), v.minValue(0)), requestedBy: v.string(), requestedAt: IsoTime }),
};
