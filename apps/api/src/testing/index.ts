export * from './server.ts';
export * from './process.ts';
