import { randomUUID } from 'node:crypto';
import { type DeletedTaskBody, TaskInput, msg } from '@kamai/contracts';
import { DomainError } from '@kamai/domain';
import { findTask, listCatalogueTasks, listTaskFigures, toTaskBody } from '@kamai/projections';
import { Hono } from 'hono';
import { readWithCatchUp, requireRole } from '../auth/sessions.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { notYetVisible } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { loadLimits } from '../settings/limits.ts';
import { createTask, deleteTask, updateTask } from './commands.ts';
import { etagOf, ifMatchRevision, preconditioned, taskRevision } from './concurrency.ts';

/** Before the body is looked at: 401 when signed out, 403 without the admin role. */
const adminOnly = withRole('admin');
/** A task id that is not a UUID names nothing: 404. */
const taskIdParam = idParam('id', UUID_PATTERN, msg('api.taskNotFound'));

/** The task as the read model has it once it has caught up with `position`. */
async function taskBodyAfter(deps: AppDeps, taskId: string, position: number) {
  if (position > 0) await deps.runner.waitFor(position);
  const row = await readWithCatchUp(deps, () => findTask(deps.db, taskId));
  if (!row) throw notYetVisible();
  return toTaskBody(row);
}

/** The admin's task catalogue. Only the `admin` role. */
export const adminTaskRoutes = new Hono<AppEnv>()
  .get('/api/admin/tasks', adminOnly, async (c) => c.json(await listCatalogueTasks(c.var.deps.db)))
  /** Per task: slots used and left, money approved and under review, approval rate, expiry. */
  .get('/api/admin/task-figures', adminOnly, async (c) => c.json(await listTaskFigures(c.var.deps.db, c.var.deps.now())))
  /** One task with its ETag (the stream's revision), for an edit or delete that sends it back in If-Match. */
  .get('/api/admin/tasks/:id', adminOnly, taskIdParam, async (c) => {
    const deps = c.var.deps;
    const taskId = c.req.param('id').toLowerCase();
    const current = await taskRevision(deps.store, taskId);
    if (!current) throw new DomainError('not_found', msg('api.taskNotFound'));
    // The body is read once the read model has the revision the ETag names, so the two agree;
    // a task missing from it then is a deleted one.
    if (!(await deps.runner.waitFor(current.position))) throw notYetVisible();
    const row = await findTask(deps.db, taskId);
    if (!row) throw new DomainError('not_found', msg('api.taskNotFound'));
    c.header('ETag', etagOf(current.revision));
    c.header('Cache-Control', 'no-store');
    return c.json(toTaskBody(row));
  })
  .post('/api/admin/tasks', adminOnly, validate('json', TaskInput), async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const taskId = randomUUID();
    const { maxTaskRewardPaise } = await loadLimits(deps.store);
    const { position } = await createTask(deps.store, taskId, c.req.valid('json'), admin.id, deps.now(), maxTaskRewardPaise);
    return c.json(await taskBodyAfter(deps, taskId, position), 201);
  })
  .put('/api/admin/tasks/:id', adminOnly, taskIdParam, validate('json', TaskInput), async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const taskId = c.req.param('id').toLowerCase();
    const expected = ifMatchRevision(c);
    const { maxTaskRewardPaise } = await loadLimits(deps.store);
    const { position, revision } = await preconditioned(updateTask(deps.store, taskId, c.req.valid('json'), admin.id, deps.now(), maxTaskRewardPaise, expected));
    c.header('ETag', etagOf(revision));
    return c.json(await taskBodyAfter(deps, taskId, position), 200);
  })
  .delete('/api/admin/tasks/:id', adminOnly, taskIdParam, async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const taskId = c.req.param('id').toLowerCase();
    const { position } = await preconditioned(deleteTask(deps.store, taskId, admin.id, deps.now(), ifMatchRevision(c)));
    await deps.runner.waitFor(position);
    return c.json({ id: taskId, deleted: true } satisfies DeletedTaskBody, 200);
  });
