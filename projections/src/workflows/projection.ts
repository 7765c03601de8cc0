import type { Projection } from '../projection.ts';

/** Workflows (docs/workflows.md) as the recovery sweep and `reconcile` look for unfinished ones. */
export const workflowsProjection: Projection = {
  name: 'workflows',
  version: 1,
  tables: {
    workflows: {
      columns: `id TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL, steps INTEGER NOT NULL, recorded INTEGER NOT NULL,
        started_at TEXT NOT NULL, position INTEGER NOT NULL`,
      indexes: { status: 'status, started_at' },
    },
  },
  handles: ['WorkflowStarted', 'WorkflowStepRecorded', 'WorkflowCompleted'],
  apply(rows, event) {
    switch (event.type) {
      case 'WorkflowStarted': {
        const d = event.data;
        rows.insert('workflows', { id: d.workflowId, kind: d.kind, status: 'running', steps: d.steps.length, recorded: 0, started_at: d.startedAt, position: event.position });
        return;
      }
      case 'WorkflowStepRecorded':
        rows.update('workflows', { id: event.data.workflowId }, { add: { recorded: 1 } });
        return;
      case 'WorkflowCompleted':
        rows.update('workflows', { id: event.data.workflowId }, { set: { status: 'completed' } });
        return;
    }
  },
};
