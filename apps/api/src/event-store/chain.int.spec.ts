import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENTS_TABLE_SQL, openSqliteEventStore } from './sqlite.ts';
import { type KeptHead, type LedgerCheckpoint, LedgerRefusedError, LedgerSigner, type SignerStart, batchLogHashOf, chainHash, checkpointMac, logHash, recordCheckpoint, storedContentHashOf, storedContentRest, streamHashFor, verifyChain } from './chain.ts';
import { FileWitness, S3Witness } from './witness.ts';
import { S3RVER_CREDENTIALS, startS3rver } from '../object-storage/testing.ts';
import { deleteCheckpoints, deleteStream, editAndRechain, relinkAsOneBatch, relinkLog, truncateStream } from '../testing/tamper.ts';

// Tamper evidence on the embedded store: edit the SQLite file behind the store's back, as someone
// with the file would, and the chain names the stream and position where the log was changed.
const dir = mkdtempSync(join(tmpdir(), 'kamai-chain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const KEY = Buffer.from('a ledger signing key of at least 32 characters');

/** A small log: two users' streams interleaved. Returns the file and each event's position by name. */
async function ledgerFile() {
  const file = join(dir, `events-${++files}.sqlite`);
  const store = openSqliteEventStore(file);
  const at: Record<string, number> = {};
  const put = async (name: string, streamId: string, type: string, data: Record<string, string | number>, expected: number | 'no_stream') => {
    at[name] = (await store.append(streamId, [{ id: crypto.randomUUID(), type, data, metadata: { actor: 'finance-1' } }], expected)).position;
  };
  await put('a0', 'user-a', 'WalletCredited', { amountPaise: 50_000 }, 'no_stream');
  await put('b0', 'user-b', 'WalletCredited', { amountPaise: 10_000 }, 'no_stream');
  await put('a1', 'user-a', 'WalletDebited', { amountPaise: 20_000 }, 0);
  await put('a2', 'user-a', 'WithdrawalPaid', { amountPaise: 20_000, reference: 'UTR1' }, 1);
  await put('a3', 'user-a', 'WalletCredited', { amountPaise: 5_000 }, 2);
  await put('b1', 'user-b', 'WalletDebited', { amountPaise: 1_000 }, 0);
  const intact = await verifyChain(store, { signingKey: KEY });
  await store.close();
  return { file, at, intact };
}

async function verifyFile(
  file: string,
  options: { signingKey?: Buffer | null; head?: KeptHead; witnessed?: LedgerCheckpoint | null; coverage?: { now: Date; graceMs: number } } = {},
) {
  const store = openSqliteEventStore(file);
  try {
    return await verifyChain(store, { signingKey: KEY, ...options });
  } finally {
    await store.close();
  }
}

function tamper(file: string, sql: string, ...params: unknown[]) {
  const db = new Database(file);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

describe('verifying the hash chain of the SQLite store', () => {
  it('passes an untouched log with its event count and head hash', async () => {
    const { file, intact } = await ledgerFile();
    expect(intact).toMatchObject({ ok: true, events: 6, failure: null });
    expect(intact.headHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await verifyFile(file)).toEqual(intact);
  });

  it("records the log's end at a group commit's last row, however many streams it wrote, one twice", async () => {
    const file = join(dir, `events-${++files}.sqlite`);
    const store = openSqliteEventStore(file);
    const event = (n: number) => ({ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: n } });
    // One tick: 150 streams, and stream s-7 twice, its later append last.
    const appends = Array.from({ length: 150 }, (_, i) => store.append(`s-${i}`, [event(i)], 'no_stream'));
    appends.push(store.append('s-7', [event(1_000), event(1_001)], 'any'));
    const results = await Promise.all(appends);
    expect(new Set(results.map((r) => r.position)).size).toBe(151);
    expect(await verifyChain(store, { signingKey: null })).toMatchObject({ ok: true, events: 152, failure: null });
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      const last = db.prepare('SELECT position, stream_id, revision, log_hash AS hash FROM events ORDER BY position DESC LIMIT 1').get();
      expect(db.prepare('SELECT position, stream_id, revision, hash FROM log_end').all()).toEqual([last]);
      expect(last).toMatchObject({ position: 152, stream_id: 's-7', revision: 2 });
    } finally {
      db.close();
    }
  });

  it("catches an event written behind the store's back past the log's end, and the log's end removed", async () => {
    const { file, at } = await ledgerFile();
    const other = await ledgerFile();
    // Linked into both chains as the store would, only the recorded end not moved.
    const db = new Database(file);
    const last = db.prepare<[], { hash: string; log_hash: string }>("SELECT hash, log_hash FROM events WHERE stream_id = 'user-b' ORDER BY revision DESC LIMIT 1").get()!;
    const content = { streamId: 'user-b', revision: 2, type: 'WalletCredited', data: '{"amountPaise":99900}', metadata: '{}' };
    const hash = chainHash(last.hash, content);
    const position = at['b1']! + 1;
    db.prepare('INSERT INTO events (position, event_id, stream_id, revision, type, data, metadata, recorded_at, hash, prev_hash, log_prev, log_hash) VALUES (?, ?, ?, 2, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      position, crypto.randomUUID(), 'user-b', content.type, content.data, content.metadata, '2026-11-21T10:00:00.000Z', hash, last.hash, at['b1'], logHash({ position: at['b1']!, hash: last.log_hash }, position, hash),
    );
    db.close();
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-b', position, revision: 2, problem: 'inserted', detail: expect.stringContaining('past its recorded end') });
    tamper(other.file, 'DELETE FROM log_end');
    expect((await verifyFile(other.file)).failure).toMatchObject({ problem: 'inserted', detail: expect.stringContaining('no recorded end') });
  });

  it("moves a file that kept each stream's head to the log's end, once, when it is first opened", async () => {
    const { file, at } = await ledgerFile();
    const db = new Database(file);
    db.exec('DROP TABLE log_end');
    db.exec('CREATE TABLE stream_heads (stream_id TEXT PRIMARY KEY, revision INTEGER NOT NULL, hash TEXT NOT NULL, position INTEGER NOT NULL) STRICT');
    db.close();
    const store = openSqliteEventStore(file);
    expect(await verifyChain(store, { signingKey: KEY })).toMatchObject({ ok: true, events: 6 });
    await store.close();
    const reopened = new Database(file, { readonly: true });
    try {
      expect(reopened.prepare("SELECT name FROM sqlite_schema WHERE name IN ('stream_heads', 'log_end')").all()).toEqual([{ name: 'log_end' }]);
      expect(reopened.prepare('SELECT position, stream_id, revision FROM log_end').get()).toEqual({ position: at['b1'], stream_id: 'user-b', revision: 1 });
    } finally {
      reopened.close();
    }
  });

  it('catches a changed amount at its stream and position', async () => {
    const { file, at } = await ledgerFile();
    tamper(file, "UPDATE events SET data = replace(data, '20000', '2000000') WHERE position = ?", at['a1']);
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-a', position: at['a1'], revision: 1, problem: 'changed' });
  });

  it('catches an event deleted from the middle of a stream', async () => {
    const { file, at } = await ledgerFile();
    tamper(file, 'DELETE FROM events WHERE position = ?', at['a1']);
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-a', position: at['a2'], revision: 1, problem: 'removed' });
  });

  it('catches the newest event of a stream deleted, even when others came after it', async () => {
    const { file, at } = await ledgerFile();
    tamper(file, 'DELETE FROM events WHERE position = ?', at['a3']);
    // The next event in the log links to the one removed.
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-b', position: at['b1'], problem: 'removed', detail: expect.stringContaining(`position ${at['a3']}`) });
    // And the log's very newest event.
    const other = await ledgerFile();
    tamper(other.file, 'DELETE FROM events WHERE position = ?', other.at['b1']);
    expect((await verifyFile(other.file)).failure).toMatchObject({ streamId: 'user-b', revision: 1, problem: 'removed' });
  });

  it('catches two events swapped', async () => {
    const { file, at } = await ledgerFile();
    const db = new Database(file);
    db.transaction(() => {
      db.prepare('UPDATE events SET position = -1 WHERE position = ?').run(at['a1']);
      db.prepare('UPDATE events SET position = ? WHERE position = ?').run(at['a1'], at['a2']);
      db.prepare('UPDATE events SET position = ? WHERE position = -1').run(at['a2']);
    })();
    db.close();
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-a', position: at['a1'], revision: 2, problem: 'reordered' });
  });

  it('catches an event slipped in with a forged hash, and never seals one written without a hash', async () => {
    const { file } = await ledgerFile();
    tamper(file, "INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at, hash, prev_hash) VALUES ('x', 'user-b', 2, 'WalletCredited', '{\"amountPaise\":99900}', '{}', '2026-11-21T10:00:00.000Z', NULL, NULL)");
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-b', revision: 2, problem: 'inserted' });
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-b', revision: 2, problem: 'inserted' });
  });

  it('seals a store written before hashes existed, once, when it is first opened', async () => {
    const file = join(dir, 'legacy.sqlite');
    const db = new Database(file);
    db.exec(EVENTS_TABLE_SQL);
    const insert = db.prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    insert.run('e1', 'user-a', 0, 'WalletCredited', '{"amountPaise":100}', '{}', '2026-01-01T00:00:00.000Z');
    insert.run('e2', 'user-a', 1, 'WalletDebited', '{"amountPaise":50}', '{}', '2026-01-01T00:00:00.000Z');
    db.close();
    const store = openSqliteEventStore(file);
    await store.append('user-a', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 10 } }], 1);
    expect(await verifyChain(store)).toMatchObject({ ok: true, events: 3 });
    await store.close();
  });
});

