import { PushAlertsBody, PushSubscriptionBody, PushUnsubscribeBody, streams } from '@kamai/contracts';
import { type PushCommand, userDecider } from '@kamai/domain';
import { type Context, Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { signedIn } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

/**
 * Alerts outside the app (docs/push.md). The public key is public (the browser needs it to
 * subscribe); a subscription and a choice are events on the caller's own stream, which the alert
 * sender (./sender.ts) follows.
 */
export const pushRoutes = new Hono<AppEnv>()
  .get('/api/push/public-key', (c) => c.json({ publicKey: c.var.deps.push.publicKey }))
  .post('/api/push/subscriptions', signedIn, validate('json', PushSubscriptionBody), async (c) => {
    const { endpoint, keys } = c.req.valid('json');
    await record(c, { type: 'SubscribePush', data: { endpoint, p256dh: keys.p256dh, auth: keys.auth }, now: c.var.deps.now().toISOString() });
    return c.body(null, 204);
  })
  .delete('/api/push/subscriptions', signedIn, validate('json', PushUnsubscribeBody), async (c) => {
    const { endpoint } = c.req.valid('json');
    await record(c, { type: 'UnsubscribePush', data: { endpoint, reason: 'user' }, now: c.var.deps.now().toISOString() });
    return c.body(null, 204);
  })
  .get('/api/push/alerts', signedIn, async (c) => {
    const push = c.var.deps.push;
    await push.catchUp();
    return c.json({ alerts: push.chosen(requireUser(c).id) });
  })
  .put('/api/push/alerts', signedIn, validate('json', PushAlertsBody), async (c) => {
    const { alerts } = c.req.valid('json');
    await record(c, { type: 'ChoosePushAlerts', data: { alerts }, now: c.var.deps.now().toISOString() });
    const push = c.var.deps.push;
    await push.catchUp();
    return c.json({ alerts: push.chosen(requireUser(c).id) });
  });

/** The command on the caller's stream; the sender reads the log itself, so no read model is awaited. */
async function record(c: Context<AppEnv>, command: PushCommand): Promise<void> {
  const user = requireUser(c);
  await handleCommand(c.var.deps.store, streams.user(user.id), userDecider, command, { actor: user.id });
}
