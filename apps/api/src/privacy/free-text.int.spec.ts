import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ERASED, EVENT_METADATA_FIELDS, streams } from '@kamai/contracts';
import { listNotifications, listPostings, listTransactions } from '@kamai/projections';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjust } from '../finance/testing.ts';
import { submitDocument } from '../kyc/testing.ts';
import { createTaskAs, submitProof, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';
import { filesUnder, markersIn } from './testing.ts';

/** Free text written about the person, one marker per place issue 34 found it in the clear. */
const REASONS = {
  proof: 'blurry screenshot of Zebulonprf',
  withdrawal: 'holder Zebulonwdr does not match',
  bank: 'account of Zebulonbnk closed',
  reversal: 'Zebulonrev account frozen',
  kyc: 'PAN belongs to Zebulonkyc',
  credit: 'Goodwill for Zebulonadj',
  debit: 'Settling Zebulondeb before erasure',
};
const MARKERS = Object.values(REASONS);

const bytesFound = (file: string) => markersIn([file], MARKERS);

let server: TestServer;
let admin: TestClient;
let reviewer: TestClient;
let funder: TestClient;
let finance: TestClient;
let approver: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signUp({ roles: ['admin'] });
  reviewer = await server.signUp({ roles: ['reviewer'] });
  funder = await server.signUp({ roles: ['finance'] });
  finance = await server.signUp({ roles: ['finance'] });
  approver = await server.signUp({ roles: ['finance'] });
});
afterAll(() => server?.close());

const csv = (rows: string[][]) => rows.map((r) => r.join(',')).join('\r\n');