/**
 * A log with a group commit in it: user-a's first event alone (position 1), then nine rows appended
 * in one tick, one transaction (2: user-a's second, 3–8: user-0 to user-5, 9–10: user-z's two), then
 * user-a's third alone (11).
 */
async function batchedLedgerFile() {
  const file = join(dir, `events-${++files}.sqlite`);
  const store = openSqliteEventStore(file);
  const event = (amountPaise: number) => ({ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise }, metadata: { actor: 'finance-1' } });
  await store.append('user-a', [event(50_000)], 'no_stream');
  await Promise.all([
    store.append('user-a', [event(20_000)], 0),
    ...Array.from({ length: 6 }, (_, i) => store.append(`user-${i}`, [event(1_000 + i)], 'no_stream')),
    store.append('user-z', [event(7_000), event(8_000)], 'no_stream'),
  ]);
  await store.append('user-a', [event(5_000)], 1);
  await store.close();
  return file;
}

describe("a group commit's rows, linked into the log's chain once, on the last", () => {
  it('links the rows of one transaction by one digest on its last row; each row alone links as before', async () => {
    const file = await batchedLedgerFile();
    const db = new Database(file, { readonly: true });
    const rows = db.prepare<[], { position: number; hash: string; prev_hash: string | null; log_prev: number | null; log_hash: string | null }>(
      'SELECT position, hash, prev_hash, log_prev, log_hash FROM events ORDER BY position',
    ).all();
    db.close();
    expect(rows.map((r) => r.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // No prev_hash; each stream hash in the embedded store's form (base64, over the content as stored).
    expect(rows.every((r) => r.prev_hash === null && r.hash.length === 44)).toBe(true);
    // Rows 2 to 9 carry no link; row 10 links them all, after row 1; row 11 links itself after row 10.
    expect(rows.filter((r) => r.log_hash === null).map((r) => r.position)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const [first, , , , , , , , , tenth, last] = rows;
    expect(first).toMatchObject({ log_prev: 0, log_hash: logHash(null, 1, first!.hash) });
    const batch = rows.slice(1, 10).flatMap((r) => [r.position, r.hash]);
    expect(tenth).toMatchObject({ log_prev: 1, log_hash: batchLogHashOf(1, first!.log_hash!, batch) });
    expect(last).toMatchObject({ log_prev: 10, log_hash: logHash({ position: 10, hash: tenth!.log_hash! }, 11, last!.hash) });
    const verdict = await verifyFile(file);
    expect(verdict).toMatchObject({ ok: true, events: 11, headPosition: 11, headHash: last!.log_hash });
    // A checkpoint of a head after a group commit holds, and a signer begun at it audits across the batch.
    await signFile(file, null);
    expect((await verifyFile(file, { coverage: { now: new Date(), graceMs: 120_000 } })).ok).toBe(true);
    const store = openSqliteEventStore(file);
    try {
      await store.append('user-b', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 1 } }], 'no_stream');
      const signer = new LedgerSigner(store, KEY, null, 'newest checkpoint');
      expect(await signer.sign(new Date())).toMatchObject({ position: 12 });
      while (await signer.audit(2));
      expect({ auditing: signer.auditing, refusal: signer.refusal }).toEqual({ auditing: false, refusal: null });
    } finally {
      await store.close();
    }
  });

  it('links a very big group commit in parts, between its appends, every 10,000 rows at least', async () => {
    const file = join(dir, `events-${++files}.sqlite`);
    const store = openSqliteEventStore(file);
    const events = (s: number) => Array.from({ length: 3_000 }, (_, i) => ({ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: s * 10_000 + i } }));
    // Five appends of 3,000 events in one tick, one transaction: linked after the fourth (12,000 rows) and at the end.
    await Promise.all(Array.from({ length: 5 }, (_, s) => store.append(`big-${s}`, events(s), 'no_stream')));
    expect(await verifyChain(store, { signingKey: null })).toMatchObject({ ok: true, events: 15_000, headPosition: 15_000 });
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT position, log_prev FROM events WHERE log_hash IS NOT NULL ORDER BY position').all()).toEqual([
        { position: 12_000, log_prev: 0 },
        { position: 15_000, log_prev: 12_000 },
      ]);
    } finally {
      db.close();
    }
  });

  it('catches a stream in a group commit edited and rechained, at the row that links the batch', async () => {
    const file = await batchedLedgerFile();
    editAndRechain(file, 5, '1002', '9002');
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-z', position: 10, revision: 1, problem: 'changed', detail: expect.stringContaining('positions 2 to 10') });
  });

  it("catches a one-event stream deleted from inside a group commit, and the row that links a batch removed", async () => {
    const file = await batchedLedgerFile();
    deleteStream(file, 'user-3');
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-4', position: 7, problem: 'removed', detail: expect.stringContaining('position 6') });
    // user-z's second event links the batch: without it the next row links to a row that is gone.
    const other = await batchedLedgerFile();
    tamper(other, 'DELETE FROM events WHERE position = 10');
    expect((await verifyFile(other)).failure).toMatchObject({ streamId: 'user-a', position: 11, problem: 'removed', detail: expect.stringContaining('position 10') });
    // And where the batch ends the log (its end moved back with it), its rows are linked by nothing.
    tamper(other, 'DELETE FROM events WHERE position = 11');
    tamper(other, 'UPDATE log_end SET position = 9, stream_id = ?, revision = 0', 'user-z');
    expect((await verifyFile(other)).failure).toMatchObject({ streamId: 'user-a', position: 2, problem: 'inserted', detail: expect.stringContaining("not linked into the log's chain") });
  });

  it("catches a batch's link taken off, which merges it into the next", async () => {
    const file = await batchedLedgerFile();
    tamper(file, 'UPDATE events SET log_prev = NULL, log_hash = NULL WHERE position = 10');
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-z', position: 10, problem: 'inserted', detail: expect.stringContaining("not linked into the log's chain") });
  });

  it('a log relinked as one group commit fails the checkpoint of a row inside it', async () => {
    const { file, at } = await ledgerFile();
    await signFile(file, null);
    const store = openSqliteEventStore(file);
    await store.append('user-b', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 1 } }], 1);
    await store.close();
    relinkAsOneBatch(file);
    expect((await verifyFile(file, { signingKey: null })).failure).toMatchObject({
      position: at['b1'],
      problem: 'changed',
      detail: expect.stringContaining(`signed checkpoint of position ${at['b1']}`),
    });
    // Its chains alone hold: the checkpoint is what catches it.
    deleteCheckpoints(file);
    expect((await verifyFile(file, { signingKey: null })).ok).toBe(true);
  });
});

