import { randomUUID } from 'node:crypto';
import { type DeletedTaskBody, TaskInput } from '@kamai/contracts';
import { TASK_NOT_FOUND } from '@kamai/domain';
import { findTask, listCatalogueTasks, toTaskBody } from '@kamai/projections';
import { Hono } from 'hono';
import { readWithCatchUp, requireRole } from '../auth/sessions.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { notYetVisible } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { loadLimits } from '../settings/limits.ts';
import { createTask, deleteTask, updateTask } from './commands.ts';

/** Before the body is looked at: 401 when signed out, 403 without the admin role. */
const adminOnly = withRole('admin');
/** A task id that is not a UUID names nothing: 404. */
const taskIdParam = idParam('id', UUID_PATTERN, TASK_NOT_FOUND);

/** The task as the read model has it once it has caught up with `position`. */
async function taskBodyAfter(deps: AppDeps, taskId: string, position: number) {
  if (position > 0) await deps.runner.waitFor(position);
  const row = await readWithCatchUp(deps, () => findTask(deps.db, taskId));
  if (!row) throw notYetVisible();
  return toTaskBody(row);
}

/** The admin's task catalogue (spec sections 2 "Admin panel", 5 and 7). Only the `admin` role. */
export const adminTaskRoutes = new Hono<AppEnv>()
  .get('/api/admin/tasks', adminOnly, async (c) => c.json(await listCatalogueTasks(c.var.deps.db)))
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
    const { maxTaskRewardPaise } = await loadLimits(deps.store);
    const { position } = await updateTask(deps.store, taskId, c.req.valid('json'), admin.id, deps.now(), maxTaskRewardPaise);
    return c.json(await taskBodyAfter(deps, taskId, position), 200);
  })
  .delete('/api/admin/tasks/:id', adminOnly, taskIdParam, async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const taskId = c.req.param('id').toLowerCase();
    const { position } = await deleteTask(deps.store, taskId, admin.id, deps.now());
    await deps.runner.waitFor(position);
    return c.json({ id: taskId, deleted: true } satisfies DeletedTaskBody, 200);
  });
