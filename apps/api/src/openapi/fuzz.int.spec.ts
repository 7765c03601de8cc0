import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { describeViolations } from './conformance.ts';
import { type FuzzRole, fuzz, fuzzCallers, ledgerProblems } from './fuzz.ts';

/**
 * Requests made from the OpenAPI document itself, valid and invalid, for every route and every
 * role (./fuzz.ts): no answer is a 5xx, every answer is what the document says (the test server's
 * conformance check), and the ledger still reconciles and verifies. FUZZ_SEED repeats a run;
 * FUZZ_ROUNDS makes it longer (the bench's `fuzz` part runs the same generator for longer).
 */
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 3);
// The same requests on every run unless FUZZ_SEED says otherwise (a failure must be reproducible).
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);

let server: TestServer;
let clients: Record<FuzzRole, TestClient>;
let taskId: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ taskId, ...clients } = await fuzzCallers(server));
}, 60_000);
afterAll(async () => server?.close());

// First, while every client is still signed in (the fuzzing ends sessions).
describe('what the fuzzing found', () => {
  it('refuses a JSON array where a body of optional fields is taken (valibot took it as {})', async () => {
    const res = await clients.user.put('/api/profile', [{ firstName: 'Asha' }]);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
  });

  it('answers a malformed escape in an upload key with a refusal, not a 500', async () => {
    const res = await clients.user.request('PUT', '/api/objects/put/uploads/%%7/x', 'bytes', { 'content-type': 'image/png' });
    expect(res.status).toBeLessThan(500);
    expect(res.status).toBeGreaterThanOrEqual(400);
  });
});

describe('requests made from the OpenAPI document', () => {
  it('answer every route and role without a 5xx and as the document says; the ledger reconciles and verifies after', { timeout: 180_000 }, async () => {
    const { sent, operations, seconds, serverErrors } = await fuzz(server.conformance.doc, clients, { rounds: ROUNDS, seed: SEED, seedIds: [taskId] });
    expect(sent).toBe(operations * Object.keys(clients).length * ROUNDS);
    console.log(`fuzz: ${sent} requests in ${seconds.toFixed(1)} s (seed ${SEED})`);
    expect(serverErrors, `seed ${SEED}`).toEqual([]);
    const violations = await server.conformance.settled();
    expect(violations, `seed ${SEED}: ${describeViolations(violations)}`).toEqual([]);

    // What `reconcile` and `verify-ledger` check, on the data the fuzzing left.
    expect(await ledgerProblems(server), `seed ${SEED}`).toEqual([]);
  });
});
