export * from './server.ts';
export * from './process.ts';
export * from './tamper.ts';
export * from '../openapi/fuzz.ts';
