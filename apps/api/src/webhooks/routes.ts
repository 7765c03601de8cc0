import {
  WEBHOOK_DELIVERY_LOG_SIZE,
  WEBHOOK_ENDPOINTS_MAX,
  type WebhookDeliveryBody,
  WebhookEndpointRequest,
  type WebhookEndpointBody,
  type WebhookEventKind,
  WebhookReplayRequest,
  msg,
  streams,
} from '@kamai/contracts';
import { webhookEndpointDecider } from '@kamai/domain';
import { type WebhookEndpointRow, countWebhookDeliveriesQueuedAt, findWebhookEndpoint, listWebhookEndpoints, webhookDeliveryLog } from '@kamai/projections';
import { Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppEnv } from '../deps.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { caughtUp } from '../finance/ledger-routes.ts';
import { webhookTargetPublic } from './address.ts';
import { newWebhookSecret, webhookUrlAllowed } from './signing.ts';

const adminOnly = withRole('admin');
const endpointId = idParam('id', UUID_PATTERN, msg('webhook.notFound'));

const endpointBody = (row: WebhookEndpointRow): WebhookEndpointBody => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  position: row.position,
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Webhook endpoints for finance and BI tools (docs/api.md#webhooks): admins register, list, delete, read the log, replay. */
export const webhookRoutes = new Hono<AppEnv>()
  .post('/api/admin/webhooks', adminOnly, validate('json', WebhookEndpointRequest), async (c) => {
    const deps = c.var.deps;
    const by = requireUser(c).id;
    const { url, events } = c.req.valid('json');
    if (!webhookUrlAllowed(url, deps.config.webhooks.httpLoopback)) throw badRequest(msg('webhook.httpsRequired'), { url: msg('webhook.httpsRequired') });
    // Not a way into this network (the cloud metadata service, an admin port): checked again before each delivery.
    if (!(await webhookTargetPublic(url, deps.config.webhooks.httpLoopback))) throw badRequest(msg('webhook.privateAddress'), { url: msg('webhook.privateAddress') });
    await caughtUp(deps);
    if ((await listWebhookEndpoints(deps.db)).length >= WEBHOOK_ENDPOINTS_MAX) throw conflict(msg('webhook.tooMany', { max: WEBHOOK_ENDPOINTS_MAX }));
    const id = commandId();
    const secret = newWebhookSecret();
    const { position } = await handleCommand(
      deps.store,
      streams.webhook(id),
      webhookEndpointDecider,
      { type: 'RegisterWebhookEndpoint', data: { endpointId: id, url, events, sealedSecret: deps.webhooks.seal(id, secret), by }, now: deps.now().toISOString() },
      { actor: by },
    );
    await deps.runner.waitFor(position);
    const row = await findWebhookEndpoint(deps.db, id);
    if (!row) throw notFound(msg('webhook.notFound'));
    // The secret is in this answer only: the server keeps it sealed and never shows it again.
    return c.json({ ...endpointBody(row), secret }, 201);
  })
  .get('/api/admin/webhooks', adminOnly, async (c) => c.json((await listWebhookEndpoints(c.var.deps.db)).map(endpointBody)))
  .delete('/api/admin/webhooks/:id', adminOnly, endpointId, async (c) => {
    const deps = c.var.deps;
    const by = requireUser(c).id;
    const id = c.req.param('id').toLowerCase();
    const { position } = await handleCommand(deps.store, streams.webhook(id), webhookEndpointDecider, { type: 'DeleteWebhookEndpoint', data: { endpointId: id, by }, now: deps.now().toISOString() }, { actor: by });
    await deps.runner.waitFor(position);
    return c.body(null, 204);
  })
  .get('/api/admin/webhooks/:id/deliveries', adminOnly, endpointId, async (c) => {
    const deps = c.var.deps;
    const id = c.req.param('id').toLowerCase();
    const endpoint = await findWebhookEndpoint(deps.db, id);
    if (!endpoint) throw notFound(msg('webhook.notFound'));
    const rows = await webhookDeliveryLog(deps.db, id, WEBHOOK_DELIVERY_LOG_SIZE);
    const states = deps.webhooks.outbox.states(rows.map((r) => r.id));
    const body: WebhookDeliveryBody[] = rows.map((row) => {
      const state = states.get(row.id);
      // Queued again (a replay) and not yet taken in by the sender: pending, as the sender will see it.
      const current = state && state.generation >= row.queued_position ? state : undefined;
      return {
        id: row.id,
        event: row.kind as WebhookEventKind,
        position: row.event_position,
        status: current?.status ?? 'pending',
        attempts: current?.attempts ?? 0,
        lastStatusCode: current?.lastStatus ?? null,
        lastError: current?.lastError ?? null,
        nextAttemptAt: current === undefined ? null : current.status === 'pending' ? iso(current.nextAt) : null,
        deliveredAt: iso(current?.deliveredAt ?? null),
        createdAt: row.created_at,
      };
    });
    return c.json(body);
  })
  .post('/api/admin/webhooks/:id/replay', adminOnly, endpointId, validate('json', WebhookReplayRequest), async (c) => {
    const deps = c.var.deps;
    const by = requireUser(c).id;
    const id = c.req.param('id').toLowerCase();
    const { fromPosition } = c.req.valid('json');
    const { position } = await handleCommand(
      deps.store,
      streams.webhook(id),
      webhookEndpointDecider,
      { type: 'ReplayWebhookEndpoint', data: { endpointId: id, fromPosition, by }, now: deps.now().toISOString() },
      { actor: by },
    );
    await deps.runner.waitFor(position);
    const queued = await countWebhookDeliveriesQueuedAt(deps.db, id, position);
    void deps.webhooks.tick();
    return c.json({ queued }, 202);
  });
