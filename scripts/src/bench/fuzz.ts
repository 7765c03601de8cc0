import { type FuzzResult, fuzz, fuzzCallers, ledgerProblems, logger, requestLogger, startTestServer } from '@kamai/api/testing';

/**
 * The fuzz test's generator (apps/api/src/openapi/fuzz.ts) for longer: about `requests` requests,
 * valid and invalid, from the OpenAPI document, for every operation and caller, against a real
 * server on loopback with the conformance check of the tests. Measures and reports; asserts nothing.
 */
export interface FuzzBench extends FuzzResult {
  seed: number;
  rounds: number;
  /** Requests or answers that disagree with the document, as `METHOD path → status: problem`. */
  violations: string[];
  /** What `reconcile` and `verify-ledger` found wrong afterwards (none when the ledger holds). */
  ledger: string[];
}

export async function benchFuzz(options: { requests: number; seed?: number; log: (line: string) => void }): Promise<FuzzBench> {
  // One line per request would bury the table (thousands of them): warnings and errors only.
  const levels = [logger.level, requestLogger.level] as const;
  logger.level = requestLogger.level = 'warn';
  const server = await startTestServer();
  try {
    const { taskId, ...callers } = await fuzzCallers(server);
    const perRound = countOperations(server.conformance.doc.paths) * Object.keys(callers).length;
    const rounds = Math.max(1, Math.round(options.requests / perRound));
    const seed = options.seed ?? Date.now() % 2 ** 31;
    options.log(`[bench] fuzz: ${rounds} rounds of ${perRound} requests, seed ${seed}`);
    const result = await fuzz(server.conformance.doc, callers, { rounds, seed, seedIds: [taskId] });
    const violations = (await server.conformance.settled()).map((v) => `${v.request} → ${v.status}: ${v.problem}`);
    return { ...result, seed, rounds, violations, ledger: await ledgerProblems(server) };
  } finally {
    // Violations are reported above, not thrown: the bench prints, the fuzz test asserts.
    server.conformance.violations.length = 0;
    await server.close();
    [logger.level, requestLogger.level] = levels;
  }
}

const countOperations = (paths: Record<string, Record<string, unknown>>) => Object.values(paths).reduce((sum, ops) => sum + Object.keys(ops).length, 0);
