import { type Paise, type WorkflowEvent, type WorkflowKind, type WorkflowStepPlan, msg } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

/**
 * `workflow-<id>`: an operation across several streams, as its own stream records it (docs/workflows.md).
 * The intent (every step) first, then each step's outcome in order, then the end. What the steps do
 * to their target streams is decided there, by those streams' deciders; this decider only keeps the
 * record straight: steps in order, each once, the end only after the last.
 */
export interface WorkflowState {
  started: boolean;
  /** Its own id (a proof submission's is the submission's: one id names both). */
  workflowId: string;
  kind: WorkflowKind | null;
  batchId: string;
  by: string;
  steps: WorkflowStepPlan[];
  approvalThresholdPaise: Paise;
  startedAt: string;
  /** Each recorded step's outcome, in step order. */
  outcomes: string[];
  completed: boolean;
}

export type WorkflowCommand =
  | {
      type: 'StartWorkflow';
      data: { workflowId: string; kind: WorkflowKind; batchId: string; by: string; steps: WorkflowStepPlan[]; approvalThresholdPaise: Paise };
      now: string;
    }
  | { type: 'RecordWorkflowStep'; data: { workflowId: string; step: number; outcome: string }; now: string }
  | { type: 'CompleteWorkflow'; data: { workflowId: string }; now: string };

/** The first step without an outcome, or null once every step has one. */
export function nextWorkflowStep(state: WorkflowState): number | null {
  return state.outcomes.length < state.steps.length ? state.outcomes.length : null;
}

/** The withdrawals a batch workflow's claim steps put in its batch. */
export function claimedItems(state: WorkflowState): { withdrawalId: string; userId: string; amountPaise: Paise }[] {
  return state.steps.flatMap((step, i) =>
    step.action === 'claim' && state.outcomes[i] === 'applied' && step.userId !== null
      ? [{ withdrawalId: step.target, userId: step.userId, amountPaise: step.amountPaise }]
      : [],
  );
}

export const workflowDecider: Decider<WorkflowState, WorkflowCommand, WorkflowEvent> = {
  initialState: () => ({
    started: false,
    workflowId: '',
    kind: null,
    batchId: '',
    by: '',
    steps: [],
    approvalThresholdPaise: 0,
    startedAt: '',
    outcomes: [],
    completed: false,
  }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'WorkflowStarted': {
        const d = event.data;
        return { ...state, started: true, workflowId: d.workflowId, kind: d.kind, batchId: d.batchId, by: d.by, steps: d.steps, approvalThresholdPaise: d.approvalThresholdPaise, startedAt: d.startedAt };
      }
      case 'WorkflowStepRecorded':
        // In order, each once (the decider saw to it); an array grows in place.
        if (event.data.step === state.outcomes.length) state.outcomes.push(event.data.outcome);
        return state;
      case 'WorkflowCompleted':
        state.completed = true;
        return state;
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'StartWorkflow': {
        const d = command.data;
        // The same id is the same request (its key made the id): it resumes, it does not start again.
        if (state.started) {
          if (state.kind !== d.kind || state.batchId !== d.batchId) throw new DomainError('conflict', msg('payout.batchExists'));
          return [];
        }
        return [{ type: 'WorkflowStarted', data: { ...d, startedAt: command.now } }];
      }
      case 'RecordWorkflowStep': {
        const { step, outcome, workflowId } = command.data;
        if (!state.started) throw new DomainError('not_found', msg('api.notFound'));
        if (step < state.outcomes.length) return [];
        if (step !== state.outcomes.length || step >= state.steps.length) throw new DomainError('conflict', msg('api.stillProcessing'));
        return [{ type: 'WorkflowStepRecorded', data: { workflowId, step, outcome, recordedAt: command.now } }];
      }
      case 'CompleteWorkflow': {
        if (!state.started) throw new DomainError('not_found', msg('api.notFound'));
        if (state.completed) return [];
        if (nextWorkflowStep(state) !== null) throw new DomainError('conflict', msg('api.stillProcessing'));
        return [{ type: 'WorkflowCompleted', data: { workflowId: command.data.workflowId, completedAt: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
