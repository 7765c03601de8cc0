export * from './server.ts';
export * from './process.ts';
export * from './tamper.ts';
