import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjust } from '../finance/testing.ts';
import { submitDocument } from '../kyc/testing.ts';
import { type TestClient, type TestServer, freshMobile } from '../testing/index.ts';
import { type StoreKind, startTestServerOn } from '../testing/postgres.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../../..');
const cli = (dataDir: string, ...args: string[]) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/src/cli.ts'), ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir } });

const FIRST = 'Zenobiaxq';
const LAST = 'Quillfeatherz';
const UPI = 'zenobia.qf@okaxis';
const ACCOUNT = '918273645501234';
const HOLDER = 'Zenobiaxq Quillfeatherz';

/** Which of the needles occur anywhere in the file's bytes (and its WAL's). */
function bytesFound(file: string, needles: readonly string[]): string[] {
  const bytes = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f));
  return needles.filter((needle) => bytes.some((b) => b.includes(Buffer.from(needle))));
}

/** Events as stored (sealed fields still sealed), in log order. */
function rawEvents(where: string, ...params: string[]): { stream_id: string; type: string; data: string; metadata: string }[] {
  const db = new Database(join(server.dataDir, 'events.sqlite'), { readonly: true });
  try {
    return db.prepare(`SELECT stream_id, type, data, metadata FROM events WHERE ${where} ORDER BY position`).all(...params) as never;
  } finally {
    db.close();
  }
}

/** The events of the erasure workflow of a deletion request, as the store reads them back (on either store). */
async function workflowOf(requestId: string) {
  const all = await server.store.readAll({ after: 0, limit: 1_000_000 });
  const started = all.find((e) => e.type === 'WorkflowStarted' && JSON.stringify(e.data).includes(`"target":"${requestId}"`));
  expect(started).toBeDefined();
  return all.filter((e) => e.streamId === started!.streamId);
}

let server: TestServer;
let admin: TestClient;
let finance: TestClient;
let reviewer: TestClient;
/** Funds users: whoever adjusted a wallet does not settle its withdrawals. */
let funder: TestClient;
/** The file's server on `kind` and its staff, for the describe block it is called in. */
function onStore(kind: StoreKind) {
  beforeAll(async () => {
    server = await startTestServerOn(kind);
    reviewer = await server.signUp({ roles: ['reviewer'] });
    admin = await server.signUp({ roles: ['admin'] });
    finance = await server.signUp({ roles: ['finance'] });
    funder = await server.signUp({ roles: ['finance'] });
  });
  afterAll(() => server?.close());
}

let user: TestClient & { mobile: string; password: string; userId: string };
let requestId: string;
let kycImages: string[];

const ERASES = 'is refused while money is owed, then forgets the person while finance keeps balancing';

