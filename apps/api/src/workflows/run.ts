import { type WorkflowAction, type WorkflowKind, type WorkflowStepPlan, msg, streams } from '@kamai/contracts';
import { DomainError, type WorkflowCommand, type WorkflowState, nextWorkflowStep, workflowDecider } from '@kamai/domain';
import { unfinishedWorkflows } from '@kamai/projections';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { ensureReserved, findStep, outsideKeyed, runKeyed } from '../commands/keyed.ts';
import type { AppDeps } from '../deps.ts';

/**
 * What one kind of workflow does at each step. `step` acts on the step's target stream through that
 * stream's decider and answers the outcome (`applied`, `skipped`, or a refusal's code); it runs as a
 * keyed command of its own (the workflow's id and the step), so after a crash a step that appended
 * finds its events instead of appending again, and the ids it makes are the same.
 */
export interface WorkflowDefinition<Context> {
  kind: WorkflowKind;
  step(deps: AppDeps, state: WorkflowState, step: number, context: Context | undefined): Promise<string>;
}

/** What one action of a kind does: the step's plan is `state.steps[step]`. */
export type StepHandler<Context> = (deps: AppDeps, state: WorkflowState, plan: WorkflowStepPlan, context: Context | undefined) => Promise<string>;

export interface WorkflowStepsOptions<Context> {
  /**
   * A decider's refusal is thrown (the workflow is left for a retry or the sweep) rather than
   * recorded as the step's outcome: for kinds whose steps turn the refusals they expect into outcomes
   * themselves, so any other refusal is a fault to be seen, not a fact to record.
   */
  refusalsThrown?: boolean;
  /** Sees a refusal before it is recorded (the live request keeps it to answer it in full). */
  onRefusal?(err: DomainError, context: Context | undefined): void;
}

/**
 * A definition's `step` from one handler per action, with the tail every kind shares: an action the
 * kind has no handler for is a fault (the intent named a step this kind cannot do), and a decider's
 * refusal is the step's outcome (`refusalOutcome`) unless `refusalsThrown`.
 */
export function workflowSteps<Context>(
  name: string,
  handlers: { readonly [A in WorkflowAction]?: StepHandler<Context> },
  options: WorkflowStepsOptions<Context> = {},
): WorkflowDefinition<Context>['step'] {
  return async (deps, state, step, context) => {
    const plan = state.steps[step]!;
    const handler = handlers[plan.action];
    if (!handler) throw new Error(`${name} has no ${plan.action} step`);
    try {
      return await handler(deps, state, plan, context);
    } catch (err) {
      if (options.refusalsThrown || !(err instanceof DomainError)) throw err;
      options.onRefusal?.(err, context);
      return refusalOutcome(err);
    }
  };
}

/** A copy of a workflow's record that later commands do not move on (the handler's state is shared). */
function copyOf(state: WorkflowState): WorkflowState {
  return { ...state, outcomes: [...state.outcomes] };
}

export async function loadWorkflow(deps: AppDeps, workflowId: string): Promise<WorkflowState> {
  return copyOf((await loadStream(deps.store, streams.workflow(workflowId), workflowDecider)).state);
}

const record = (deps: Pick<AppDeps, 'store'>, workflowId: string, command: WorkflowCommand) =>
  outsideKeyed(() => handleCommand(deps.store, streams.workflow(workflowId), workflowDecider, command, { actor: 'workflow' }));

/** Records the intent (every step) first; the same id again changes nothing (a retry resumes). */
export async function startWorkflow(deps: Pick<AppDeps, 'store' | 'now'>, data: Extract<WorkflowCommand, { type: 'StartWorkflow' }>['data']): Promise<void> {
  // Under an Idempotency-Key the key is reserved first, as before any command's first append.
  await ensureReserved();
  await record(deps, data.workflowId, { type: 'StartWorkflow', data, now: deps.now().toISOString() });
}

/**
 * Runs a workflow from where its record stands to its end: each step without an outcome is done and
 * its outcome recorded, in order; then the end. Answers the record, whose outcomes are the steps that
 * happened. A crash anywhere leaves a record this resumes from (a retry, or the recovery sweep).
 */
export async function driveWorkflow<Context>(deps: AppDeps, workflowId: string, definition: WorkflowDefinition<Context>, context?: Context): Promise<WorkflowState> {
  const streamId = streams.workflow(workflowId);
  // Every event a step appends comes after the intent: a step looks back no further for its own.
  const [intent] = await deps.store.readStream(streamId, { fromRevision: 0, maxCount: 1 });
  if (!intent) throw new DomainError('not_found', msg('api.notFound'));
  for (;;) {
    const state = await loadWorkflow(deps, workflowId);
    if (state.kind !== definition.kind) throw new Error(`workflow ${workflowId} is a ${state.kind}, not a ${definition.kind}`);
    if (state.completed) return state;
    const step = nextWorkflowStep(state);
    if (step === null) {
      await record(deps, workflowId, { type: 'CompleteWorkflow', data: { workflowId }, now: deps.now().toISOString() });
      continue;
    }
    const outcome = await runKeyed(stepToken(workflowId, step), intent.position, () => definition.step(deps, state, step, context));
    await record(deps, workflowId, { type: 'RecordWorkflowStep', data: { workflowId, step, outcome }, now: deps.now().toISOString() });
  }
}

/** The keyed-command token a step's appends carry (commands/keyed.ts). */
const stepToken = (workflowId: string, step: number) => `workflow:${workflowId}:${step}`;

/** A workflow left this long is taken for abandoned (its request died) and finished by the sweep. */
export const WORKFLOW_SWEEP_AGE_MS = 60_000;

/**
 * Finishes every workflow a crash left unfinished (started over a minute ago, as the read model has
 * them). Any process may run it at any time: steps are idempotent, and the workflow's stream lets one
 * record per step through. Answers how many it finished; a workflow that fails is logged and left
 * for the next sweep.
 */
export async function sweepWorkflows(
  deps: AppDeps,
  definitions: readonly WorkflowDefinition<never>[],
  log: (line: string) => void,
): Promise<number> {
  const before = new Date(deps.now().getTime() - WORKFLOW_SWEEP_AGE_MS).toISOString();
  let finished = 0;
  for (const row of await unfinishedWorkflows(deps.db, before)) {
    const definition = definitions.find((d) => d.kind === row.kind);
    if (!definition) {
      log(`[workflows] ${row.id}: no definition of kind ${row.kind}`);
      continue;
    }
    try {
      await driveWorkflow(deps, row.id, definition);
      finished++;
    } catch (err) {
      log(`[workflows] ${row.id} (${row.kind}) could not be finished yet: ${String(err)}`);
    }
  }
  return finished;
}

/**
 * Whether step `step` of a workflow already appended to `streamId` (whose last revision is
 * `lastRevision`), its outcome recorded or not (the process died in between): for a request that
 * must not redo work outside the log, such as accepting an upload the first attempt consumed.
 */
export async function stepAppended(deps: AppDeps, workflowId: string, step: number, streamId: string, lastRevision: number | 'no_stream'): Promise<boolean> {
  const [intent] = await deps.store.readStream(streams.workflow(workflowId), { fromRevision: 0, maxCount: 1 });
  if (!intent || lastRevision === 'no_stream') return false;
  return (await findStep(deps.store, streamId, lastRevision, { token: stepToken(workflowId, step), step: 1, reservedAt: intent.position })).length > 0;
}

/** A refusal as a step's outcome: its own code when it has one, else its kind. */
export const refusalOutcome = (err: DomainError): string => err.code ?? err.kind;
