export * from './errors.ts';
export * from './money.ts';
export * from './auth.ts';
export * from './events/index.ts';
