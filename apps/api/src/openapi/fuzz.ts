import fc from 'fast-check';
import { negativeBalancesAsOfAnyDay, payoutAnomalies, reconciliation } from '@kamai/projections';
import { verifyLedger } from '../finance/verify.ts';
import type { TestClient, TestServer } from '../testing/server.ts';
import { type JsonSchema, invalid, valid } from './arbitraries.ts';
import type { OpenApiDocument } from './conformance.ts';

/**
 * Requests made from the OpenAPI document itself, valid and invalid, for every operation and every
 * caller (docs/api.md, "Fuzzed from itself"). Shared by the fuzz test, which asserts on what it
 * finds, and the bench's `fuzz` part, which only prints it. Test support: never on the production path.
 */

export type FuzzRole = 'none' | 'user' | 'reviewer' | 'finance' | 'admin';
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
  method: string;
  path: string;
  body?: unknown;
  headers: Record<string, string>;
}

// These end the caller's session or lock it out: they run last, so the rest run signed in.
const LAST = /logout|\/sessions\/|\/password$|\/suspend$|\/erase$|deletion-request$/;

/** The callers a run uses, each signed in (but `none`), and the task proofs, starts and edits find. */
export async function fuzzCallers(server: TestServer): Promise<Record<FuzzRole, TestClient> & { taskId: string }> {
  const admin = await server.signUp({ roles: ['admin'] });
  const task = await admin.post('/api/admin/tasks', { title: 'Rate the app', description: 'Open the store page and rate it', rupeeReward: '10.00' });
  if (task.status !== 201) throw new Error(`the fuzz run's task was refused: ${task.status} ${JSON.stringify(task.body)}`);
  return {
    none: server.client(),
    user: await server.signUp(),
    reviewer: await server.signUp({ roles: ['reviewer'] }),
    finance: await server.signUp({ roles: ['finance'] }),
    admin,
    taskId: (task.body as { id: string }).id,
  };
}

export interface FuzzResult {
  /** How many requests were sent, and how many operations × callers they covered. */
  sent: number;
  operations: number;
  seconds: number;
  /** Answers by status. */
  statuses: Record<number, number>;
  /** Each 5xx: caller, request and answer. */
  serverErrors: string[];
}

/**
 * `rounds` requests for each operation and caller, from fast-check arbitraries of the document's
 * schemas: some valid throughout, some with the path, query, body or a header wrong. Half the valid
 * path ids are ids earlier answers gave (`seedIds` to start with), so requests reach past the 404.
 */
export async function fuzz(
  doc: OpenApiDocument,
  callers: Record<FuzzRole, TestClient>,
  options: { rounds: number; seed: number; seedIds?: string[] },
): Promise<FuzzResult> {
  const seen = new Set<string>(options.seedIds ?? []);
  let seenList = [...seen];
  const collectIds = (value: unknown): void => {
    if (typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(value) && !seen.has(value)) {
      seen.add(value);
      seenList = [...seen];
    } else if (Array.isArray(value)) value.slice(0, 20).forEach(collectIds);
    else if (value && typeof value === 'object') Object.values(value).forEach(collectIds);
  };
  const parameterOf = (ref: Parameter | { $ref: string }): Parameter =>
    '$ref' in ref ? (doc.components.parameters[ref.$ref.split('/').pop()!]! as Parameter) : ref;

  /** One request for an operation: valid by the document, or with one part of it wrong. */
  const exchangeFor = (path: string, method: string, operation: Operation): fc.Arbitrary<Exchange> => {
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
  };

  const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op: op as Operation })));
  const ordered = [...operations.filter((o) => !LAST.test(o.path)), ...operations.filter((o) => LAST.test(o.path))];
  const roles = Object.keys(callers) as FuzzRole[];
  const result: FuzzResult = { sent: 0, operations: ordered.length, seconds: 0, statuses: {}, serverErrors: [] };
  const started = performance.now();
  for (const { path, method, op } of ordered) {
    const arbitrary = exchangeFor(path, method, op);
    for (const role of roles) {
      for (const exchange of fc.sample(arbitrary, { numRuns: options.rounds, seed: options.seed + result.sent })) {
        const res = await callers[role].request(exchange.method, exchange.path, exchange.body, exchange.headers);
        result.sent += 1;
        result.statuses[res.status] = (result.statuses[res.status] ?? 0) + 1;
        if (res.status >= 500) result.serverErrors.push(`${role} ${exchange.method} ${exchange.path} ${JSON.stringify(exchange.body)?.slice(0, 200)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        if (res.status < 300) collectIds(res.body);
      }
    }
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/**
 * What `reconcile` and `verify-ledger` check, on the data the fuzzing left: the ledger's difference
 * is 0, no balance is or ever was negative, no payout anomaly, the event log's chains verify. Each
 * problem found, as a line; none when the ledger holds.
 */
export async function ledgerProblems(server: TestServer): Promise<string[]> {
  await server.runner.waitFor(await server.store.headPosition());
  const problems: string[] = [];
  const totals = await reconciliation(server.db);
  if (totals.differencePaise !== 0) problems.push(`reconcile: the ledger's difference is ${totals.differencePaise} paise`);
  if (totals.negativeBalances.length > 0) problems.push(`reconcile: negative balances ${JSON.stringify(totals.negativeBalances)}`);
  const everNegative = await negativeBalancesAsOfAnyDay(server.db);
  if (everNegative.length > 0) problems.push(`reconcile: balances negative on a day ${JSON.stringify(everNegative)}`);
  const anomalies = await payoutAnomalies(server.db, new Date(Date.now() - 10 * 60_000).toISOString());
  for (const [kind, found] of Object.entries(anomalies)) if (found.length > 0) problems.push(`reconcile: payout anomaly ${kind} ${JSON.stringify(found)}`);
  const verdict = await verifyLedger(server.store, { signingKey: null, witness: null });
  if (!verdict.ok) problems.push(`verify-ledger: ${JSON.stringify(verdict.failure)}`);
  return problems;
}