describe('the log chain and its signed checkpoints', () => {
  it('catches a whole stream deleted, the log\'s end moved back', async () => {
    const { file, at } = await ledgerFile();
    deleteStream(file, 'user-b');
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-a', position: at['a1'], problem: 'removed', detail: expect.stringContaining(`position ${at['b0']}`) });
  });

  it('catches a stream truncated, the log\'s end moved back', async () => {
    const { file, at } = await ledgerFile();
    truncateStream(file, 'user-a', 1);
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-b', position: at['b1'], problem: 'removed', detail: expect.stringContaining(`position ${at['a3']}`) });
  });

  it('catches an edited stream rechained', async () => {
    const { file, at } = await ledgerFile();
    editAndRechain(file, at['a1']!, '20000', '2000');
    expect((await verifyFile(file)).failure).toMatchObject({ streamId: 'user-a', position: at['a1'], revision: 1, problem: 'changed' });
  });

  it('a log rewritten whole, log chain included, fails its signed checkpoint; with the checkpoints gone too, the head you kept', async () => {
    const { file, at } = await ledgerFile();
    const store = openSqliteEventStore(file);
    const signed = await recordCheckpoint(store, KEY, new Date());
    await store.close();
    expect(signed).toMatchObject({ position: at['b1'], hash: (await verifyFile(file)).headHash });
    editAndRechain(file, at['a1']!, '20000', '2000');
    relinkLog(file);
    expect((await verifyFile(file)).failure).toMatchObject({
      position: at['b1'],
      problem: 'changed',
      detail: expect.stringContaining(`signed checkpoint of position ${at['b1']}`),
    });
    // Without the key the hashes are still compared.
    expect((await verifyFile(file, { signingKey: null })).failure).toMatchObject({ position: at['b1'], problem: 'changed' });
    deleteCheckpoints(file);
    expect((await verifyFile(file)).ok).toBe(true);
    expect((await verifyFile(file, { head: { ...signed!, mac: signed!.mac } })).failure).toMatchObject({
      position: at['b1'],
      problem: 'changed',
      detail: expect.stringContaining('the head you kept'),
    });
  });

  it('catches the log’s newest events removed, its end moved back, under a signed checkpoint; refuses a checkpoint not signed with the key', async () => {
    const { file, at } = await ledgerFile();
    const store = openSqliteEventStore(file);
    await recordCheckpoint(store, KEY, new Date());
    await store.close();
    truncateStream(file, 'user-b', 0);
    expect((await verifyFile(file)).failure).toMatchObject({ problem: 'removed', detail: expect.stringContaining(`signed checkpoint of position ${at['b1']}`) });
    expect((await verifyFile(file, { signingKey: Buffer.from('another key, also at least 32 characters') })).failure).toMatchObject({
      problem: 'inserted',
      detail: expect.stringContaining('not signed with LEDGER_SIGNING_KEY'),
    });
  });

  it('new appends extend the chain after a checkpoint; a reopened store keeps both', async () => {
    const { file } = await ledgerFile();
    let store = openSqliteEventStore(file);
    const first = await recordCheckpoint(store, KEY, new Date());
    expect(await recordCheckpoint(store, KEY, new Date())).toEqual(first);
    await store.append('user-c', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 1 } }], 'no_stream');
    const second = await recordCheckpoint(store, KEY, new Date());
    expect(second!.position).toBeGreaterThan(first!.position);
    await store.close();
    store = openSqliteEventStore(file, { writerThread: true });
    await store.append('user-c', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 2 } }], 0);
    const verdict = await verifyChain(store, { signingKey: KEY, head: { ...second!, mac: second!.mac } });
    await store.close();
    expect(verdict).toMatchObject({ ok: true, events: 8, checkpoints: { count: 2, latestPosition: second!.position, macsChecked: true } });
  });
});

