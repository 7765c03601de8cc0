import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERASED, type KamaiEvent, PROOF_SIMILARITY_MAX_LISTED, PROOF_SIMILARITY_WINDOW } from '@kamai/contracts';
import type { RecordedEvent } from '@kamai/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb, writeTransaction } from '../db.ts';
import { allProjections } from '../index.ts';
import { rebuildReadModels } from '../rebuild.ts';
import { applyEvents } from '../runner.ts';
import { listAsEventSource } from '../testing.ts';
import { findSubmission } from './queries.ts';
import { KEPT_SIMILAR } from './similar.ts';

const at = '2026-11-21T10:00:00.000Z';
const ORIGINAL = '3e8e8e8e8e8e8e8e';
/** Two bits off the original: the same picture. */
const COPY = '3e8e8e8e8e8e8e8b';
/** Eight bits off: another picture. */
const OTHER = '3e8e8e8e8e8e71f1';

const registered = (userId: string, mobile: string): KamaiEvent => ({
  type: 'UserRegistered',
  data: { userId, mobile, passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: at },
});
const submitted = (submissionId: string, proofDhash: string): KamaiEvent => ({
  type: 'ProofSubmitted',
  data: { submissionId, taskId: 't1', taskTitle: 'Rate', rewardPaise: 2500, proofImageUrl: `/objects/${submissionId}`, proofDescription: '', submittedAt: at, proofDhash },
});

/** A hash far from the fixed ones and (almost surely) from each other: filler for the window. */
function fillerHash(i: number): string {
  let x = (i + 1) * 0x9e3779b1;
  const word = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0).toString(16).padStart(8, '0');
  };
  return `${word()}${word()}`;
}

