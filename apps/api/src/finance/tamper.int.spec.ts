import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eventCodec, streams } from '@kamai/contracts';
import { type UserCommand, type UserState, userDecider } from '@kamai/domain';
import { handleCommand } from '../commands/handle.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { loadConfig } from '../config.ts';
import { type RunningServer, startServer } from '../server.ts';
import { openSealedSqliteStore } from '../privacy/open.ts';
import { FileWitness } from '../event-store/witness.ts';
import { TestClient, freshMobile } from '../testing/server.ts';
import { deleteCheckpoints, editAndRechain, relinkLog } from '../testing/tamper.ts';
import { UPI, adjust, balanceOf } from './testing.ts';
import { verifyLedger } from './verify.ts';

// Issue 33, findings 4 and 5, as an attacker holding DATA_DIR (but not LEDGER_SIGNING_KEY, nor the
// witness kept elsewhere) would do them, against a real server restarted over the changed files.
const KEY = 'a-ledger-signing-key-kept-in-a-secret-store-0123456789';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `kamai-${name}-`));
  dirs.push(dir);
  return dir;
};

function configFor(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', WEB_DIST: '', REGISTRATIONS_PER_HOUR: '1000000', ...env });
}

async function signUp(server: RunningServer, roles: Array<'finance'> = []) {
  const client = new TestClient(server.url);
  const mobile = freshMobile();
  const res = await client.post('/api/auth/register', { mobile, password: 'secret123', firstName: 'Ravi', lastName: 'Kumar', consent: true });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const userId = (res.body as { id: string }).id;
  for (const role of roles) await grantRole(server.store, userId, role, 'test', new Date());
  if (roles.length > 0) {
    await server.runner.waitFor(await server.store.headPosition(), 10_000);
    // A fresh sign-in carries the role.
    expect((await client.post('/api/auth/login', { mobile, password: 'secret123' })).status).toBe(200);
  }
  return Object.assign(client, { mobile, userId });
}

/** A server with a user credited ₹1,200 by finance, stopped gracefully (it signs its head on the way out). */
async function userWithRs1200(env: Record<string, string>) {
  const dataDir = tempDir('tamper');
  const config = configFor(dataDir, env);
  const server = await startServer(config, () => {});
  let userId: string;
  let mobile: string;
  try {
    const finance = await signUp(server, ['finance']);
    const another = await signUp(server, ['finance']);
    const user = await signUp(server);
    // Two members' credits, each within what one member may credit alone.
    await adjust(finance, user.mobile, 1000);
    await adjust(another, user.mobile, 200);
    expect(await balanceOf(user)).toBe('1200.00');
    userId = user.userId;
    mobile = user.mobile;
  } finally {
    await server.close();
  }
  return { dataDir, config, userId, mobile, file: join(dataDir, 'events.sqlite') };
}

/** The position of the event of `userId`'s stream whose data holds `text`. */
function positionHolding(file: string, userId: string, text: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare<[string, string], { position: number }>("SELECT position FROM events WHERE stream_id = ? AND instr(data, ?) > 0 ORDER BY position LIMIT 1").get(streams.user(userId), text);
    if (!row) throw new Error(`no event of the user holds ${text}`);
    return row.position;
  } finally {
    db.close();
  }
}