describe('free text about a person', () => {
  it('is sealed in the log, read by staff while the person exists, and reads as erased everywhere after erasure', async () => {
    const user = await server.signUp({ firstName: 'Zebulon', lastName: 'Freetext' });
    const credit = await funder.post('/api/admin/adjustments', { mobile: user.mobile, amount: 1000, direction: 'credit', reason: REASONS.credit });
    expect(credit.status, JSON.stringify(credit.body)).toBe(201);

    const task = await createTaskAs(admin);
    const proof = await submitProof(user, task.id, await uploadedImage(server, user));
    expect(proof.status, JSON.stringify(proof.body)).toBe(201);
    const rejectedProof = await reviewer.post(`/api/admin/submissions/${proof.body.id}/reject`, { reason: REASONS.proof });
    expect(rejectedProof.body).toMatchObject({ status: 'rejected', rejectionReason: REASONS.proof });

    const kyc = await submitDocument(server.url, user, 'pan', 21);
    expect((await reviewer.post(`/api/admin/kyc/${kyc.id}/reject`, { reason: REASONS.kyc })).status).toBe(200);

    const bank = { accountNumber: '556677889900', ifsc: 'HDFC0001234', holderName: 'Zebulon Freetext' };
    const w1 = await user.post('/api/withdrawals', { amount: 100, upiId: 'zebulon.ft@okaxis' });
    const w2 = await user.post('/api/withdrawals', { amount: 200, bankAccount: bank });
    const w3 = await user.post('/api/withdrawals', { amount: 300, upiId: 'zebulon.ft@okaxis' });
    expect([w1.status, w2.status, w3.status]).toEqual([201, 201, 201]);
    expect((await finance.post(`/api/admin/withdrawals/${w1.body.id}/reject`, { reason: REASONS.withdrawal })).status).toBe(200);
    const batch = await finance.post('/api/admin/payout-batches', { withdrawalIds: [w2.body.id, w3.body.id] });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    const results = csv([
      ['reference', 'amount', 'status', 'utr', 'failure_reason'],
      [w2.body.id, '200.00', 'FAILED', '', REASONS.bank],
      [w3.body.id, '300.00', 'SUCCESS', 'ZEBUTR0001', ''],
    ]);
    const imported = await finance.request('POST', `/api/admin/payout-batches/${batch.body.id}/results`, results, { 'content-type': 'text/csv' });
    expect(imported.body).toMatchObject({ applied: 2, refused: [] });
    expect((await finance.post(`/api/admin/withdrawals/${w3.body.id}/reverse`, { reason: REASONS.reversal })).status).toBe(200);
    const debit = await funder.post('/api/admin/adjustments', { mobile: user.mobile, amount: 1000, direction: 'debit', reason: REASONS.debit });
    // Above the approval threshold alone: requested (AdjustmentRequested holds the reason), then approved by a third member.
    expect(debit.status, JSON.stringify(debit.body)).toBe(202);
    const approved = await approver.post(`/api/admin/adjustments/${debit.body.adjustment.id}/approve`);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    // None of it in the log's bytes; staff and the person read it through the sealed store.
    expect(bytesFound(join(server.dataDir, 'events.sqlite'))).toEqual([]);
    const mine = (await user.get<{ id: string; reason: string | null }[]>('/api/withdrawals')).body;
    expect(Object.fromEntries(mine.map((w) => [w.id, w.reason]))).toMatchObject({
      [w1.body.id]: REASONS.withdrawal,
      [w2.body.id]: REASONS.bank,
      [w3.body.id]: REASONS.reversal,
    });
    const statement = await finance.get<{ entries: { reason: string | null }[] }>(`/api/admin/ledger/users/${user.userId}/statement`);
    expect(statement.body.entries.map((e) => e.reason)).toEqual(expect.arrayContaining([REASONS.credit, REASONS.debit, REASONS.withdrawal, REASONS.bank, REASONS.reversal]));
    // The reason's code stays plain beside the sealed text, for statistics.
    const events = await server.store.readStream(streams.user(user.userId));
    expect(events.filter((e) => e.type === 'ProofRejected' || e.type === 'WithdrawalRejected' || e.type === 'AdjustmentRequested' || e.type === 'KycDocumentRejected').map((e) => (e.data as { reasonCode?: string }).reasonCode)).not.toContain(undefined);

    // Throttled too: someone guessing their password leaves rows against the number.
    for (let i = 0; i < 3; i++) expect((await server.client().post('/api/auth/login', { mobile: user.mobile, password: 'not-their-password' })).status).not.toBe(200);

    expect((await admin.put('/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);
    const requested = await user.post('/api/profile/deletion-request', { password: user.password });
    expect(requested.status).toBe(202);
    const erased = await admin.post(`/api/admin/deletions/${requested.body.id}/erase`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);

    // Read models (every byte), statements and export-ledger's postings: the placeholder, never the text.
    expect(bytesFound(join(server.dataDir, 'read.sqlite'))).toEqual([]);
    const after = await finance.get<{ entries: { reason: string | null }[] }>(`/api/admin/ledger/users/${user.userId}/statement`);
    const reasons = after.body.entries.map((e) => e.reason).filter((r) => r !== null);
    expect(reasons.length).toBeGreaterThanOrEqual(5);
    expect(new Set(reasons)).toEqual(new Set([ERASED]));
    const postings = (await listPostings(server.db)).filter((p) => p.userId === user.userId);
    expect(postings.filter((p) => p.reason !== null).map((p) => p.reason)).toEqual(postings.filter((p) => p.reason !== null).map(() => ERASED));
    expect(JSON.stringify(postings)).not.toMatch(/Zebulon(adj|deb|wdr|bnk|rev)/);
    expect(bytesFound(join(server.dataDir, 'events.sqlite'))).toEqual([]);
    // Every file under DATA_DIR (log, read models, keys, throttles, outboxes, objects; WALs and free
    // pages included): none of the reasons, nor the person's name, number, UPI ID or account number.
    const theirs = [...MARKERS, 'Zebulon', user.mobile, user.mobile.slice(-10), 'zebulon.ft@okaxis', bank.accountNumber];
    expect(markersIn(filesUnder(server.dataDir), theirs)).toEqual([]);
  });

  it("keeps an older event's literal texts (a notification's title and message, a ledger entry's description) in no read model: listed from the sealed event, read as erased after erasure", async () => {
    const OLD = { title: 'Goodwill Zebulonnti', message: 'Zebulonntm was credited', description: 'Goodwill for Zebulonold', settled: 'Settled for Zebulonods' };
    const user = await server.signUp({ firstName: 'Zebulon', lastName: 'Older' });
    const at = new Date().toISOString();
    // As the app wrote them before texts were keys and parameters.
    await server.store.append(
      streams.user(user.userId),
      [
        { id: randomUUID(), type: 'WalletCredited', data: { entryId: randomUUID(), amountPaise: 5000, kind: 'adjustment', description: OLD.description, creditedAt: at } },
        { id: randomUUID(), type: 'NotificationSent', data: { notificationId: randomUUID(), title: OLD.title, message: OLD.message, kind: 'success', sentAt: at } },
        { id: randomUUID(), type: 'WalletDebited', data: { entryId: randomUUID(), amountPaise: 5000, kind: 'adjustment', description: OLD.settled, debitedAt: at } },
      ],
      'any',
    );
    await expect.poll(async () => (await user.get<{ title: string; message: string }[]>('/api/notifications')).body.map((n) => [n.title, n.message])).toContainEqual([OLD.title, OLD.message]);
    expect((await user.get<{ description: string }[]>('/api/transactions')).body.map((t) => t.description)).toEqual([OLD.settled, OLD.description]);
    const statement = await finance.get<{ entries: { description: string }[] }>(`/api/admin/ledger/users/${user.userId}/statement`);
    expect(statement.body.entries.map((e) => e.description)).toEqual([OLD.description, OLD.settled]);
    expect((await listPostings(server.db)).filter((p) => p.userId === user.userId && p.description === OLD.settled)).toHaveLength(2);
    const readModels = filesUnder(server.dataDir).filter((file) => file.endsWith('read.sqlite'));
    expect(readModels).toHaveLength(1);
    expect(markersIn(readModels, Object.values(OLD))).toEqual([]);

    expect((await admin.put('/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);
    const requested = await user.post('/api/profile/deletion-request', { password: user.password });
    expect(requested.status).toBe(202);
    const erased = await admin.post(`/api/admin/deletions/${requested.body.id}/erase`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    const notifications = await listNotifications(server.db, user.userId);
    expect(notifications.filter((n) => n.key === undefined).map((n) => [n.title, n.message])).toEqual([[ERASED, ERASED]]);
    expect((await listTransactions(server.db, user.userId)).map((t) => t.description)).toEqual([ERASED, ERASED]);
    const after = await finance.get<{ entries: { description: string }[] }>(`/api/admin/ledger/users/${user.userId}/statement`);
    expect(after.body.entries.map((e) => e.description)).toEqual([ERASED, ERASED]);
    expect(markersIn(filesUnder(server.dataDir), Object.values(OLD))).toEqual([]);
  });

  it('leaves no metadata entry unclassified: every key the app wrote is in EVENT_METADATA_FIELDS', () => {
    const raw = new Database(join(server.dataDir, 'events.sqlite'), { readonly: true });
    try {
      const keys = new Set<string>();
      for (const metadata of raw.prepare<[], string>('SELECT metadata FROM events').pluck().all()) {
        for (const key of Object.keys(JSON.parse(metadata) as object)) keys.add(key);
      }
      expect(keys.size).toBeGreaterThan(2);
      expect([...keys].filter((key) => !Object.hasOwn(EVENT_METADATA_FIELDS, key))).toEqual([]);
    } finally {
      raw.close();
    }
  });
});
