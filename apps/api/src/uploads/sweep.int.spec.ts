import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskAs, uploadedImage } from '../tasks/testing.ts';
import { type TestServer, startTestServer } from '../testing/server.ts';
import { databasesForSpec } from '../event-store/postgres-testing.ts';

const database = databasesForSpec();

// The upload ledger in DATA_DIR/throttle.sqlite, and in PostgreSQL with the log (EVENT_STORE=postgres).
describe.each([
  ['SQLite', async (): Promise<Record<string, string>> => ({})],
  ['PostgreSQL', async (): Promise<Record<string, string>> => ({ EVENT_STORE: 'postgres', DATABASE_URL: await database() })],
] as const)('unreferenced uploads, ledger on %s', (_name, env) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(await env());
  });
  afterAll(async () => server?.close());

  it('are deleted once no command has used them for 24 hours; used ones stay', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    const task = await createTaskAs(admin);
    const user = await server.signUp();
    const used = await uploadedImage(server, user);
    const unused = await uploadedImage(server, user);
    const submitted = await user.post(`/api/tasks/${task.id}/submit-proof`, { proofImageUrl: used, proofDescription: 'Done' });
    expect(submitted.status).toBe(201);
    // The proof keeps the server's re-encoded copy; the upload itself is gone once used.
    const proof = (submitted.body as { proofImageUrl: string }).proofImageUrl;
    expect(proof).not.toBe(used);

    // Within the day nothing goes.
    expect(await server.sweepUploads()).toEqual([]);
    expect((await user.get(unused)).status).toBe(200);

    const deleted = await server.sweepUploads(Date.now() + 25 * 60 * 60_000);
    expect(deleted).toEqual([unused.slice('/objects/'.length)]);
    expect((await user.get(unused)).status).toBe(404);
    expect((await user.get(proof)).status).toBe(200);
    // Swept once: a second run has nothing left to look at.
    expect(await server.sweepUploads(Date.now() + 50 * 60 * 60_000)).toEqual([]);
    expect((await user.get(proof)).status).toBe(200);
  });
});
