export * from './config.ts';
export * from './server.ts';
export * from './seed.ts';
export * from './auth/accounts.ts';
export * from './commands/handle.ts';
export { EVENTS_TABLE_SQL, SqliteEventStore, openSqliteEventStore } from './event-store/sqlite.ts';
