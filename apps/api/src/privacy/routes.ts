import { randomUUID } from 'node:crypto';
import { DeletionListQuery, DeletionRequestCreate, streams, msg } from '@kamai/contracts';
import { settingsDecider, userDecider } from '@kamai/domain';
import { findDeletion, latestDeletionOf, listDeletions } from '@kamai/projections';
import { Hono } from 'hono';
import { verifyPassword } from '../auth/passwords.ts';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppEnv } from '../deps.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { UUID_PATTERN, idParam, signedIn, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { erasurePlan, erasureRefusal, erasureWorkflow } from '../workflows/erasure.ts';
import { driveWorkflow, loadWorkflow, startWorkflow } from '../workflows/run.ts';
import { exportUserData } from './export.ts';

const deletionId = idParam('id', UUID_PATTERN, msg('deletion.notFound'));

/**
 * Erasure on request and the right to access: the user asks for (and may cancel) the deletion of
 * their account and downloads what the app holds about them; admins list the requests and carry
 * them out.
 */
export function privacyRoutes() {
  return new Hono<AppEnv>()
    .get('/api/profile/deletion-request', signedIn, async (c) => c.json({ request: await latestDeletionOf(c.var.deps.db, requireUser(c).id) }))
    .post('/api/profile/deletion-request', signedIn, validate('json', DeletionRequestCreate), async (c) => {
      const deps = c.var.deps;
      const user = requireUser(c);
      // The password again, as for a password change: a session left open is not enough to delete an account.
      if (!(await verifyPassword(user.password_hash, c.req.valid('json').password))) {
        throw new ApiError(400, 'validation_failed', msg('api.wrongCurrentPassword'), { password: msg('api.wrongCurrentPassword') });
      }
      // The setting as the settings stream has it now; the request records its own end of cooling-off.
      const { limits } = (await loadStream(deps.store, streams.settings(), settingsDecider)).state;
      const { position } = await handleCommand(
        deps.store,
        streams.user(user.id),
        userDecider,
        {
          type: 'RequestDeletion',
          data: { requestId: randomUUID(), notificationId: randomUUID(), coolingOffHours: limits.deletionCoolingOffHours },
          now: deps.now().toISOString(),
        },
        { actor: user.id },
      );
      if (position > 0) await deps.runner.waitFor(position);
      return c.json(await latestDeletionOf(deps.db, user.id), 202);
    })
    .delete('/api/profile/deletion-request', signedIn, async (c) => {
      const deps = c.var.deps;
      const user = requireUser(c);
      const { position } = await handleCommand(
        deps.store,
        streams.user(user.id),
        userDecider,
        { type: 'CancelDeletion', data: { notificationId: randomUUID() }, now: deps.now().toISOString() },
        { actor: user.id },
      );
      if (position > 0) await deps.runner.waitFor(position);
      return c.json(await latestDeletionOf(deps.db, user.id));
    })
    .get('/api/profile/export', signedIn, async (c) => {
      const user = requireUser(c);
      c.header('Content-Disposition', `attachment; filename="kamai-data-${user.id}.json"`);
      c.header('Cache-Control', 'no-store');
      return c.json(await exportUserData(c.var.deps, user));
    })
    .get('/api/admin/deletions', withRole('admin'), validate('query', DeletionListQuery), async (c) =>
      c.json(await listDeletions(c.var.deps.db, { status: c.req.valid('query').status })),
    )
    .post('/api/admin/deletions/:id/erase', withRole('admin'), deletionId, async (c) => {
      const deps = c.var.deps;
      const admin = requireUser(c);
      const request = await findDeletion(deps.db, c.req.param('id'));
      if (!request) throw notFound(msg('deletion.notFound'));
      const target = { id: request.id, userId: request.user_id };
      // Under an Idempotency-Key a retry names the same workflow, resumes it and answers from its record.
      const workflowId = commandId();
      if (!(await loadWorkflow(deps, workflowId)).started) {
        // What the person's stream would answer now (cooling off, money owed): refused before anything is recorded.
        const { state } = await loadStream(deps.store, streams.user(target.userId), userDecider);
        userDecider.decide({ type: 'EraseUser', data: { requestId: target.id, by: admin.id }, now: deps.now().toISOString() }, state);
        await startWorkflow(deps, { workflowId, kind: 'erasure', batchId: '', by: admin.id, steps: erasurePlan(target), approvalThresholdPaise: 0 });
      }
      const done = await driveWorkflow(deps, workflowId, erasureWorkflow);
      const refused = erasureRefusal(done);
      if (refused) throw refused;
      await deps.runner.waitFor(await deps.store.headPosition());
      const [erased] = await listDeletions(deps.db, { id: request.id });
      return c.json(erased);
    });
}
