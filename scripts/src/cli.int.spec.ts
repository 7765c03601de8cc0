import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, TestClient, freshMobile, startApiProcess } from '@kamai/api/testing';
import { allProjections, openReadDb } from '@kamai/projections';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const cli = (dataDir: string, ...args: string[]) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/src/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
  });

/** Every row of every read-model table except the checkpoint's timestamp, for comparing models. */
function dumpReadModels(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'kysely_%' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        name === 'checkpoints'
          ? db.prepare('SELECT name, version, position FROM checkpoints ORDER BY name').all()
          : db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all().sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      ]),
    );
  } finally {
    db.close();
  }
}

let dataDir: string;
let api: ApiProcess;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kamai-cli-'));
  api = await startApiProcess(dataDir);
});
afterAll(async () => {
  await api?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signUp() {
  const client = new TestClient(api.url);
  const mobile = freshMobile();
  const res = await client.post('/api/auth/register', { mobile, password: 'secret123', firstName: 'Sita', lastName: 'Verma', consent: true });
  expect(res.status).toBe(201);
  return { client, mobile, userId: (res.body as { id: string }).id };
}

// Each CLI call is a process that loads its modules under tsx (seconds on a busy 2-core machine), and
// some tests make a dozen of them.
describe('npm run cli', { timeout: 240_000 }, () => {
  it('grant-role takes effect in the running app within a second', async () => {
    const { client, mobile } = await signUp();
    const { stdout } = await cli(dataDir, 'grant-role', mobile, 'reviewer');
    expect(stdout).toContain(`reviewer granted to ${mobile}`);
    await expect.poll(async () => (await client.get('/api/auth/user')).body.roles, { timeout: 1000, interval: 25 }).toEqual(['reviewer']);
    await cli(dataDir, 'revoke-role', mobile, 'reviewer');
    await expect.poll(async () => (await client.get('/api/auth/user')).body.roles, { timeout: 1000, interval: 25 }).toEqual([]);
  });

  it('says plainly when the data directory does not exist, without a stack trace', async () => {
    const missing = join(dataDir, 'no-such-directory');
    const refused = await cli(missing, 'read-models').then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toContain(`The data directory ${missing} does not exist`);
    expect(refused?.stderr).not.toMatch(/^\s+at /m);
  });

  it('read-models names a parked read model, where it stopped and why, and how to bring it back', async () => {
    const other = mkdtempSync(join(tmpdir(), 'kamai-cli-parked-'));
    try {
      const db = await openReadDb(join(other, 'read.sqlite'));
      const version = allProjections.find((p) => p.name === 'notifications')!.version;
      await db
        .insertInto('parked_read_models')
        .values({ name: 'notifications', version, position: 42, event_type: 'NotificationSent', error: 'disk I/O error', parked_at: '2026-11-25T10:00:00.000Z' })
        .execute();
      await db.destroy();
      const { stdout } = await cli(other, 'read-models');
      expect(stdout).toMatch(/notifications .*PARKED at position 42 \(NotificationSent\) since 2026-11-25T10:00:00.000Z: disk I\/O error; after the fix: rebuild-read-models notifications/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses unknown roles and unknown mobiles with a usage message', async () => {
    await expect(cli(dataDir, 'grant-role', freshMobile(), 'admin')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('no user is registered') });
    await expect(cli(dataDir, 'grant-role', '9000000001', 'superuser')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('role must be one of') });
    await expect(cli(dataDir, 'frobnicate')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage:') });
  });

  it('rebuild-read-models gives the same rows as the live projections, while the app runs', async () => {
    for (let i = 0; i < 3; i++) {
      const { client, mobile } = await signUp();
      await client.put('/api/profile', { email: `sita${i}@example.in` });
      await cli(dataDir, 'grant-role', mobile, 'finance');
      await client.post('/api/auth/logout');
    }
    // Every read model has applied every event (the CLI's role grants come from another process).
    await expect
      .poll(async () => {
        const health = (await (await fetch(`${api.url}/api/health`)).json()) as { head: number; readModels: Array<{ position: number }> };
        return health.head > 0 && health.readModels.every((m) => m.position === health.head);
      })
      .toBe(true);
    const live = dumpReadModels(join(dataDir, 'read.sqlite'));
    const { stdout } = await cli(dataDir, 'rebuild-read-models');
    expect(stdout).toMatch(/rebuilt the read models from \d+ events/);
    expect(dumpReadModels(join(dataDir, 'read.sqlite'))).toEqual(live);
    expect((live.users as unknown[]).length).toBeGreaterThanOrEqual(3);
    // The app keeps serving sessions and users from the rebuilt model.
    const { client } = await signUp();
    expect((await client.get('/api/auth/user')).status).toBe(200);
  });

  it('read-models lists each read model with its version and position; rebuild-read-models <name> rebuilds that one only', async () => {
    const { client } = await signUp();
    await client.put('/api/profile', { email: 'rebuild@example.in' });
    const listed = (await cli(dataDir, 'read-models')).stdout;
    // Each read model's version in this code, and the same version stored (built by this code).
    for (const { name, version } of allProjections) expect(listed).toMatch(new RegExp(`^${name}\\s+${version}\\s+${version}\\s+\\d+`, 'm'));
    const before = dumpReadModels(join(dataDir, 'read.sqlite'));
    const checkpointOf = (dump: typeof before, name: string) => (dump.checkpoints as Array<{ name: string; position: number }>).find((c) => c.name === name);
    const { stdout } = await cli(dataDir, 'rebuild-read-models', 'tasks');
    expect(stdout).toMatch(/rebuilt tasks from \d+ events/);
    const after = dumpReadModels(join(dataDir, 'read.sqlite'));
    expect(after.tasks).toEqual(before.tasks);
    expect(after.users).toEqual(before.users);
    expect(checkpointOf(after, 'users')).toEqual(checkpointOf(before, 'users'));
    await expect(cli(dataDir, 'rebuild-read-models', 'nonsense')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('no read model named nonsense') });
    // The app goes on serving and projecting.
    expect((await client.put('/api/profile', { email: 'after@example.in' })).status).toBe(200);
    expect((await client.get('/api/auth/user')).body.email).toBe('after@example.in');
  });

  it('replay-wallet prints the ledger and checks the read model against the events', async () => {
    const { mobile } = await signUp();
    const { stdout } = await cli(dataDir, 'replay-wallet', mobile);
    expect(stdout).toContain(`wallet of +91 ${mobile.slice(0, 2)}`);
    expect(stdout).not.toContain(mobile);
    expect(stdout).toContain('OK: the read models agree with the events');
  });

  it('replay-wallet shows the KYC bonus line', async () => {
    const { client, mobile } = await signUp();
    const reviewer = await signUp();
    await cli(dataDir, 'grant-role', reviewer.mobile, 'reviewer');
    // A real 1x1 PNG: the server re-encodes uploads, so the bytes must decode.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    const uploadKyc = async () => {
      const slot = await client.post('/api/objects/upload', { purpose: 'kyc' });
      expect((await fetch(new URL(slot.body.uploadURL, api.url), { method: 'PUT', body: png, headers: { 'content-type': 'image/png' } })).status).toBe(201);
      return slot.body.objectURL as string;
    };
    for (const documentType of ['pan', 'voter_id']) {
      const doc = await client.post('/api/kyc/documents', { documentType, frontImageUrl: await uploadKyc(), backImageUrl: await uploadKyc() });
      expect(doc.status).toBe(201);
      // The role reaches the running app within a poll.
      await expect
        .poll(async () => (await reviewer.client.post(`/api/admin/kyc/${doc.body.id}/approve`)).status, { timeout: 2000, interval: 50 })
        .toBe(200);
    }
    expect((await client.post('/api/kyc/complete')).status).toBe(200);
    const { stdout } = await cli(dataDir, 'replay-wallet', mobile);
    expect(stdout).toMatch(/\+200\.00\s+200\.00\s+kyc_bonus: KYC verification bonus/);
    expect(stdout).toContain('OK: the read models agree with the events');
  });

  // Last: it tampers with the shared event store, which every later replay would then refuse.
  it('replays a wallet with pays and staff names, as of a moment and as CSV; reconciles, exports and verifies the ledger; a tampered log fails verification even after a rebuild', async () => {
    const staff = await signUp();
    await cli(dataDir, 'grant-role', staff.mobile, 'finance');
    await expect.poll(async () => (await staff.client.get('/api/auth/user')).body.roles, { timeout: 2000, interval: 25 }).toEqual(['finance']);
    // Whoever adjusted a wallet does not settle its withdrawals: a second member funds it.
    const funder = await signUp();
    await cli(dataDir, 'grant-role', funder.mobile, 'finance');
    await expect.poll(async () => (await funder.client.get('/api/auth/user')).body.roles, { timeout: 2000, interval: 25 }).toEqual(['finance']);
    const { client, mobile, userId } = await signUp();
    expect((await funder.client.post('/api/admin/adjustments', { mobile, amount: 500, direction: 'credit', reason: 'Missed reward' })).status).toBe(201);
    const beforeWithdrawal = new Date().toISOString();
    // The withdrawal must come at a later millisecond than the moment noted.
    await expect.poll(() => Date.now() > Date.parse(beforeWithdrawal), { interval: 1 }).toBe(true);
    const withdrawal = await client.post('/api/withdrawals', { amount: 200, upiId: 'sita.verma@okhdfc' });
    expect(withdrawal.status).toBe(201);
    expect((await staff.client.post(`/api/admin/withdrawals/${withdrawal.body.id}/paid`, { reference: 'UTR31337001' })).status).toBe(200);

    const replay = (await cli(dataDir, 'replay-wallet', mobile)).stdout;
    expect(replay).toMatch(/withdrawal_paid: .*UTR31337001 \(by Sita Verma \(\+91 \d{2}x{6}\d{2}\)\)/);
    expect(replay).toContain('events say:      available 300.00, pending payout 0.00');
    expect(replay).toContain('OK: the read models agree with the events, and the log verifies');
    expect((await cli(dataDir, 'replay-wallet', mobile, '--as-of', beforeWithdrawal)).stdout).toContain('events say:      available 500.00, pending payout 0.00');

    const csvText = (await cli(dataDir, 'replay-wallet', mobile, '--csv')).stdout;
    // A UTF-8 BOM first (trim() drops it), so spreadsheets read the file as UTF-8.
    expect(csvText.startsWith('\uFEFFposition,')).toBe(true);
    const csv = csvText.trim().split('\r\n');
    expect(csv[0]).toMatch(/^position,time,kind,description,amount,/);
    expect(csv[1]).toMatch(/^,[^,]*,opening_balance,/);
    expect(csv.at(-1)).toMatch(/^,[^,]*,closing_balance,Closing balance,,,300\.00,0\.00,/);
    // Split on commas outside quotes (descriptions may hold commas).
    const amounts = csv.slice(1).map((line) => Number(line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)[4]));
    expect(amounts.reduce((a, b) => a + b, 0)).toBeCloseTo(300, 2);

    const reconcile = (await cli(dataDir, 'reconcile')).stdout;
    expect(reconcile).toMatch(/difference\s+0\.00/);
    expect(reconcile).toContain('verification OK');
    const exportedText = (await cli(dataDir, 'export-ledger', '--from', beforeWithdrawal)).stdout;
    expect(exportedText.startsWith('\uFEFF')).toBe(true);
    const exported = exportedText.trim().split('\r\n');
    expect(exported[0]).toBe(
      'position,transaction_id,time,account,account_holder,account_holder_mobile,debit,credit,kind,description,actor,reason,submission_id,withdrawal_id,utr,stream_id,revision,effective_date,value_date,corrects',
    );
    // User accounts carry their holder: the name and a masked mobile (a leading ' keeps spreadsheets from reading +91 as a formula).
    expect(exported.some((line) => line.includes(":payout_pending,Sita Verma,'+91 ") && !line.includes(mobile))).toBe(true);
    expect(exported.some((line) => line.includes('platform:bank') && line.includes('UTR31337001'))).toBe(true);
    expect(exported.some((line) => line.includes('Missed reward'))).toBe(false);
    // With --from, an opening row per account first: the wallet held 500.00 before the withdrawal.
    expect(exported[1]).toMatch(/^,,[^,]+,/);
    expect(exported.some((line) => /^,,[^,]+,user:[^,]+:available,Sita Verma,'\+91 \d\dx{6}\d\d,,500\.00,opening_balance,Opening balance,/.test(line))).toBe(true);
    // A date is a whole day in India time: --to today includes everything of today.
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
    expect((await cli(dataDir, 'export-ledger', '--from', today, '--to', today)).stdout).toContain('UTR31337001');
    // By effective day too (nothing here was dated back: the same payout, its day in the row).
    const byEffective = (await cli(dataDir, 'export-ledger', '--from', today, '--to', today, '--by', 'effective')).stdout;
    expect(byEffective.split('\r\n').find((line) => line.includes('UTR31337001'))).toMatch(new RegExp(`,${today},,$`));
    await expect(cli(dataDir, 'export-ledger', '--by', 'value')).rejects.toMatchObject({ code: 2 });
    expect((await cli(dataDir, 'verify-ledger')).stdout).toMatch(/^OK: \d+ events verified; head [0-9a-f]{64} at position \d+/);
    // The accountant's yearly report: this financial year holds the pay-out.
    const [y, m] = today.split('-').map(Number) as [number, number];
    const fyStart = m >= 4 ? y : y - 1;
    const yearly = (await cli(dataDir, 'yearly-report', `${fyStart}-${String((fyStart + 1) % 100).padStart(2, '0')}`)).stdout;
    expect(yearly.startsWith('\uFEFFfinancial_year,user_id,name,mobile,pan,rewards,bonuses,adjustments,payouts,referral_bonuses,gross_paid,tax_deducted,net_paid\r\n')).toBe(true);
    expect(yearly).toMatch(/,TOTAL,,,,[\d.]+,[\d.]+,[\d.]+,[1-9][\d]*\.\d\d,[\d.]+,[\d.]+,[\d.]+,[\d.]+\r\n$/);
    // --out writes the file itself (nothing else can land in it) and says where.
    const file = join(dataDir, 'yearly.csv');
    const written = await cli(dataDir, 'yearly-report', `${fyStart}-${String((fyStart + 1) % 100).padStart(2, '0')}`, '--out', file);
    expect(readFileSync(file, 'utf8')).toBe(yearly);
    expect(written.stdout).toBe(`wrote ${file}\n`);
    const journal = join(dataDir, 'journal.csv');
    await cli(dataDir, 'export-ledger', '--out', journal, '--from', beforeWithdrawal);
    expect(readFileSync(journal, 'utf8')).toBe(exportedText);

    // Someone with the file raises the credit (its reason is sealed; its amount is not): verification
    // names the place, before and after a rebuild.
    const db = new Database(join(dataDir, 'events.sqlite'));
    const row = db
      .prepare("SELECT position, stream_id FROM events WHERE type = 'WalletCredited' AND stream_id = ? AND data LIKE '%\"amountPaise\":50000%' ORDER BY position DESC LIMIT 1")
      .get(streams.user(userId)) as { position: number; stream_id: string };
    db.prepare("UPDATE events SET data = replace(data, '\"amountPaise\":50000', '\"amountPaise\":5000000') WHERE position = ?").run(row.position);
    db.close();
    const failed = await cli(dataDir, 'verify-ledger').catch((err: { code: number; stdout: string }) => err);
    expect(failed).toMatchObject({ code: 4 });
    expect((failed as { stdout: string }).stdout).toContain(`TAMPERED: changed event in stream ${row.stream_id} at position ${row.position}`);
    await cli(dataDir, 'rebuild-read-models');
    expect(await cli(dataDir, 'verify-ledger').catch((err: { code: number }) => err)).toMatchObject({ code: 4 });
    const afterRebuild = await cli(dataDir, 'replay-wallet', mobile).catch((err: { code: number; stdout: string }) => err);
    expect(afterRebuild).toMatchObject({ code: 4 });
    expect((afterRebuild as { stdout: string }).stdout).toContain('TAMPERED');
    expect((afterRebuild as { stdout: string }).stdout).not.toContain('rebuild the read models');
    const viaApi = await staff.client.get('/api/admin/ledger/verify');
    expect(viaApi.body).toMatchObject({ ok: false, failure: { streamId: row.stream_id, position: row.position, problem: 'changed' } });
  });

});