/** The attack of issue 33 (finding 4) on a file: one amount edited, its stream and the whole log rechained, the checkpoints deleted. */
function rewriteWhole(file: string, position: number) {
  editAndRechain(file, position, '20000', '2000000');
  relinkLog(file);
  deleteCheckpoints(file);
}

async function signFile(file: string, witness: FileWitness | null, start: SignerStart = 'whole log') {
  const store = openSqliteEventStore(file);
  try {
    if (start === 'whole log') return await recordCheckpoint(store, KEY, new Date(), witness);
    const signer = new LedgerSigner(store, KEY, witness, start);
    const signed = await signer.sign(new Date());
    if (signer.refusal) throw new LedgerRefusedError(signer.refusal);
    return signed;
  } finally {
    await store.close();
  }
}

describe('tamper evidence that holds without luck (issue 33, finding 4)', () => {
  const coverage = (now = new Date()) => ({ now, graceMs: 120_000 });

  it('with the key, a log with events and no signed checkpoint at all fails; so do old events no checkpoint covers', async () => {
    const { file, at } = await ledgerFile();
    expect(await verifyFile(file, { coverage: coverage() })).toMatchObject({ ok: false, failure: { problem: 'unsigned', detail: expect.stringContaining('no signed checkpoint at all') } });
    // Without the key nothing is signed, so nothing can be asked of it.
    expect((await verifyFile(file, { signingKey: null, coverage: coverage() })).ok).toBe(true);
    const signed = await signFile(file, null);
    expect((await verifyFile(file, { coverage: coverage() })).ok).toBe(true);
    // Events after the newest checkpoint: fine while they are fresh, a failure once older than the grace.
    const store = openSqliteEventStore(file);
    const late = (await store.append('user-c', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 1 } }], 'no_stream')).position;
    await store.close();
    expect((await verifyFile(file, { coverage: coverage() })).ok).toBe(true);
    expect((await verifyFile(file, { coverage: coverage(new Date(Date.now() + 121_000)) })).failure).toMatchObject({
      streamId: 'user-c',
      position: late,
      problem: 'unsigned',
      detail: expect.stringContaining(`the newest checkpoint is at position ${signed!.position}`),
    });
    expect(signed!.position).toBe(at['b1']);
  });

  it('a log edited, rechained whole and stripped of its checkpoints fails verification with the key, and against the witness', async () => {
    const { file, at } = await ledgerFile();
    const witness = new FileWitness(join(dir, `witness-${files}.jsonl`));
    const signed = await signFile(file, witness);
    expect(await witness.latest()).toEqual(signed);
    rewriteWhole(file, at['a1']!);
    // Before: the chains alone passed this log.
    expect((await verifyFile(file)).ok).toBe(true);
    expect((await verifyFile(file, { coverage: coverage() })).failure).toMatchObject({ problem: 'unsigned' });
    expect((await verifyFile(file, { witnessed: await witness.latest() })).failure).toMatchObject({
      position: at['b1'],
      problem: 'changed',
      detail: expect.stringContaining(`the witness's checkpoint of position ${at['b1']}`),
    });
  });

  // A server begins at the newest checkpoint; a log the witness's does not bear out is walked from the start all the same.
  for (const start of ['whole log', 'newest checkpoint'] as const) {
    it(`refuses to sign a log that does not extend the witness's newest checkpoint, and writes nothing (from the ${start})`, async () => {
      const { file, at } = await ledgerFile();
      const witnessFile = join(dir, `witness-${files}.jsonl`);
      const witness = new FileWitness(witnessFile);
      await signFile(file, witness);
      const witnessed = readFileSync(witnessFile, 'utf8');
      rewriteWhole(file, at['a1']!);
      await expect(signFile(file, witness, start)).rejects.toThrow(LedgerRefusedError);
      expect(readFileSync(witnessFile, 'utf8')).toBe(witnessed);
      const db = new Database(file, { readonly: true });
      expect(db.prepare('SELECT COUNT(*) AS n FROM ledger_checkpoints').get()).toEqual({ n: 0 });
      db.close();
      // Truncated below the witnessed head (heads fixed): refused too.
      const other = await ledgerFile();
      const otherWitness = new FileWitness(join(dir, `witness-${files}.jsonl`));
      await signFile(other.file, otherWitness);
      truncateStream(other.file, 'user-b', 0);
      deleteCheckpoints(other.file);
      await expect(signFile(other.file, otherWitness, start)).rejects.toThrow(/the log ends at position .* before the witness's checkpoint/);
      // A forged line in the witness is not signed with the key: refused, not believed.
      const forged = await ledgerFile();
      const forgedWitness = new FileWitness(join(dir, `witness-${files}.jsonl`));
      await forgedWitness.record({ position: forged.at['a0']!, hash: 'f'.repeat(64), mac: '0'.repeat(64), recordedAt: new Date().toISOString() });
      await expect(signFile(forged.file, forgedWitness, start)).rejects.toThrow(/not signed with LEDGER_SIGNING_KEY/);
    });
  }

  it('a running signer refuses once the log under it no longer extends what it signed, even with no witness', async () => {
    const { file, at } = await ledgerFile();
    const store = openSqliteEventStore(file);
    try {
      const signer = new LedgerSigner(store, KEY, null);
      const first = await signer.sign(new Date());
      expect(first).toMatchObject({ position: at['b1'], mac: checkpointMac(KEY, first!) });
      rewriteWhole(file, at['a1']!);
      await store.append('user-c', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 1 } }], 'no_stream');
      expect(await signer.sign(new Date())).toBeNull();
      expect(signer.refusal).toMatchObject({ problem: 'changed' });
      expect(await store.capabilities.checkpoints!.listCheckpoints()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("a server's signer walks on from the newest checkpoint, linking each stream to its event before it, and signs the head a whole walk computes", async () => {
    const { file, at } = await ledgerFile();
    const first = await signFile(file, null);
    const store = openSqliteEventStore(file);
    try {
      const event = (amountPaise: number) => [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise } }];
      await store.append('user-a', event(1), 3);
      await store.append('user-c', event(2), 'no_stream');
      await store.append('user-b', event(3), 1);
      const signer = new LedgerSigner(store, KEY, null, 'newest checkpoint');
      const signed = await signer.sign(new Date());
      expect(signer.walked).toBe(3);
      expect(signed).toMatchObject({ position: (await verifyChain(store, { signingKey: KEY })).headPosition, hash: (await verifyChain(store, { signingKey: KEY })).headHash });
      expect(signed!.position).toBeGreaterThan(first!.position);
      // The log before the checkpoint, two events a batch: three batches reach position b1.
      expect(signer.auditing).toBe(true);
      let batches = 0;
      while (await signer.audit(2)) batches += 1;
      expect({ batches: batches + 1, auditing: signer.auditing, refusal: signer.refusal }).toEqual({ batches: 3, auditing: false, refusal: null });
      expect(at['b1']).toBe(first!.position);
    } finally {
      await store.close();
    }
  });

  it('an edit under the newest checkpoint that leaves its log hash is found by the audit, after which nothing more is signed; verify-ledger fails on it too', async () => {
    const { file, at } = await ledgerFile();
    await signFile(file, null);
    // The amount of a1 changed in place: the row's hashes, and so the log hash at the checkpoint, untouched.
    tamper(file, "UPDATE events SET data = replace(data, '20000', '2000000') WHERE position = ?", at['a1']);
    const store = openSqliteEventStore(file);
    try {
      await store.append('user-a', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 1 } }], 3);
      const signer = new LedgerSigner(store, KEY, null, 'newest checkpoint');
      // The tail after the checkpoint checks out, so it is signed (extending the checkpoint over the untouched log)...
      expect(await signer.sign(new Date())).not.toBeNull();
      // ...until the audit reaches the edit.
      while (await signer.audit(2));
      expect(signer.refusal).toMatchObject({ streamId: 'user-a', position: at['a1'], problem: 'changed' });
      await store.append('user-a', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 2 } }], 4);
      expect(await signer.sign(new Date())).toBeNull();
      expect(await verifyChain(store, { signingKey: KEY })).toMatchObject({ ok: false, failure: { position: at['a1'], problem: 'changed' } });
    } finally {
      await store.close();
    }
  });

  it("the first event of a stream after the newest checkpoint must link to the stream's event before it", async () => {
    const { file } = await ledgerFile();
    await signFile(file, null);
    const store = openSqliteEventStore(file);
    const { position } = await store.append('user-a', [{ id: crypto.randomUUID(), type: 'WalletCredited', data: { amountPaise: 1 } }], 3);
    await store.close();
    tamper(file, 'UPDATE events SET prev_hash = ? WHERE position = ?', 'f'.repeat(64), position);
    await expect(signFile(file, null, 'newest checkpoint')).rejects.toThrow(/inserted event in stream user-a at position \d+: this event does not link to the one before it/);
  });

  it('the file witness appends one line per checkpoint and reads the newest from its end, past a line cut short', async () => {
    const path = join(dir, 'nested', 'witness.jsonl');
    const witness = new FileWitness(path);
    expect(await witness.latest()).toBeNull();
    const at = (position: number): LedgerCheckpoint => ({ position, hash: 'a'.repeat(64), mac: 'b'.repeat(64), recordedAt: '2026-11-29T00:00:00.000Z' });
    for (let p = 1; p <= 200; p++) await witness.record(at(p));
    appendFileSync(path, '{"position":201,"hash":"aaa');
    expect(await witness.latest()).toEqual(at(200));
    await witness.record(at(202));
    expect(await witness.latest()).toEqual(at(202));
  });

  it('the S3 witness keeps one object per checkpoint, lists the newest first and never overwrites one', async () => {
    const s3 = await startS3rver();
    const witness = new S3Witness({ bucket: s3.bucket, prefix: 'ledger-witness/', region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, ...S3RVER_CREDENTIALS });
    try {
      expect(await witness.latest()).toBeNull();
      const at = (position: number, recordedAt = '2026-11-29T00:00:00.000Z'): LedgerCheckpoint => ({ position, hash: 'a'.repeat(64), mac: 'b'.repeat(64), recordedAt });
      await witness.record(at(9));
      await witness.record(at(120));
      await witness.record(at(30));
      expect(await witness.latest()).toEqual(at(120));
      await witness.record(at(120, '2026-11-29T01:00:00.000Z'));
      expect((await witness.latest())?.position).toBe(120);
    } finally {
      witness.close();
      await s3.close();
    }
  });
});

