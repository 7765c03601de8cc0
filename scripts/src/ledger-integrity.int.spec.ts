import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, deleteCheckpoints, deleteStream, editAndRechain, freshMobile, relinkLog, startApiProcess, truncateStream } from '@kamai/api/testing';

// The log's own chain and its signed checkpoints, through the real CLI on copies of a data
// directory a real server wrote, each copy changed as someone holding the files would.
const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const KEY = 'a-ledger-signing-key-kept-in-a-secret-store-0123456789';
const cliWith = (env: Record<string, string>, dataDir: string, key: string | null, ...args: string[]) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/src/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, LEDGER_SIGNING_KEY: key ?? '', LEDGER_WITNESS: '', ...env },
  });
const cli = (dataDir: string, key: string | null, ...args: string[]) => cliWith({}, dataDir, key, ...args);
const refused = (promise: Promise<{ stdout: string }>) =>
  promise.then(
    (done) => ({ code: 0, stdout: done.stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  );

const dirs: string[] = [];
let original: string;
/** The witness the server wrote its checkpoints to, outside its data directory. */
let witness: string;
/** Every stream of the log by its first and last position, oldest first. */
let streamsByPosition: Array<{ stream_id: string; first: number; last: number; events: number }>;

beforeAll(async () => {
  original = mkdtempSync(join(tmpdir(), 'kamai-ledger-'));
  dirs.push(original);
  const witnessDir = mkdtempSync(join(tmpdir(), 'kamai-witness-'));
  dirs.push(witnessDir);
  witness = join(witnessDir, 'ledger-witness.jsonl');
  const api = await startApiProcess(original, { LEDGER_SIGNING_KEY: KEY, LEDGER_WITNESS: witness });
  try {
    for (let i = 0; i < 3; i++) {
      const client = new TestClient(api.url);
      const res = await client.post('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'Sita', lastName: 'Verma', consent: true });
      expect(res.status).toBe(201);
      expect((await client.put('/api/profile', { email: `sita${i}@example.in` })).status).toBe(200);
    }
  } finally {
    // A graceful stop signs the head as the server leaves it.
    await api.stop();
  }
  const db = new Database(join(original, 'events.sqlite'), { readonly: true });
  streamsByPosition = db
    .prepare('SELECT stream_id, MIN(position) AS first, MAX(position) AS last, COUNT(*) AS events FROM events GROUP BY stream_id ORDER BY first')
    .all() as typeof streamsByPosition;
  db.close();
}, 240_000);
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the data directory to change. */
function copy(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kamai-ledger-copy-'));
  dirs.push(dir);
  cpSync(original, dir, { recursive: true });
  return { dir, file: join(dir, 'events.sqlite') };
}

/** The first user stream with at least two events that other streams' events follow. */
function userStreamInTheMiddle() {
  const end = Math.max(...streamsByPosition.map((s) => s.last));
  const found = streamsByPosition.find((s) => s.stream_id.startsWith('user-') && s.events >= 2 && s.last < end);
  if (!found) throw new Error('no user stream in the middle of the log');
  return found;
}

// Each CLI call is a process that loads its modules under tsx (25 s on a loaded 2-core machine):
// no test makes more than two.
describe('ledger integrity through the CLI', { timeout: 240_000 }, () => {
  /** The signed head ledger-head printed for the untouched log. */
  let kept = '';

  it('the server signed the head at start and when it stopped; ledger-head prints a signed head', async () => {
    const verified = await cli(original, KEY, 'verify-ledger');
    // One at start (over the log's first event), one at the graceful stop over the head it leaves.
    const [, newest] = /signed checkpoints: 2, the newest at position (\d+); MACs checked/.exec(verified.stdout) ?? [];
    expect(Number(newest)).toBe(Math.max(...streamsByPosition.map((s) => s.last)));
    expect(verified.stdout).toMatch(/OK: \d+ events verified; head [0-9a-f]{64}/);
    kept = /^HEAD (\d+:[0-9a-f]{64}:[0-9a-f]{64})$/m.exec((await cli(original, KEY, 'ledger-head')).stdout)?.[1] ?? '';
    expect(kept).not.toBe('');
  });

  it('verify-ledger --head proves the log runs through a kept head; without the key it says the MACs go unchecked', async () => {
    expect(kept).not.toBe('');
    const through = await cli(original, null, 'verify-ledger', '--head', kept);
    expect(through.stdout).toContain('MACs NOT checked: LEDGER_SIGNING_KEY is not set here');
    expect(through.stdout).toContain(`OK: the log still runs through the head you kept at position ${kept.split(':')[0]}`);
  });

  it('deleting a whole stream with its head is reported', async () => {
    const { dir, file } = copy();
    const victim = streamsByPosition.find((s) => s.stream_id.startsWith('mobile-'))!;
    deleteStream(file, victim.stream_id);
    const result = await refused(cli(dir, KEY, 'verify-ledger'));
    expect(result.code).toBe(4);
    // The first event after it in the log links to an event that is gone.
    const [, at, missing] = /TAMPERED: removed event in stream \S+ at position (\d+).*the event before it in the log, at position (\d+), is missing/.exec(result.stdout) ?? [];
    expect(Number(missing)).toBe(Number(at) - 1);
    expect(Number(missing)).toBeGreaterThanOrEqual(victim.first);
    expect(Number(missing)).toBeLessThanOrEqual(victim.last);
  });

  it('truncating a stream and fixing its head is reported', async () => {
    const { dir, file } = copy();
    const victim = userStreamInTheMiddle();
    truncateStream(file, victim.stream_id, victim.events - 2);
    const result = await refused(cli(dir, KEY, 'verify-ledger'));
    expect(result.code).toBe(4);
    expect(result.stdout).toMatch(new RegExp(`TAMPERED: removed event in stream \\S+ at position ${victim.last + 1}.*at position ${victim.last}, is missing`));
  });

  /** A copy whose user stream in the middle has its newest event edited and the stream rechained. */
  function rechainedCopy() {
    const { dir, file } = copy();
    const victim = userStreamInTheMiddle();
    const db = new Database(file, { readonly: true });
    const target = db.prepare('SELECT position, data FROM events WHERE stream_id = ? ORDER BY position DESC LIMIT 1').get(victim.stream_id) as { position: number; data: string };
    db.close();
    editAndRechain(file, target.position, '{', '{"forged":true,');
    return { dir, file, streamId: victim.stream_id, position: target.position };
  }

  it('rechaining an edited stream is reported', async () => {
    const { dir, streamId, position } = rechainedCopy();
    const result = await refused(cli(dir, KEY, 'verify-ledger'));
    expect(result.code).toBe(4);
    expect(result.stdout).toContain(`TAMPERED: changed event in stream ${streamId} at position ${position}`);
  });

  it('rechaining the whole log as well fails the signed checkpoint; with the checkpoints deleted too, the head you kept', async () => {
    expect(kept).not.toBe('');
    const { dir, file } = rechainedCopy();
    relinkLog(file);
    const relinked = await refused(cli(dir, KEY, 'verify-ledger'));
    expect(relinked.code).toBe(4);
    expect(relinked.stdout).toMatch(/TAMPERED: changed event .*no longer matches the signed checkpoint of position \d+/);
    deleteCheckpoints(file);
    const againstHead = await refused(cli(dir, KEY, 'verify-ledger', '--head', kept));
    expect(againstHead.code).toBe(4);
    expect(againstHead.stdout).toMatch(/TAMPERED: changed event .*no longer matches the head you kept/);
  });

  it('with its checkpoints deleted too, the key alone fails the log (nothing signed covers it) and the witness names the checkpoint it no longer runs through', async () => {
    const { dir, file } = rechainedCopy();
    relinkLog(file);
    deleteCheckpoints(file);
    const keyOnly = await refused(cli(dir, KEY, 'verify-ledger'));
    expect(keyOnly.code).toBe(4);
    expect(keyOnly.stdout).toMatch(/TAMPERED: unsigned event in stream \(log\) .*no signed checkpoint at all/);
    const witnessed = await refused(cliWith({ LEDGER_WITNESS: witness }, dir, KEY, 'verify-ledger'));
    expect(witnessed.code).toBe(4);
    expect(witnessed.stdout).toMatch(/TAMPERED: changed event .*no longer matches the witness's checkpoint of position \d+/);
  });
});
