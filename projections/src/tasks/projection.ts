import { minutesOf } from '@kamai/contracts';
import type { ProjectedEvent, Projection } from '../projection.ts';

/** tasks: the catalogue. A deleted task is marked, not removed, so submissions and credits can still name it. */
export const tasksProjection: Projection = {
  name: 'tasks',
  version: 3,
  tables: {
    tasks: {
      columns: `id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT NOT NULL, reward_paise INTEGER NOT NULL,
        estimated_time TEXT NOT NULL, task_type TEXT NOT NULL, task_url TEXT, is_active INTEGER NOT NULL,
        icon_color TEXT NOT NULL, requires_proof INTEGER NOT NULL, proof_instructions TEXT, created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL, deleted_at TEXT, position INTEGER NOT NULL, max_completions INTEGER, expires_at TEXT,
        slots_used INTEGER NOT NULL DEFAULT 0, estimated_minutes INTEGER, title_hi TEXT, description_hi TEXT,
        proof_instructions_hi TEXT`,
      indexes: { listed: 'deleted_at, is_active, position' },
    },
  },
  handles: ['TaskCreated', 'TaskUpdated', 'TaskDeleted', 'TaskSlotTaken', 'TaskSlotReleased'],
  apply(rows, event) {
    switch (event.type) {
      case 'TaskCreated': {
        const d = event.data;
        rows.insert('tasks', {
          id: d.taskId,
          ...taskColumns(d),
          created_at: d.createdAt,
          updated_at: d.createdAt,
          deleted_at: null,
          position: event.position,
          slots_used: 0,
        });
        return;
      }
      case 'TaskSlotTaken':
        rows.update('tasks', { id: event.data.taskId }, { add: { slots_used: 1 } });
        return;
      case 'TaskSlotReleased':
        rows.update('tasks', { id: event.data.taskId }, { add: { slots_used: -1 } });
        return;
      case 'TaskUpdated': {
        const d = event.data;
        rows.update('tasks', { id: d.taskId }, { set: { ...taskColumns(d), updated_at: d.updatedAt } });
        return;
      }
      case 'TaskDeleted':
        rows.update('tasks', { id: event.data.taskId }, { set: { deleted_at: event.data.deletedAt, updated_at: event.data.deletedAt } });
        return;
      default:
        return;
    }
  },
};

/** The catalogue fields both TaskCreated and TaskUpdated carry, as columns. */
function taskColumns(d: Extract<ProjectedEvent, { type: 'TaskCreated' | 'TaskUpdated' }>['data']) {
  return {
    title: d.title,
    description: d.description,
    reward_paise: d.rewardPaise,
    estimated_time: d.estimatedTime,
    // An older event has no minutes: they are read from its text, as the decider does.
    estimated_minutes: d.estimatedMinutes === undefined ? minutesOf(d.estimatedTime) : d.estimatedMinutes,
    title_hi: d.hi?.title ?? null,
    description_hi: d.hi?.description ?? null,
    proof_instructions_hi: d.hi?.proofInstructions ?? null,
    task_type: d.taskType,
    task_url: d.taskUrl,
    is_active: d.isActive ? 1 : 0,
    icon_color: d.iconColor,
    requires_proof: d.requiresProof ? 1 : 0,
    proof_instructions: d.proofInstructions,
    max_completions: d.maxCompletions ?? null,
    expires_at: d.expiresAt ?? null,
  };
}