async function erases() {
  user = await server.signUp({ firstName: FIRST, lastName: LAST });
  expect((await admin.put('/api/admin/settings', { deletionCoolingOffHours: 0 })).body.deletionCoolingOffHours).toBe(0);
  expect((await admin.put('/api/admin/settings', { deletionCoolingOffHours: -1 })).status).toBe(400);
  await adjust(funder, user.mobile, 1000);
  expect((await user.post('/api/withdrawals', { amount: 300, upiId: UPI })).status).toBe(201);
  expect((await user.post('/api/withdrawals', { amount: 400, bankAccount: { accountNumber: ACCOUNT, ifsc: 'HDFC0001234', holderName: HOLDER } })).status).toBe(201);
  const kyc = await submitDocument(server.url, user, 'pan', 11);
  kycImages = [kyc.frontImageUrl, kyc.backImageUrl];
  expect((await reviewer.get(kycImages[0]!)).status).toBe(200);

  const data = await user.get('/api/profile/export');
  expect(data.status).toBe(200);
  expect(data.body.profile).toMatchObject({ id: user.userId, firstName: FIRST, lastName: LAST, mobile: user.mobile });
  expect(data.body.withdrawals.map((w: { destination: unknown }) => w.destination)).toEqual(
    expect.arrayContaining([{ kind: 'upi', upiId: UPI }, { kind: 'bank', accountNumber: ACCOUNT, ifsc: 'HDFC0001234', holderName: HOLDER }]),
  );
  expect(data.body.kyc.submissions).toHaveLength(1);
  expect(data.body.sessions.length).toBeGreaterThan(0);
  expect(data.body.wallet.transactions.length).toBeGreaterThanOrEqual(3);
  expect(data.body.consent).toMatchObject({ policyVersion: expect.any(String), confirmedAdult: true });

  const requested = await user.post('/api/profile/deletion-request', { password: user.password });
  expect(requested.status).toBe(202);
  requestId = requested.body.id;
  // 300 available and 700 pending payout, as the admin's list shows.
  const listedOwed = (await admin.get('/api/admin/deletions')).body.find((d: { id: string }) => d.id === requestId);
  expect(listedOwed).toMatchObject({ balance: '300.00', pendingPayout: '700.00' });
  const headBefore = await server.store.headPosition();
  const owed = await admin.post(`/api/admin/deletions/${requestId}/erase`);
  expect(owed.status).toBe(409);
  expect(owed.body.error.code).toBe('balance_not_settled');
  // Refused before anything is recorded: no workflow is started for it.
  expect(await server.store.headPosition()).toBe(headBefore);
  expect((await user.post('/api/withdrawals', { amount: 300, upiId: UPI })).status).toBe(201);
  expect((await admin.post(`/api/admin/deletions/${requestId}/erase`)).body.error.code).toBe('balance_not_settled');
  // Sent to the bank in a batch: still owed (the bank may pay it or send it back), still refused.
  const pending = (await finance.get<{ id: string; userId: string; amount: string }[]>('/api/admin/withdrawals?status=pending')).body.filter((w) => w.userId === user.userId);
  const batch = await finance.post('/api/admin/payout-batches', { withdrawalIds: pending.map((w) => w.id) });
  expect(batch.status, JSON.stringify(batch.body)).toBe(201);
  expect((await admin.post(`/api/admin/deletions/${requestId}/erase`)).body.error.code).toBe('balance_not_settled');
  const results = ['reference,amount,status,utr', ...pending.map((w) => `${w.id},${w.amount},SUCCESS,UTR${w.id.slice(0, 8)}`)].join('\r\n');
  const imported = await finance.request('POST', `/api/admin/payout-batches/${batch.body.id}/results`, results, { 'content-type': 'text/csv' });
  expect(imported.body).toMatchObject({ applied: pending.length, refused: [] });
  expect((await user.get('/api/auth/user')).body).toMatchObject({ totalRupees: '0.00', pendingPayout: '0.00' });
  // Erasing is an admin's: not finance's, not the user's own.
  expect((await finance.post(`/api/admin/deletions/${requestId}/erase`)).status).toBe(403);
  expect((await user.post(`/api/admin/deletions/${requestId}/erase`)).status).toBe(403);

  const erased = await admin.post(`/api/admin/deletions/${requestId}/erase`);
  expect(erased.status, JSON.stringify(erased.body)).toBe(200);
  expect(erased.body).toMatchObject({ id: requestId, userId: user.userId, status: 'erased', mobile: null, erasedAt: expect.any(String) });
  // A workflow: its intent first (every step, ids only), each step's outcome, then its end.
  const record = await workflowOf(requestId);
  expect(record.map((e) => e.type)).toEqual(['WorkflowStarted', ...Array<string>(7).fill('WorkflowStepRecorded'), 'WorkflowCompleted']);
  const actions = (record[0]!.data as { steps: { action: string }[] }).steps.map((step) => step.action);
  expect(actions).toEqual(['erase_user', 'release_mobile', 'release_payee', 'end_sessions', 'delete_images', 'delete_key', 'checkpoint_read_db']);
  // No PAN was proved (its card came without a number): no payee to give back.
  expect(record.slice(1, 8).map((e) => (e.data as { outcome: string }).outcome)).toEqual(['applied', 'applied', 'skipped', 'applied', 'applied', 'applied', 'applied']);
  const recordText = JSON.stringify(record);
  for (const personal of [user.mobile, FIRST, LAST, UPI, ACCOUNT, server.personalData.mobileStreamId(user.mobile)]) expect(recordText).not.toContain(personal);

  // Signed out everywhere and unable to sign in again.
  expect((await user.get('/api/auth/user')).status).toBe(401);
  expect((await server.client().post('/api/auth/login', { mobile: user.mobile, password: user.password })).status).toBe(401);
  // The images are gone from object storage.
  for (const url of kycImages) expect((await reviewer.get(url)).status).toBe(404);

  // Nothing of the person is left in the read database's bytes.
  const readDb = join(server.dataDir, 'read.sqlite');
  expect(bytesFound(readDb, [user.mobile, FIRST, LAST, UPI, ACCOUNT, HOLDER])).toEqual([]);

  // Finance: the chain verifies, the books balance, the statement still reads by user id.
  expect((await finance.get('/api/admin/ledger/verify')).body).toMatchObject({ ok: true });
  expect((await finance.get('/api/admin/ledger/trial-balance')).body.difference).toBe('0.00');
  expect((await finance.get('/api/admin/ledger/reconciliation')).body.difference).toBe('0.00');
  const statement = await finance.get(`/api/admin/ledger/users/${user.userId}/statement`);
  expect(statement.status).toBe(200);
  expect(statement.body.user).toMatchObject({ id: user.userId, name: 'Deleted user', mobile: '' });
  expect(statement.body.closing).toEqual({ available: '0.00', pendingPayout: '0.00' });
  expect(statement.body.entries.length).toBeGreaterThanOrEqual(7);

  const audit = await admin.get('/api/admin/audit');
  expect(audit.body).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'user_erased', reference: requestId })]));
  expect((await admin.get('/api/admin/deletions?status=erased')).body.map((d: { id: string }) => d.id)).toContain(requestId);
}

