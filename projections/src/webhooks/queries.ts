import type { WebhookEventKind } from '@kamai/contracts';
import type { ReadDbHandle } from '../db.ts';

export interface WebhookEndpointRow {
  id: string;
  url: string;
  events: WebhookEventKind[];
  sealedSecret: string;
  createdBy: string;
  createdAt: string;
  position: number;
  deletedAt: string | null;
}

const endpointColumns = ['id', 'url', 'events', 'sealed_secret', 'created_by', 'created_at', 'position', 'deleted_at'] as const;

function endpointOf(row: { id: string; url: string; events: string; sealed_secret: string; created_by: string; created_at: string; position: number; deleted_at: string | null }): WebhookEndpointRow {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventKind[],
    sealedSecret: row.sealed_secret,
    createdBy: row.created_by,
    createdAt: row.created_at,
    position: row.position,
    deletedAt: row.deleted_at,
  };
}

/** The endpoints not deleted, oldest first. */
export async function listWebhookEndpoints(db: ReadDbHandle): Promise<WebhookEndpointRow[]> {
  const rows = await db.selectFrom('webhook_endpoints').select(endpointColumns).where('deleted_at', 'is', null).orderBy('position').execute();
  return rows.map(endpointOf);
}

/** One endpoint, deleted or not. */
export async function findWebhookEndpoint(db: ReadDbHandle, id: string): Promise<WebhookEndpointRow | undefined> {
  const row = await db.selectFrom('webhook_endpoints').select(endpointColumns).where('id', '=', id).executeTakeFirst();
  return row && endpointOf(row);
}

/** Deliveries queued after `position` (by an event or a replay), in the order they were queued. */
export async function webhookDeliveriesQueuedAfter(db: ReadDbHandle, position: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'endpoint_id', 'queued_position', 'created_at'])
    .where('queued_position', '>', position)
    .orderBy('queued_position')
    .orderBy('event_position')
    .execute();
}

/** A delivery's endpoint and the exact body to send. */
export async function findWebhookDelivery(db: ReadDbHandle, id: string) {
  return db.selectFrom('webhook_deliveries').select(['id', 'endpoint_id', 'kind', 'body', 'event_position']).where('id', '=', id).executeTakeFirst();
}

/** An endpoint's newest deliveries (by the event's position), for its delivery log. */
export async function webhookDeliveryLog(db: ReadDbHandle, endpointId: string, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'kind', 'event_position', 'queued_position', 'created_at'])
    .where('endpoint_id', '=', endpointId)
    .orderBy('event_position', 'desc')
    .limit(limit)
    .execute();
}

/** How many of an endpoint's deliveries one replay (at `position`) queued. */
export async function countWebhookDeliveriesQueuedAt(db: ReadDbHandle, endpointId: string, position: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('endpoint_id', '=', endpointId)
    .where('queued_position', '=', position)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
