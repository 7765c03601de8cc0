/**
 * Task catalogue events (`task-<id>` streams) and the user-task events of a `user-<id>` stream
 * (proof submission and review). Filled in by the tasks feature.
 */
export const taskCatalogueEvents = {};
export const userTaskEvents = {};