describe('on SQLite', () => {
  onStore('sqlite');

  describe('deletion requests', () => {
    it('needs the password again, answers 202 with the cooling-off end, and can be cancelled; both are notified', async () => {
      const user = await server.signUp();
      const wrong = await user.post('/api/profile/deletion-request', { password: 'not-my-password' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toMatchObject({ code: 'validation_failed', fields: { password: 'Current password is incorrect' } });
      expect((await user.get('/api/profile/deletion-request')).body).toEqual({ request: null });

      const requested = await user.post('/api/profile/deletion-request', { password: user.password });
      expect(requested.status).toBe(202);
      expect(requested.body).toMatchObject({ status: 'pending', cancelledAt: null });
      expect(Date.parse(requested.body.coolingOffEndsAt) - Date.parse(requested.body.requestedAt)).toBe(48 * 3_600_000);
      // Asking again while pending changes nothing.
      expect((await user.post('/api/profile/deletion-request', { password: user.password })).body.id).toBe(requested.body.id);

      const listed = await admin.get('/api/admin/deletions?status=pending');
      expect(listed.status).toBe(200);
      const mine = listed.body.find((d: { id: string }) => d.id === requested.body.id);
      expect(mine).toMatchObject({ userId: user.userId, status: 'pending', erasedAt: null, balance: '0.00', pendingPayout: '0.00' });
      expect(mine.mobile).toMatch(/^\+91 \d\dx+\d\d$/);

      const early = await admin.post(`/api/admin/deletions/${requested.body.id}/erase`);
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('deletion_cooling_off');

      const cancelled = await user.delete('/api/profile/deletion-request');
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ id: requested.body.id, status: 'cancelled' });
      expect((await user.delete('/api/profile/deletion-request')).status).toBe(404);
      const keys = (await user.get('/api/notifications')).body.map((n: { key: string }) => n.key);
      expect(keys).toEqual(expect.arrayContaining(['deletion_requested', 'deletion_cancelled']));
      expect((await admin.get('/api/admin/deletions?status=cancelled')).body.map((d: { id: string }) => d.id)).toContain(requested.body.id);
      expect((await admin.get('/api/admin/deletions?status=lost')).status).toBe(400);
      expect((await admin.post(`/api/admin/deletions/${requested.body.id}/erase`)).status).toBe(409);
    });
  });

  describe('erasure', () => {
    it(ERASES, erases);

    it('retrying an erasure completes it and changes nothing more', async () => {
      const again = await admin.post(`/api/admin/deletions/${requestId}/erase`);
      expect(again.status).toBe(200);
      expect(again.body.status).toBe('erased');
    });

    it('frees the mobile number for a new registration that reveals no link to the erased person', async () => {
      const newcomer = server.client();
      const fresh = await newcomer.post('/api/auth/register', { mobile: user.mobile, password: 'another123', firstName: 'New', lastName: 'Owner', consent: true });
      expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
      expect(fresh.body.id).not.toBe(user.userId);
      // The number's stream as stored: reserved, released, reserved again; the erased id nowhere in it
      // (the holder is sealed under each reservation's own key, and the first one's key is gone).
      const reservation = server.personalData.mobileStreamId(user.mobile);
      const stored = rawEvents('stream_id = ?', reservation);
      expect(stored.map((e) => e.type)).toEqual(['MobileReserved', 'MobileReleased', 'MobileReserved']);
      expect(JSON.stringify(stored)).not.toContain(user.userId);
      expect(JSON.stringify(stored)).not.toContain(fresh.body.id);
      // Opened, the old holding reads as erased; the new one names the new account, which works.
      const opened = await server.store.readStream(reservation);
      expect(opened.map((e) => (e.data as { userId: string }).userId)).toEqual(['[erased]', '[erased]', fresh.body.id]);
      expect((await newcomer.get('/api/auth/user')).body).toMatchObject({ id: fresh.body.id, totalRupees: '0.00' });
      const signedIn = await server.client().post('/api/auth/login', { mobile: user.mobile, password: 'another123' });
      expect(signedIn.status).toBe(200);
    });

    // Two CLI runs, each a process start: minutes on a busy machine.
    it('replay-wallet by user id and a rebuild of the read models give the same scrubbed rows', { timeout: 240_000 }, async () => {
      const replay = await cli(server.dataDir, 'replay-wallet', user.userId);
      expect(replay.stdout).toContain('events say:      available 0.00, pending payout 0.00');
      // Named by its id, never masked as if it were a phone number, and said to be erased.
      expect(replay.stdout).toContain(`wallet of user ${user.userId}, erased`);
      expect(replay.stdout).not.toMatch(/\+91 X/);
      const rowsOf = () => {
        const db = new Database(join(server.dataDir, 'read.sqlite'), { readonly: true });
        try {
          return {
            user: db.prepare('SELECT id, mobile, password_hash, first_name, last_name, email, erased_at FROM users WHERE id = ?').get(user.userId),
            withdrawals: db.prepare('SELECT destination FROM withdrawal_requests WHERE user_id = ? ORDER BY id').all(user.userId),
            kyc: db.prepare('SELECT front_image_url, back_image_sha256 FROM kyc_documents WHERE user_id = ?').all(user.userId),
            sessions: db.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?').get(user.userId),
          };
        } finally {
          db.close();
        }
      };
      // Every row of every table that holds the person, whole: the live scrub leaves what a rebuild writes.
      const everyRowOf = () => {
        const db = new Database(join(server.dataDir, 'read.sqlite'), { readonly: true });
        try {
          const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
          const rows: Record<string, unknown[]> = { users: db.prepare('SELECT * FROM users WHERE id = ?').all(user.userId) };
          for (const table of tables) {
            const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
            if (columns.includes('user_id')) rows[table] = db.prepare(`SELECT * FROM "${table}" WHERE user_id = ? ORDER BY ${columns.map((c) => `"${c}"`).join(', ')}`).all(user.userId);
          }
          return rows;
        } finally {
          db.close();
        }
      };
      const live = rowsOf();
      const liveRows = everyRowOf();
      expect(Object.keys(liveRows)).toEqual(expect.arrayContaining(['users', 'withdrawal_requests', 'kyc_documents', 'notifications', 'deletion_requests']));
      expect(live.user).toMatchObject({ mobile: null, password_hash: null, first_name: 'Deleted user', last_name: null, email: null });
      expect(live.withdrawals.map((w) => JSON.parse((w as { destination: string }).destination))).toEqual(
        expect.arrayContaining([{ kind: 'upi', upiId: '[erased]' }, { kind: 'bank', accountNumber: '[erased]', ifsc: 'HDFC0001234', holderName: '[erased]' }]),
      );
      expect(live.kyc).toEqual([{ front_image_url: '[erased]', back_image_sha256: '0'.repeat(64) }]);
      expect(live.sessions).toEqual({ n: 0 });
      await cli(server.dataDir, 'rebuild-read-models');
      expect(rowsOf()).toEqual(live);
      const rebuiltRows = everyRowOf();
      expect(Object.fromEntries(Object.keys(liveRows).map((table) => [table, rebuiltRows[table]]))).toEqual(liveRows);
    });
  });
});

// The erasure again with the log, keys and workflow records in PostgreSQL (issue 35); the request's
// cancelling, a retry, the released number and the CLI's replay run on SQLite only, for CI time.
describe('on PostgreSQL', () => {
  onStore('postgres');

  it(ERASES, erases);
});
