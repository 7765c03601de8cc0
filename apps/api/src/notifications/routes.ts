import { streams } from '@kamai/contracts';
import { type NotificationCommand, userDecider } from '@kamai/domain';
import { countUnreadNotifications, findNotification, listNotifications } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { readWithCatchUp, requireUser } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { idParam, signedIn } from '../http/guards.ts';

const NOT_FOUND = 'Notification not found';
// Notification ids are written by several features; any plain token is a possible id, the rest 404.
const notificationId = idParam('id', /^[A-Za-z0-9._:-]{1,128}$/, NOT_FOUND);

/**
 * The caller's notifications. Reads and deletions are events on the caller's own stream, so they
 * survive a rebuild of the read models, and an id that is not the caller's is simply unknown: 404.
 * Whether it exists and is unread comes from the read model (the decision state keeps no list).
 */
export const notificationRoutes = new Hono<AppEnv>()
  .get('/api/notifications', signedIn, async (c) => c.json(await listNotifications(c.var.deps.db, requireUser(c).id)))
  .put('/api/notifications/read-all', signedIn, async (c) => {
    const unread = await countUnreadNotifications(c.var.deps.db, requireUser(c).id);
    return run(c, (now) => ({ type: 'MarkAllNotificationsRead', data: { unread }, now }));
  })
  .put('/api/notifications/:id/read', signedIn, notificationId, async (c) => {
    const { unread } = await findOwn(c);
    return run(c, (now) => ({ type: 'MarkNotificationRead', data: { notificationId: c.req.param('id'), unread }, now }));
  })
  .delete('/api/notifications/:id', signedIn, notificationId, async (c) => {
    await findOwn(c);
    return run(c, (now) => ({ type: 'DeleteNotification', data: { notificationId: c.req.param('id') }, now }));
  });

/** The caller's notification named in the path, waiting for the read model if it is not there yet. */
async function findOwn(c: Context<AppEnv>) {
  const deps = c.var.deps;
  const found = await readWithCatchUp(deps, () => findNotification(deps.db, requireUser(c).id, c.req.param('id') ?? ''));
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/** Decides on the caller's stream, waits for the read model, answers 204 (the client refetches the list). */
async function run(c: Context<AppEnv>, command: (now: string) => NotificationCommand) {
  const deps = c.var.deps;
  const user = requireUser(c);
  const decided = command(deps.now().toISOString());
  const { position } = await handleCommand(
    deps.store,
    streams.user(user.id),
    userDecider,
    decided,
    { actor: user.id },
  );
  if (position > 0) await deps.runner.waitFor(position);
  return c.body(null, 204);
}
