import type { EventsOf } from './define.ts';
import { accountEvents, mobileEvents, sessionEvents } from './account.ts';
import { ledgerEvents, notificationEvents } from './ledger.ts';

export * from './define.ts';
export * from './account.ts';
export * from './ledger.ts';

/**
 * Every event of a `user-<id>` stream. Each business area adds its own map here; the domain's user
 * decider and the projections switch over this union.
 */
export const userEvents = { ...accountEvents, ...ledgerEvents, ...notificationEvents };
export type UserEvent = EventsOf<typeof userEvents>;
export type MobileEvent = EventsOf<typeof mobileEvents>;
export type SessionEvent = EventsOf<typeof sessionEvents>;

/** Every event type the system writes, by type: used to validate events read back from the store. */
export const allEvents = { ...userEvents, ...mobileEvents, ...sessionEvents };
export type KamaiEvent = EventsOf<typeof allEvents>;
export type KamaiEventType = KamaiEvent['type'];

/** Stream names, one place. */
export const streams = {
  user: (userId: string) => `user-${userId}`,
  mobile: (mobile: string) => `mobile-${mobile}`,
  session: (sessionId: string) => `session-${sessionId}`,
};
