export * from './server.ts';
export * from './process.ts';
export * from './tamper.ts';
export * from '../openapi/fuzz.ts';
// The bench's parts quiet the request log of the servers they start in-process.
export { logger, requestLogger } from '../observability/logger.ts';
// The bench's scale part starts its own PostgreSQL, as the int tests' globalSetup does.
export { startThrowawayCluster } from '../event-store/postgres-cluster.ts';
export { postgresNodesEnv } from './node-env.ts';
