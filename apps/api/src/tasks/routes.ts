import { SubmitProofRequest, type TaskStartBody, type UserTaskBody, autoApprovalDue, streams, msg } from '@kamai/contracts';
import { type EventStore, taskDecider, userDecider } from '@kamai/domain';
import { findUserTask, listActiveTasks, listUserTasks, toUserTaskBody } from '@kamai/projections';
import { Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppEnv } from '../deps.ts';
import { notFound, notYetVisible } from '../http/errors.ts';
import { UUID_PATTERN, idParam } from '../http/guards.ts';
import { consented } from '../profile/consent.ts';
import { validate } from '../http/validate.ts';
import { type ObjectStorage, acceptUploadedImage, withAcceptedImages } from '../object-storage/index.ts';
import { loadLimits } from '../settings/limits.ts';
import { loadTaskSnapshot, startTask } from './commands.ts';
import { driveWorkflow, loadWorkflow, startWorkflow, stepAppended } from '../workflows/run.ts';
import { PROOF_STEP, type ProofContext, proofStepAhead, proofSubmissionPlan, proofSubmissionRefusal, proofSubmissionWorkflow } from '../workflows/tasks.ts';

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
export function taskRoutes(uploads: { objects: ObjectStorage }) {
  return new Hono<AppEnv>()
    .get('/api/tasks', async (c) => {
      requireUser(c);
      return c.json(await listActiveTasks(c.var.deps.db, c.var.deps.now()));
    })
    .get('/api/user-tasks', async (c) => {
      const user = requireUser(c);
      const withDate = await decideByDates(c.var.deps.store);
      return c.json((await listUserTasks(c.var.deps.db, user.id, c.var.deps.now())).map(withDate));
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
      const body: TaskStartBody = { taskId, startedAt };
      return c.json(body, 200);
    })
    .post(
      '/api/tasks/:id/submit-proof',
      // 401 and 404 before anything about the body.
      consented,
      idParam('id', UUID_PATTERN, msg('api.taskNotFound')),
      validate('json', SubmitProofRequest),
      async (c) => {
        const deps = c.var.deps;
        const { store, now } = deps;
        const user = requireUser(c);
        const taskId = c.req.param('id').toLowerCase();
        const { proofImageUrl, proofDescription } = c.req.valid('json');

        // An unknown task is a 404 before any work on the image; the decider checks it again.
        const task = await loadTaskSnapshot(store, taskId);
        if (!task) throw notFound(msg('api.taskNotFound'));
        // Two streams (the task's slot, the person's proof): a workflow whose id is the submission's
        // (workflows/tasks.ts). Under an Idempotency-Key a retry names the same one and resumes it.
        const submissionId = commandId();
        const userStream = streams.user(user.id);
        const answer = async () => {
          await deps.runner.waitFor(await store.headPosition());
          const row = await findUserTask(deps.db, user.id, taskId);
          if (!row) throw notYetVisible();
          return c.json((await decideByDates(store))(toUserTaskBody(row)), 201);
        };
        const { state: person } = await loadStream(store, userStream, userDecider);
        if (person.tasks.byTask.get(taskId)?.status === 'needs_changes') {
          // Sent back for changes: its slot is still held, so one append on the person's stream, no workflow.
          const image = await acceptUploadedImage(uploads.objects, proofImageUrl, user.id, { field: 'proofImageUrl', purpose: 'proof' });
          const command = { type: 'SubmitProof' as const, data: { taskId, task, submissionId, proofImageUrl: image.objectURL, proofDescription, proofDhash: image.dhash }, now: now().toISOString() };
          await withAcceptedImages([image], () => handleCommand(store, userStream, userDecider, command, { actor: user.id }));
          return answer();
        }
        const record = await loadWorkflow(deps, submissionId);
        const context: ProofContext = { task, proofImageUrl, proofDescription, proofDhash: null };
        const drive = async () => {
          const done = await driveWorkflow(deps, submissionId, proofSubmissionWorkflow, context);
          const refusal = proofSubmissionRefusal(done, context);
          if (refusal) throw refusal;
        };
        // A retry whose proof was recorded (or whose slot was refused) needs no image: its upload is
        // already consumed, and the record is the answer.
        const proofDone = async () => stepAppended(deps, submissionId, PROOF_STEP, userStream, (await loadStream(store, userStream, userDecider)).revision);
        if (record.started && (!proofStepAhead(record) || (await proofDone()))) await drive();
        else {
          // Only an image this same user uploaded, at most 5 MB and really an image; re-encoded (no
          // EXIF/GPS) and stored under its lasting address, which is what the proof records.
          const image = await acceptUploadedImage(uploads.objects, proofImageUrl, user.id, { field: 'proofImageUrl', purpose: 'proof' });
          Object.assign(context, { proofImageUrl: image.objectURL, proofDhash: image.dhash });
          await withAcceptedImages([image], async () => {
            if (!record.started) {
              // What can be refused is refused before anything is recorded: the person's rules, then the task's slots.
              const command = { type: 'SubmitProof' as const, data: { taskId, task, submissionId, proofImageUrl: image.objectURL, proofDescription, proofDhash: image.dhash }, now: now().toISOString() };
              userDecider.decide(command, (await loadStream(store, userStream, userDecider)).state);
              const { state: taskState } = await loadStream(store, streams.task(taskId), taskDecider);
              taskDecider.decide({ type: 'TakeSlot', data: { taskId, submissionId, userId: user.id }, now: command.now }, taskState);
              await startWorkflow(deps, { workflowId: submissionId, kind: 'proof_submission', batchId: '', by: user.id, approvalThresholdPaise: 0, steps: proofSubmissionPlan(taskId, user.id) });
            }
            await drive();
          });
        }
        return answer();
      },
    );
}
