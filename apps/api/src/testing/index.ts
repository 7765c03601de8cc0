export * from './server.ts';
export * from './process.ts';
export * from './tamper.ts';
export * from '../openapi/fuzz.ts';
// The bench's parts quiet the request log of the servers they start in-process.
export { logger, requestLogger } from '../observability/logger.ts';
