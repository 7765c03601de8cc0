import { randomUUID } from 'node:crypto';
import { type DeletedTaskBody, TaskInput } from '@kamai/contracts';
import { TASK_NOT_FOUND } from '@kamai/domain';
import { findTask, listCatalogueTasks, toTaskBody } from '@kamai/projections';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { readWithCatchUp, requireRole } from '../auth/sessions.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { validate } from '../http/validate.ts';
import { createTask, deleteTask, updateTask } from './commands.ts';
import { pathId } from './params.ts';

/** Before the body is looked at: 401 when signed out, 403 without the admin role. */
const adminOnly = createMiddleware<AppEnv>(async (c, next) => {
  requireRole(c, 'admin');
  await next();
});

/** The task as the read model has it once it has caught up with `position`. */
async function taskBodyAfter(deps: AppDeps, taskId: string, position: number) {
  if (position > 0) await deps.runner.waitFor(position);
  const row = await readWithCatchUp(deps, () => findTask(deps.db, taskId));
  if (!row) throw new Error(`task ${taskId} missing from the read model`);
  return toTaskBody(row);
}

/** The admin's task catalogue (spec sections 2 "Admin panel", 5 and 7). Only the `admin` role. */
export const adminTaskRoutes = new Hono<AppEnv>()
  .get('/api/admin/tasks', adminOnly, async (c) => c.json(await listCatalogueTasks(c.var.deps.db)))
  .post('/api/admin/tasks', adminOnly, validate('json', TaskInput), async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const taskId = randomUUID();
    const { position } = await createTask(deps.store, taskId, c.req.valid('json'), admin.id, deps.now());
    return c.json(await taskBodyAfter(deps, taskId, position), 201);
  })
  .put('/api/admin/tasks/:id', adminOnly, validate('json', TaskInput), async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const taskId = pathId(c.req.param('id'), TASK_NOT_FOUND);
    const { position } = await updateTask(deps.store, taskId, c.req.valid('json'), admin.id, deps.now());
    return c.json(await taskBodyAfter(deps, taskId, position), 200);
  })
  .delete('/api/admin/tasks/:id', adminOnly, async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const taskId = pathId(c.req.param('id'), TASK_NOT_FOUND);
    const { position } = await deleteTask(deps.store, taskId, admin.id, deps.now());
    await deps.runner.waitFor(position);
    return c.json({ id: taskId, deleted: true } satisfies DeletedTaskBody, 200);
  });
