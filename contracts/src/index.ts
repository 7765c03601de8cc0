export * from './errors.ts';
export * from './money.ts';
export * from './auth.ts';
export * from './wallet.ts';
export * from './notifications.ts';
export * from './events/index.ts';
