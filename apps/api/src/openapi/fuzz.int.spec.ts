import { negativeBalancesAsOfAnyDay, payoutAnomalies, reconciliation } from '@kamai/projections';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { type JsonSchema, invalid, valid } from './arbitraries.ts';
import { verifyLedger } from '../finance/verify.ts';
import { describeViolations, type OpenApiDocument } from './conformance.ts';

/**
 * Requests made from the OpenAPI document itself, valid and invalid, for every route and every
 * role: no answer is a 5xx, every answer is what the document says (the test server's conformance
 * check), and the ledger still reconciles and verifies. FUZZ_SEED repeats a run; FUZZ_ROUNDS makes
 * it longer (the bench's `fuzz` part).
 */
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 3);
// The same requests on every run unless FUZZ_SEED says otherwise (a failure must be reproducible).
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);

type RoleName = 'none' | 'user' | 'reviewer' | 'finance' | 'admin';
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface Exchange {
  role: RoleName;
  method: string;
  path: string;
  body?: unknown;
  headers: Record<string, string>;
}

let server: TestServer;
let doc: OpenApiDocument;
const clients = {} as Record<RoleName, TestClient>;
/** Ids seen in answers: a path parameter is often one of them, so requests reach past the 404. */
const seen = new Set<string>();
let seenList: string[] = [];

// These end the caller's session or lock it out: they run last, so the rest run signed in.
const LAST = /logout|\/sessions\/|\/password$|\/suspend$|\/erase$|deletion-request$/;

beforeAll(async () => {
  server = await startTestServer();
  doc = server.conformance.doc;
  clients.none = server.client();
  clients.user = await server.signUp();
  clients.reviewer = await server.signUp({ roles: ['reviewer'] });
  clients.finance = await server.signUp({ roles: ['finance'] });
  clients.admin = await server.signUp({ roles: ['admin'] });
  // A task, so proofs, starts and edits find one.
  const task = await clients.admin.post('/api/admin/tasks', {
    title: 'Rate the app',
    description: 'Open the store page and rate it',
    rupeeReward: '10.00',
  });
  expect(task.status).toBe(201);
  seen.add(task.body.id);
}, 60_000);
afterAll(async () => server?.close());

function parameterOf(ref: Parameter | { $ref: string }): Parameter {
  return '$ref' in ref ? doc.components.parameters[ref.$ref.split('/').pop()!]! : ref;
}

/** One request for an operation: valid by the document, or with one part of it wrong. */
function exchangeFor(path: string, method: string, operation: Operation): fc.Arbitrary<Omit<Exchange, 'role'>> {
  const parameters = (operation.parameters ?? []).map(parameterOf);
  const value = (schema: JsonSchema, wrong: boolean) => (wrong ? invalid(schema) : valid(schema));
  // Half the valid ones name an id an answer gave (picked when the request is made, from those seen by then).
  const pathValue = (p: Parameter, wrong: boolean) =>
    wrong
      ? fc.oneof(fc.string({ minLength: 1 }), fc.constant('..'))
      : fc.tuple(valid(p.schema), fc.boolean(), fc.nat()).map(([value, reuse, pick]) => (reuse && seenList.length > 0 ? seenList[pick % seenList.length]! : value));
  const media = Object.keys(operation.requestBody?.content ?? {})[0];
  const bodySchema = media ? operation.requestBody!.content[media]!.schema : undefined;
  const variant = (wrong: 'none' | 'path' | 'query' | 'body' | 'header') =>
    fc
      .record({
        params: fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(p, wrong === 'path')]))),
        query: fc.record(
          Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, value(p.schema, wrong === 'query')])),
          { requiredKeys: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name) },
        ),
        headers: fc.record(
          Object.fromEntries(parameters.filter((p) => p.in === 'header').map((p) => [p.name, wrong === 'header' || !p.schema.pattern ? fc.stringMatching(/^[\x21-\x7e]{0,80}$/) : (valid(p.schema) as fc.Arbitrary<string>)])),
          { requiredKeys: [] },
        ),
        body: bodySchema === undefined ? fc.constant(undefined) : media === 'application/json' ? value(bodySchema, wrong === 'body') : fc.string({ maxLength: 300 }),
      })
      .map(({ params, query, headers, body }) => {
        const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'key' ? String(params[name]) : encodeURIComponent(String(params[name]))));
        const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
        const sent: Record<string, string> = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
        if (media && media !== 'application/json') sent['content-type'] = media === 'image/*' ? 'image/png' : media;
        // JSON bodies are sent encoded here: the client would send a string as it is.
        const encoded = media === 'application/json' && body !== undefined ? JSON.stringify(body) : body;
        return { method: method.toUpperCase(), path: search ? `${filled}?${search}` : filled, body: encoded, headers: sent };
      });
  return fc.oneof(variant('none'), variant('none'), variant('path'), variant('query'), variant('body'), variant('header'));
}

/** Every id-shaped string in an answer, for later requests' paths. */
function collectIds(value: unknown): void {
  if (typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(value) && !seen.has(value)) {
    seen.add(value);
    seenList = [...seen];
  }
  else if (Array.isArray(value)) value.slice(0, 20).forEach(collectIds);
  else if (value && typeof value === 'object') Object.values(value).forEach(collectIds);
}

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
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op: op as Operation })));
    const ordered = [...operations.filter((o) => !LAST.test(o.path)), ...operations.filter((o) => LAST.test(o.path))];
    const roles = Object.keys(clients) as RoleName[];
    const failures: string[] = [];
    let sent = 0;
    const started = Date.now();
    for (const { path, method, op } of ordered) {
      const arbitrary = exchangeFor(path, method, op);
      for (const role of roles) {
        const samples = fc.sample(arbitrary, { numRuns: ROUNDS, seed: SEED + sent });
        for (const exchange of samples) {
          const res = await clients[role].request(exchange.method, exchange.path, exchange.body, exchange.headers);
          sent += 1;
          if (res.status >= 500) failures.push(`${role} ${exchange.method} ${exchange.path} ${JSON.stringify(exchange.body)?.slice(0, 200)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          if (res.status < 300) collectIds(res.body);
        }
      }
    }
    expect(sent).toBe(ordered.length * roles.length * ROUNDS);
    console.log(`fuzz: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${SEED})`);
    expect(failures, `seed ${SEED}`).toEqual([]);
    const violations = await server.conformance.settled();
    expect(violations, `seed ${SEED}: ${describeViolations(violations)}`).toEqual([]);

    // What `reconcile` and `verify-ledger` check, on the data the fuzzing left.
    await server.runner.waitFor(await server.store.headPosition());
    const totals = await reconciliation(server.db);
    expect({ difference: totals.differencePaise, negative: totals.negativeBalances }).toEqual({ difference: 0, negative: [] });
    expect(await negativeBalancesAsOfAnyDay(server.db)).toEqual([]);
    const anomalies = await payoutAnomalies(server.db, new Date(Date.now() - 10 * 60_000).toISOString());
    expect(anomalies).toEqual({ inTwoBatches: [], listedElsewhere: [], pendingOfErased: [], unfinished: [] });
    const verdict = await verifyLedger(server.store, { signingKey: null, witness: null });
    expect(verdict.ok, `verify-ledger: ${JSON.stringify(verdict.failure)}`).toBe(true);
  });
});
