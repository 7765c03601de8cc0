import { loadConfig } from '../config.ts';
import { Conformance, describeViolations } from '../openapi/conformance.ts';
import { startServer } from '../server.ts';

/**
 * The API as main.ts starts it, for the browser tests, with every request and answer checked
 * against the OpenAPI document (docs/api.md). At SIGTERM it prints what disagreed, each line marked
 * `[conformance]`, for the harness to fail the test file with. Never the production entry.
 */
const conformance = new Conformance();
const server = await startServer(loadConfig(), console.log, { decorateFetch: (fetch) => conformance.wrap(fetch) });
console.log(`Kamai is running at ${server.url} (conformance-checked build)`);
process.on('SIGTERM', () =>
  void server.close().then(async () => {
    const violations = await conformance.settled();
    if (violations.length > 0) console.error(describeViolations(violations).replace(/^/gm, '[conformance] '));
    process.exit(0);
  }),
);
