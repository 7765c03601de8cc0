/**
 * The user's tasks on their own stream: proof submissions and their review. Filled in by the tasks
 * feature (state, evolve, commands and decide).
 */
export interface UserTasksState {
  /** Keyed by task id. */
  byTask: Readonly<Record<string, never>>;
}

export const initialUserTasksState = (): UserTasksState => ({ byTask: {} });