const countCheckpoints = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM ledger_checkpoints').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('tamper evidence that holds (issue 33)', { timeout: 120_000 }, () => {
  it('finding 4: an amount edited, the log rechained whole and its checkpoints deleted: the restarted server refuses to sign, health says degraded, verify-ledger fails', async () => {
    const witnessFile = join(tempDir('witness'), 'ledger-witness.jsonl');
    const { config, userId, file } = await userWithRs1200({ LEDGER_SIGNING_KEY: KEY, LEDGER_WITNESS: witnessFile });
    const witness = new FileWitness(witnessFile);
    const witnessed = await witness.latest();
    expect(witnessed).not.toBeNull();
    expect(countCheckpoints(file)).toBeGreaterThan(0);

    // ₹1,000 of the ₹1,200 becomes ₹30,000; the stream, then the whole log, rechained as chain.ts says; the checkpoints gone.
    editAndRechain(file, positionHolding(file, userId, '100000'), '100000', '3000000');
    relinkLog(file);
    deleteCheckpoints(file);
    const witnessBefore = readFileSync(witnessFile, 'utf8');

    const server = await startServer(config, () => {});
    try {
      // The refusal comes from the first signing, at start.
      const deadline = Date.now() + 10_000;
      let health = (await new TestClient(server.url).get('/api/health')).body as { status: string; ledger?: { state: string; reason?: string } };
      while (health.ledger?.state !== 'refused' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        health = (await new TestClient(server.url).get('/api/health')).body as typeof health;
      }
      expect(health).toMatchObject({ status: 'degraded', ledger: { state: 'refused', witness: true, reason: expect.stringContaining("the witness's checkpoint") } });

      const verdict = await verifyLedger(server.store, { signingKey: config.ledgerSigningKey, witness });
      expect(verdict).toMatchObject({ ok: false, failure: { problem: 'changed', detail: expect.stringContaining("the witness's checkpoint") } });
      // Even with no witness at hand, the key alone: no signed checkpoint covers the log.
      expect((await verifyLedger(server.store, { signingKey: config.ledgerSigningKey })).failure).toMatchObject({ problem: 'unsigned' });
    } finally {
      await server.close();
    }
    // Nothing was signed over the edited log, at start nor at the graceful stop.
    expect(countCheckpoints(file)).toBe(0);
    expect(readFileSync(witnessFile, 'utf8')).toBe(witnessBefore);
  });

  it('finding 5: a snapshot resealed with the app’s own code and DATA_DIR’s keys moves no money with the key set, and verify-ledger fails on it', async () => {
    const { config, userId, mobile, file } = await userWithRs1200({ LEDGER_SIGNING_KEY: KEY });
    // The attacker folds the user's stream with the app's code, adds ₹10,000 and seals it as a snapshot.
    const attacker = openSealedSqliteStore(file);
    try {
      const stream = streams.user(userId);
      const { state, revision } = await foldUser(attacker, stream);
      state.wallet.balance += 1_000_000;
      await attacker.capabilities.snapshots!.writeSnapshot(stream, { revision, version: userDecider.snapshot!.version, state: userDecider.snapshot!.save(state) });
      // The app's own code opens it: DATA_DIR holds the key-encryption key by default.
      expect((await attacker.capabilities.snapshots!.readSnapshot(stream))?.state).toMatchObject({ wallet: { balance: state.wallet.balance } });
    } finally {
      await attacker.close();
    }

    const server = await startServer(config, () => {});
    try {
      // The first command on the stream after the restart reads the snapshot: without LEDGER_SIGNING_KEY's vouching it is ignored.
      const user = new TestClient(server.url);
      expect((await user.post('/api/auth/login', { mobile, password: 'secret123' })).status).toBe(200);
      const withdrawal = await user.post('/api/withdrawals', { amount: 5000, upiId: UPI });
      expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(409);
      expect(withdrawal.body.error.code).toBe('insufficient_balance');
      expect(await balanceOf(user)).toBe('1200.00');
      // And verify-ledger folds the stream and names the snapshot its events do not fold to.
      const verdict = await verifyLedger(server.store, { signingKey: config.ledgerSigningKey });
      expect(verdict).toMatchObject({ ok: false, failure: { streamId: streams.user(userId), problem: 'changed', detail: expect.stringContaining('snapshot') } });
    } finally {
      await server.close();
    }
  });

  it('finding 5 without the key: the forged snapshot is not prevented, but verify-ledger fails on it (an honest one passes)', async () => {
    const { config, userId, file } = await userWithRs1200({});
    const store = openSealedSqliteStore(file);
    try {
      const stream = streams.user(userId);
      const whole = await foldUser(store, stream);
      // An honest snapshot one event short of the end passes...
      const honest = await foldUser(store, stream, whole.revision);
      await store.capabilities.snapshots!.writeSnapshot(stream, { revision: honest.revision, version: userDecider.snapshot!.version, state: userDecider.snapshot!.save(honest.state) });
      expect(await verifyLedger(store, {})).toMatchObject({ ok: true });
      // ...a forged one at the end (newer, so it replaces it) does not.
      whole.state.wallet.balance += 1_000_000;
      await store.capabilities.snapshots!.writeSnapshot(stream, { revision: whole.revision, version: userDecider.snapshot!.version, state: userDecider.snapshot!.save(whole.state) });
      expect((await store.capabilities.snapshots!.readSnapshot(stream))?.state).toMatchObject({ wallet: { balance: whole.state.wallet.balance } });
      expect((await verifyLedger(store, {})).failure).toMatchObject({ streamId: stream, revision: whole.revision, problem: 'changed' });
    } finally {
      await store.close();
    }
    expect(config.ledgerSigningKey).toBeNull();
  });
});

describe('snapshots the command handler keeps honestly', () => {
  it('pass verify-ledger, across a restart whose first command starts from one and goes on folding into it', async () => {
    const file = join(tempDir('honest'), 'events.sqlite');
    const userId = crypto.randomUUID();
    const stream = streams.user(userId);
    let n = 0;
    const now = '2026-11-23T10:00:00.000Z';
    const credit = (amountPaise: number): UserCommand => ({
      type: 'AdjustWallet',
      data: { entryId: `e-${++n}`, notificationId: `n-${n}`, amountPaise, direction: 'credit', reason: 'test', by: `fin-${n}` },
      now,
    });
    const withdraw = (): UserCommand => ({
      type: 'RequestWithdrawal',
      data: { withdrawalId: `w-${++n}`, entryId: `e-${n}`, notificationId: `n-${n}`, amountPaise: 10_000, destination: { kind: 'upi', upiId: 'asha@okhdfc' } },
      now,
    });
    let store = openSealedSqliteStore(file);
    await handleCommand(store, stream, userDecider, { type: 'RegisterUser', data: { userId, mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao' }, now });
    for (let i = 0; i < 120; i++) await handleCommand(store, stream, userDecider, i % 3 === 2 ? withdraw() : credit(10_000));
    await store.close();
    // A new process: the first command starts from the snapshot and goes on folding into it.
    store = openSealedSqliteStore(file);
    try {
      for (let i = 0; i < 150; i++) await handleCommand(store, stream, userDecider, i % 3 === 2 ? withdraw() : credit(10_000));
      const [kept] = await store.openSnapshots();
      expect(kept?.revision).toBeGreaterThan(200);
      expect(await verifyLedger(store, {})).toMatchObject({ ok: true, failure: null });
    } finally {
      await store.close();
    }
  });
});

/** A user's stream folded as the command handler folds it. */
async function foldUser(store: { readStream: RunningServer['store']['readStream'] }, stream: string, count?: number) {
  let state: UserState = userDecider.initialState();
  const events = (await store.readStream(stream)).slice(0, count);
  for (const recorded of events) state = userDecider.evolve(state, eventCodec.decode(recorded) as never);
  return { state, revision: events.length - 1 };
}
