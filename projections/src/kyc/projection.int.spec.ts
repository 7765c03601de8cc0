import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KamaiEvent, UserEvent } from '@kamai/contracts';
import { type KycCommand, decideKyc, fold, userEvolver } from '@kamai/domain';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb, writeTransaction } from '../db.ts';
import { allProjections } from '../index.ts';
import { rebuildReadModels } from '../rebuild.ts';
import { applyEvents } from '../runner.ts';
import { listAsEventSource, recordEvents } from '../testing.ts';
import { findUserById, toUserBody } from '../users/queries.ts';
import { listTransactions } from '../wallet/queries.ts';
import { listKycDocuments, listKycQueue } from './queries.ts';

const t = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;
const sha = (c: string) => c.repeat(64);

describe('kyc_documents read model and users.kycStatus', () => {
  let dir: string;
  const dbs: ReadDbHandle[] = [];
  const log: { stream: string; event: KamaiEvent }[] = [];
  const streams: Record<string, UserEvent[]> = {};

  function on(userId: string, ...events: UserEvent[]) {
    streams[userId] = [...(streams[userId] ?? []), ...events];
    for (const event of events) log.push({ stream: `user-${userId}`, event });
  }
  const decide = (userId: string, command: KycCommand) => on(userId, ...decideKyc(command, fold(userEvolver, streams[userId] ?? [])));
  const register = (userId: string, mobile: string) =>
    on(userId, { type: 'UserRegistered', data: { userId, mobile, passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: t(0) } });
  const submit = (userId: string, documentId: string, documentType: 'pan' | 'voter_id', front: string, minute: number): KycCommand => ({
    type: 'SubmitKycDocument',
    data: { documentId, documentType, front: { url: `/objects/kyc/${userId}/${documentId}-f`, sha256: front }, back: { url: `/objects/kyc/${userId}/${documentId}-b`, sha256: sha(documentId.slice(-1)) } },
    now: t(minute),
  });
  const approve = (documentId: string, minute: number): KycCommand => ({ type: 'ApproveKycDocument', data: { documentId, reviewerId: 'rev', notificationId: `n-${documentId}` }, now: t(minute) });
  const open = async (name: string) => {
    const db = await openReadDb(join(dir, name));
    dbs.push(db);
    return db;
  };
  async function dump(db: ReadDbHandle) {
    const rows = (await sql<Record<string, unknown>>`SELECT * FROM kyc_documents ORDER BY id`.execute(db)).rows;
    const users = (await sql<Record<string, unknown>>`SELECT id, kyc_status FROM users ORDER BY id`.execute(db)).rows;
    return { rows, users };
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kamai-kyc-'));
    log.length = 0;
    for (const key of Object.keys(streams)) delete streams[key];
  });
  afterEach(async () => {
    await Promise.all(dbs.splice(0).map((db) => db.destroy()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('given submissions, reviews and a claim, then the documents, queue, kycStatus and the bonus line', async () => {
    register('u1', '9876543221');
    register('u2', '9812345621');
    decide('u1', submit('u1', 'd1', 'pan', sha('a'), 1));
    decide('u1', submit('u1', 'd2', 'voter_id', sha('c'), 2));
    // u2 sends the same front picture as u1's PAN card.
    decide('u2', submit('u2', 'd3', 'pan', sha('a'), 3));
    decide('u1', { type: 'RejectKycDocument', data: { documentId: 'd2', reviewerId: 'rev', reason: 'Blurry', notificationId: 'n-rej' }, now: t(4) });

    const live = await open('live.sqlite');
    const applyAll = () => writeTransaction(live, (trx) => applyEvents(trx, allProjections, recordEvents(log)));
    await applyAll();

    expect((await listKycDocuments(live, 'u1')).map((d) => [d.id, d.documentType, d.status, d.rejectionReason])).toEqual([
      ['d1', 'pan', 'pending', null],
      ['d2', 'voter_id', 'rejected', 'Blurry'],
    ]);
    const queue = await listKycQueue(live, { status: 'pending' });
    expect(queue.map((q) => [q.id, q.userMobile, q.alsoSubmittedBy])).toEqual([
      ['d1', '9876543221', ['+91 98xxxxxx21']],
      ['d3', '9812345621', ['+91 98xxxxxx21']],
    ]);
    expect(queue[0]).toMatchObject({ userName: 'Asha Rao', frontImageUrl: '/objects/kyc/u1/d1-f' });

    // Resubmit the rejected one, approve both, claim.
    decide('u1', submit('u1', 'd4', 'voter_id', sha('e'), 5));
    decide('u1', approve('d1', 6));
    decide('u1', approve('d4', 7));
    const afterApprovals = log.length;
    decide('u1', { type: 'ClaimKycBonus', data: { entryId: 'bonus', notificationId: 'n-bonus' }, now: t(8) });

    const db = await open('read.sqlite');
    const recorded = recordEvents(log);
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded.slice(0, afterApprovals)));
    expect(toUserBody((await findUserById(db, 'u1'))!).kycStatus).toBe('verified');
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded.slice(afterApprovals)));
    expect(toUserBody((await findUserById(db, 'u1'))!)).toMatchObject({ kycStatus: 'bonus_claimed', totalRupees: '200.00', totalEarned: '200.00' });
    expect(toUserBody((await findUserById(db, 'u2'))!).kycStatus).toBe('pending');
    expect(await listTransactions(db, 'u1')).toEqual([
      expect.objectContaining({ id: 'bonus', type: 'earned', kind: 'kyc_bonus', amount: '200.00', description: 'KYC verification bonus' }),
    ]);
    expect((await listKycDocuments(db, 'u1')).map((d) => [d.id, d.status])).toEqual([
      ['d1', 'approved'],
      ['d4', 'approved'],
    ]);

    // Disposable: a rebuild from position zero gives the same rows as the live model.
    const rebuilt = await open('rebuilt.sqlite');
    await rebuildReadModels(rebuilt, listAsEventSource(recorded), allProjections, { batchSize: 3 });
    expect(await dump(rebuilt)).toEqual(await dump(db));
  });
});