describe('near-duplicate proofs are found once, when a proof is projected', () => {
  let dir: string;
  let db: ReadDbHandle;
  let position = 0;

  function record(...events: [stream: string, event: KamaiEvent][]): RecordedEvent[] {
    return events.map(([streamId, event]) => {
      position += 1;
      return { id: `e${position}`, streamId, revision: position, position, type: event.type, data: event.data, metadata: {}, recordedAt: at } as RecordedEvent;
    });
  }
  const given = (...events: [stream: string, event: KamaiEvent][]) => writeTransaction(db, (trx) => applyEvents(trx, allProjections, record(...events)));
  const similarOf = async (id: string, handle = db) => (await findSubmission(handle, id))?.similarProofs.map((p) => p.submissionId);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kamai-similar-'));
    db = await openReadDb(join(dir, 'read.sqlite'));
    position = 0;
    await given(['user-u1', registered('u1', '9876543210')], ['user-u2', registered('u2', '9123456789')]);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compares a proof with the window before it: a copy 5,000 hashed proofs back is not found, one inside is', async () => {
    const fillers = Array.from({ length: PROOF_SIMILARITY_WINDOW - 1 }, (_, i): [string, KamaiEvent] => ['user-u1', submitted(`f${i}`, fillerHash(i))]);
    await given(['user-u1', submitted('old', ORIGINAL)], ...fillers, ['user-u2', submitted('inside', OTHER)]);
    // 5,000 hashed proofs came after 'old': it has left the window before its copy comes.
    await given(['user-u2', submitted('late-copy', COPY)]);
    expect(await similarOf('late-copy')).toEqual([]);
    expect(await similarOf('old')).toEqual([]);
    expect(await db.selectFrom('proof_window').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual({ n: PROOF_SIMILARITY_WINDOW });
    // The oldest of the window (5,000 back) is still compared with.
    await given(['user-u2', submitted('edge-copy', fillerHash(1))]);
    expect(await similarOf('edge-copy')).toEqual(['f1']);
    // A copy of a recent proof is found, both ways.
    await given(['user-u1', submitted('inside-copy', '3e8e8e8e8e8e71f0')]);
    expect(await similarOf('inside-copy')).toEqual(['inside']);
    expect(await similarOf('inside')).toEqual(['inside-copy']);
  });

  it('keeps the closest few of a picture every worker sends alike, and lists the closest ten', async () => {
    const copies = Array.from({ length: KEPT_SIMILAR + 5 }, (_, i): [string, KamaiEvent] => [i % 2 ? 'user-u1' : 'user-u2', submitted(`c${String(i).padStart(2, '0')}`, ORIGINAL)]);
    await given(...copies);
    const kept = await db.selectFrom('similar_proofs').select('submission_id').select((eb) => eb.fn.countAll<number>().as('n')).groupBy('submission_id').execute();
    expect(Math.max(...kept.map((k) => k.n))).toBe(KEPT_SIMILAR);
    const listed = await similarOf('c00');
    expect(listed).toHaveLength(PROOF_SIMILARITY_MAX_LISTED);
    // All at distance 0: by id.
    expect(listed).toEqual(copies.slice(1, PROOF_SIMILARITY_MAX_LISTED + 1).map(([, e]) => (e.data as { submissionId: string }).submissionId));
  });

  it('an erasure takes the erased person’s pairs away, and the spare pairs fill the list', async () => {
    const copies = Array.from({ length: 2 * PROOF_SIMILARITY_MAX_LISTED }, (_, i): [string, KamaiEvent] => [i < PROOF_SIMILARITY_MAX_LISTED ? 'user-u1' : 'user-u2', submitted(`c${String(i).padStart(2, '0')}`, ORIGINAL)]);
    await given(['user-u2', submitted('mine', ORIGINAL)], ...copies);
    expect(await similarOf('mine')).toEqual(copies.slice(0, PROOF_SIMILARITY_MAX_LISTED).map(([, e]) => (e.data as { submissionId: string }).submissionId));
    await given(['user-u1', { type: 'UserErased', data: { requestId: 'r1', erasedBy: 'admin', erasedAt: at } }]);
    expect(await similarOf('mine')).toEqual(copies.slice(PROOF_SIMILARITY_MAX_LISTED).map(([, e]) => (e.data as { submissionId: string }).submissionId));
    expect(await similarOf('c00')).toEqual([]);
    // The erased picture holds its place in the window but matches nothing later.
    await given(['user-u2', submitted('after', ORIGINAL)]);
    expect(await similarOf('after')).toHaveLength(PROOF_SIMILARITY_MAX_LISTED);
    expect((await similarOf('after'))?.some((id) => /^c0\d$/.test(id))).toBe(false);
  });

  it('two processes sharing the read database each see the proofs the other projected', async () => {
    const other = await openReadDb(join(dir, 'read.sqlite'));
    try {
      const onOther = (...events: [stream: string, event: KamaiEvent][]) => writeTransaction(other, (trx) => applyEvents(trx, allProjections, record(...events)));
      await given(['user-u1', submitted('a', ORIGINAL)]);
      await onOther(['user-u2', submitted('b', COPY)]);
      // This connection's copy of the window was made before 'b': it must load again to see it.
      await given(['user-u2', submitted('c', ORIGINAL)]);
      expect(await similarOf('c')).toEqual(['a', 'b']);
      expect(await similarOf('b', other)).toEqual(['a', 'c']);
    } finally {
      await other.destroy();
    }
  });

  it('a transaction that rolls back leaves no trace in the next comparison', async () => {
    await given(['user-u1', submitted('a', ORIGINAL)]);
    await expect(
      writeTransaction(db, (trx) => {
        applyEvents(trx, allProjections, record(['user-u2', submitted('ghost', COPY)]));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await given(['user-u2', submitted('b', COPY)]);
    expect(await similarOf('b')).toEqual(['a']);
    expect(await similarOf('a')).toEqual(['b']);
  });

  it('a rebuild from position zero finds the same pairs as projecting live', async () => {
    const events = record(
      ['user-u1', registered('u1', '9876543210')],
      ['user-u2', registered('u2', '9123456789')],
      ['user-u1', submitted('a', ORIGINAL)],
      ['user-u2', submitted('b', COPY)],
      ['user-u2', submitted('c', OTHER)],
      ['user-u1', submitted('d', ORIGINAL)],
      ['user-u1', { type: 'UserErased', data: { requestId: 'r1', erasedBy: 'admin', erasedAt: at } }],
      ['user-u2', submitted('e', COPY)],
    ).map((event, i) => ({ ...event, position: i + 1 }));
    const live = await openReadDb(join(dir, 'live.sqlite'));
    const rebuilt = await openReadDb(join(dir, 'rebuilt.sqlite'));
    try {
      for (const event of events) await writeTransaction(live, (trx) => applyEvents(trx, allProjections, [event]));
      // A rebuild decodes an erased person's events with their personal fields erased.
      const erased = events.map((event) => (event.type === 'ProofSubmitted' && event.streamId === 'user-u1' ? { ...event, data: { ...(event.data as object), proofDhash: ERASED } } : event));
      await rebuildReadModels(rebuilt, listAsEventSource(erased), allProjections, { batchSize: 3 });
      for (const table of ['similar_proofs', 'proof_window', 'proof_window_head'] as const) {
        const rows = async (handle: ReadDbHandle) => (await handle.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)).sort();
        expect(await rows(rebuilt), table).toEqual(await rows(live));
        expect((await rows(live)).length, table).toBeGreaterThan(0);
      }
      expect(await similarOf('e', live)).toEqual(['b']);
    } finally {
      await live.destroy();
      await rebuilt.destroy();
    }
  });
});
