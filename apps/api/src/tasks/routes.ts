import { SubmitProofRequest, type UserTaskBody, autoApprovalDue, streams, msg } from '@kamai/contracts';
import { type EventStore, userDecider } from '@kamai/domain';
import { findUserTask, listActiveTasks, listUserTasks, toUserTaskBody } from '@kamai/projections';
import { Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { loadStream } from '../commands/handle.ts';
import { nextStepDone } from '../commands/keyed.ts';
import type { AppEnv } from '../deps.ts';
import { notFound, notYetVisible } from '../http/errors.ts';
import { UUID_PATTERN, idParam } from '../http/guards.ts';
import { consented } from '../profile/consent.ts';
import { validate } from '../http/validate.ts';
import { type ObjectStorage, acceptUploadedImage, withAcceptedImages } from '../object-storage/index.ts';
import { loadLimits } from '../settings/limits.ts';
import { loadTaskSnapshot, startTask, submitProof } from './commands.ts';

/** Adds to a proof under review the date by which it is decided (the auto-approval delay after it came in). */
async function decideByDates(store: EventStore) {
  const { autoApproveAfterHours } = await loadLimits(store);
  return (body: UserTaskBody): UserTaskBody =>
    body.status === 'submitted' ? { ...body, decideBy: autoApprovalDue(body.submittedAt, autoApproveAfterHours) } : body;
}

/**
 * The signed-in user's task routes: the active tasks, their own statuses, and proof
 * submission. The object storage comes in here because only submit-proof needs it.
 */
export function taskRoutes(deps: { objects: ObjectStorage }) {
  return new Hono<AppEnv>()
    .get('/api/tasks', async (c) => {
      requireUser(c);
      return c.json(await listActiveTasks(c.var.deps.db, c.var.deps.now()));
    })
    .get('/api/user-tasks', async (c) => {
      const user = requireUser(c);
      const withDate = await decideByDates(c.var.deps.store);
      return c.json((await listUserTasks(c.var.deps.db, user.id)).map(withDate));
    })
    /** The user tapped Start: recorded once, so the review queue can tell how long the work took. */
    .post('/api/tasks/:id/start', consented, idParam('id', UUID_PATTERN, msg('api.taskNotFound')), async (c) => {
      const { store, runner, now } = c.var.deps;
      const user = requireUser(c);
      const taskId = c.req.param('id').toLowerCase();
      const task = await loadTaskSnapshot(store, taskId);
      if (!task) throw notFound(msg('api.taskNotFound'));
      const { position, view: startedAt } = await startTask(store, user.id, task, now());
      if (position > 0) await runner.waitFor(position);
      return c.json({ taskId, startedAt }, 200);
    })
    .post(
      '/api/tasks/:id/submit-proof',
      // 401 and 404 before anything about the body.
      consented,
      idParam('id', UUID_PATTERN, msg('api.taskNotFound')),
      validate('json', SubmitProofRequest),
      async (c) => {
        const { store, db, runner, now } = c.var.deps;
        const user = requireUser(c);
        const taskId = c.req.param('id').toLowerCase();
        const { proofImageUrl, proofDescription } = c.req.valid('json');

        // An unknown task is a 404 before any work on the image; the decider checks it again.
        const task = await loadTaskSnapshot(store, taskId);
        if (!task) throw notFound(msg('api.taskNotFound'));
        // Only an image this same user uploaded, at most 5 MB and really an image; re-encoded (no
        // EXIF/GPS) and stored under its lasting address, which is what the proof records.
        // A retry of a keyed submission that was recorded: its upload is already consumed, the
        // recorded proof is the answer (submitProof finds it).
        const { revision } = await loadStream(store, streams.user(user.id), userDecider);
        const recorded = await nextStepDone(store, streams.user(user.id), revision === 'no_stream' ? -1 : revision);
        const submit = (url: string, proofDhash: string | null) =>
          submitProof(store, user.id, { taskId, task, proofImageUrl: url, proofDescription, proofDhash }, now());
        let position: number;
        if (recorded) ({ position } = await submit(proofImageUrl, null));
        else {
          const image = await acceptUploadedImage(deps.objects, proofImageUrl, user.id, { field: 'proofImageUrl', purpose: 'proof' });
          ({ position } = await withAcceptedImages([image], () => submit(image.objectURL, image.dhash)));
        }
        await runner.waitFor(position);
        const row = await findUserTask(db, user.id, taskId);
        if (!row) throw notYetVisible();
        return c.json((await decideByDates(store))(toUserTaskBody(row)), 201);
      },
    );
}
