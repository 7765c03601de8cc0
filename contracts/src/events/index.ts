import type { EventsOf } from './define.ts';
import { accountEvents, credentialEvents, mobileEvents, sessionEvents } from './account.ts';
import { adjustmentEvents, ledgerEvents, notificationEvents } from './ledger.ts';
import { taskCatalogueEvents, userTaskEvents } from './tasks.ts';
import { settingsEvents, withdrawalEvents } from './withdrawals.ts';

export * from './define.ts';
export * from './account.ts';
export * from './ledger.ts';
export * from './tasks.ts';
export * from './withdrawals.ts';

/**
 * Every event of a `user-<id>` stream. Each business area adds its own map here; the domain's user
 * decider and the projections switch over this union.
 */
export const userEvents = {
  ...accountEvents,
  ...credentialEvents,
  ...ledgerEvents,
  ...notificationEvents,
  ...userTaskEvents,
  ...withdrawalEvents,
  ...adjustmentEvents,
};
export type UserEvent = EventsOf<typeof userEvents>;
export type MobileEvent = EventsOf<typeof mobileEvents>;
export type SessionEvent = EventsOf<typeof sessionEvents>;
export type TaskCatalogueEvent = EventsOf<typeof taskCatalogueEvents>;
export type SettingsEvent = EventsOf<typeof settingsEvents>;

/** Every event type the system writes, by type: used to validate events read back from the store. */
export const allEvents = { ...userEvents, ...mobileEvents, ...sessionEvents, ...taskCatalogueEvents, ...settingsEvents };
export type KamaiEvent = EventsOf<typeof allEvents>;
export type KamaiEventType = KamaiEvent['type'];

/** Stream names, one place. */
export const streams = {
  user: (userId: string) => `user-${userId}`,
  mobile: (mobile: string) => `mobile-${mobile}`,
  session: (sessionId: string) => `session-${sessionId}`,
  task: (taskId: string) => `task-${taskId}`,
  settings: () => 'settings',
};