describe('the chain input', () => {
  // Hashes made by the first version of chainHash and logHash (createHash over JSON.stringify of the
  // array): a faster way of computing them must give the very same hashes, or every stored chain breaks.
  const tricky = { streamId: 'user-"x\u2028\\é', revision: 7, type: 'Wallet"Credited', data: '{"a":"\\n\u0001 ₹"}', metadata: '{"k":"\ud800"}' };

  it('is the one every stored hash was made from, escapes included', () => {
    expect(chainHash(null, tricky)).toBe('3f1e5ee0434238f5e78cf286245dc06aa4796603c7b44d9bcce3ffcdc11995a6');
    expect(chainHash('ab'.repeat(32), tricky)).toBe('9c94df7e2f24c8a72c8364cf722d4e936624adabec561eb1aafa6c4041f6c5d6');
    expect(logHash(null, 1, 'ff')).toBe('6d64b3ecfdb58348be2d9c021d3a44e3b9ff818ca1d02b5d9ee6359c054c6190');
    expect(logHash({ position: 9, hash: 'ee' }, 10, 'ff')).toBe('f1e5a146b5aa4f80d1a24b93dd7d0b0b3391b2ab64dc798f288893e77855b0e3');
  });

  it("the embedded store's form: over the data and metadata as stored, the data's length fixing where each ends; checked in the form a row carries", () => {
    const rest = storedContentRest(tricky.type, tricky.data, tricky.metadata);
    const streamJson = JSON.stringify(tricky.streamId);
    expect(storedContentHashOf(null, streamJson, 7, rest)).toBe('mH589vQeZ2oLUMalZv0fX+OuAyo5o+xHOUzPNGfmOSc=');
    expect(storedContentHashOf('ab'.repeat(32), streamJson, 7, rest)).toBe('1kaswUjKJLgNsHz7fNh0vP9xYwrebMXcaKkJOwZ9nEk=');
    // Text moved from the data to the metadata (or back) changes the hash.
    expect(storedContentHashOf(null, streamJson, 7, storedContentRest('T', '1,2', '3'))).not.toBe(storedContentHashOf(null, streamJson, 7, storedContentRest('T', '1', '2,3')));
    // Each row is checked in its own form: hex (chainHash), or base64 (storedContentHashOf).
    const hex = chainHash(null, tricky);
    const base64 = storedContentHashOf(null, streamJson, 7, rest);
    expect([streamHashFor(hex, null, tricky), streamHashFor(base64, null, tricky)]).toEqual([hex, base64]);
  });
});
