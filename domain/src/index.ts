export * from './event-store.ts';
export * from './errors.ts';
export * from './decider.ts';
export * from './constants.ts';
export * from './user/account.ts';
export * from './user/state.ts';
export * from './reservations.ts';
