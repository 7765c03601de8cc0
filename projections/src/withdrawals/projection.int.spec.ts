import { DEFAULT_BANK_FILE_SETTINGS, DEFAULT_CANNED_REASONS, DEFAULT_LIMITS, DEFAULT_TAX_RULES, limitsBody, taxRuleBody } from '@kamai/contracts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KamaiEvent, UserEvent, WithdrawalDestination } from '@kamai/contracts';
import { credit, decideWithdrawals, fold, userEvolver, type WithdrawalCommand } from '@kamai/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb, writeTransaction } from '../db.ts';
import { allProjections } from '../index.ts';
import { rebuildReadModels } from '../rebuild.ts';
import { applyEvents } from '../runner.ts';
import { getSettings } from '../settings/queries.ts';
import { listAsEventSource, recordEvents } from '../testing.ts';
import { findUserById } from '../users/queries.ts';
import { listTransactions } from '../wallet/queries.ts';
import { findSavedDestination, listUserWithdrawals, listWithdrawalsForFinance } from './queries.ts';

const t = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;
const bank: WithdrawalDestination = { kind: 'bank', accountNumber: '001234567894321', ifsc: 'HDFC0001234', holderName: 'Asha Rao' };
const upi: WithdrawalDestination = { kind: 'upi', upiId: 'asha.rao@okhdfc' };

/** The tax deductor's settings until an admin sets them. */
const NO_DEDUCTOR = { taxDeductorTan: null, taxDeductorName: null, taxDeductorAddress: null };

describe('withdrawal_requests and app_settings read models', () => {
  let dir: string;
  let db: ReadDbHandle;
  const log: { stream: string; event: KamaiEvent }[] = [];
  const streams: Record<string, UserEvent[]> = {};

  /** Decides on a user's stream as the API does and records what was decided. */
  function on(userId: string, ...events: UserEvent[]) {
    streams[userId] = [...(streams[userId] ?? []), ...events];
    for (const event of events) log.push({ stream: `user-${userId}`, event });
  }
  function decide(userId: string, command: WithdrawalCommand) {
    on(userId, ...decideWithdrawals(command, fold(userEvolver, streams[userId] ?? [])));
  }
  function register(userId: string, mobile: string, firstName: string) {
    on(userId, { type: 'UserRegistered', data: { userId, mobile, passwordHash: 'h', firstName, lastName: 'Rao', registeredAt: t(0) } });
    on(userId, credit({ entryId: `credit-${userId}`, amountPaise: 100_000, kind: 'task_reward', params: { taskTitle: 'Rate PhonePe' }, now: t(0) }));
  }
  const request = (id: string, minute: number, destination?: WithdrawalDestination): WithdrawalCommand => ({
    type: 'RequestWithdrawal',
    data: { withdrawalId: id, entryId: `hold-${id}`, notificationId: `n-${id}`, amountPaise: 10_000, ...(destination && { destination }) },
    now: t(minute),
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kamai-proj-'));
    db = await openReadDb(join(dir, 'read.sqlite'));
    log.length = 0;
    for (const key of Object.keys(streams)) delete streams[key];
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the user history masked, the finance queue oldest first in full, and the saved destination', async () => {
    register('u1', '9876543210', 'Asha');
    register('u2', '9876543211', 'Ravi');
    decide('u1', request('w1', 1, bank));
    decide('u2', request('w2', 2, upi));
    decide('u1', request('w3', 3));
    decide('u1', { type: 'MarkWithdrawalPaid', data: { withdrawalId: 'w1', reference: 'UTR0001', by: 'fin', notificationId: 'n-p' }, now: t(4) });
    decide('u2', { type: 'RejectWithdrawal', data: { withdrawalId: 'w2', reason: 'Wrong UPI ID', by: 'fin', entryId: 'refund-w2', notificationId: 'n-r' }, now: t(5) });
    const recorded = recordEvents(log);
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded));

    expect(await listUserWithdrawals(db, 'u1')).toEqual([
      {
        id: 'w3', userId: 'u1', amount: '100.00', status: 'pending', destination: 'A/c XXXXXX4321 · HDFC0001234', destinationKind: 'bank',
        requestedAt: t(3), processedAt: null, reference: null, reason: null, tax: null, net: '100.00',
      },
      {
        id: 'w1', userId: 'u1', amount: '100.00', status: 'paid', destination: 'A/c XXXXXX4321 · HDFC0001234', destinationKind: 'bank',
        requestedAt: t(1), processedAt: t(4), reference: 'UTR0001', reason: null, tax: null, net: '100.00',
      },
    ]);
    expect((await listUserWithdrawals(db, 'u2'))[0]).toMatchObject({ status: 'rejected', reason: 'Wrong UPI ID', destination: 'UPI as***@okhdfc' });

    expect(await findSavedDestination(db, 'u1')).toEqual({ kind: 'bank', label: 'A/c XXXXXX4321 · HDFC0001234', holderName: 'Asha Rao', ifsc: 'HDFC0001234', accountLast4: '4321' });
    expect(await findSavedDestination(db, 'u2')).toEqual({ kind: 'upi', label: 'UPI as***@okhdfc' });
    expect(await findSavedDestination(db, 'nobody')).toBeNull();

    const pending = await listWithdrawalsForFinance(db, 'pending');
    expect(pending.map((w) => w.id)).toEqual(['w3']);
    expect(pending[0]).toMatchObject({ user: { id: 'u1', name: 'Asha Rao', mobile: '9876543210' }, payTo: bank, processedBy: null });
    expect((await listWithdrawalsForFinance(db, 'all')).map((w) => w.id)).toEqual(['w3', 'w2', 'w1']);
    expect(await listWithdrawalsForFinance(db, 'paid')).toMatchObject([{ id: 'w1', processedBy: 'fin', reference: 'UTR0001' }]);

    // The ledger tells the same story: two holds for u1, a hold and its refund for u2.
    expect((await findUserById(db, 'u1'))?.balance_paise).toBe(80_000);
    expect((await findUserById(db, 'u2'))?.balance_paise).toBe(100_000);
    expect((await listTransactions(db, 'u2')).map((tx) => [tx.type, tx.direction, tx.kind, tx.amount])).toEqual([
      ['other', 'credit', 'withdrawal_refund', '100.00'],
      ['withdrawn', 'debit', 'withdrawal', '100.00'],
      ['earned', 'credit', 'task_reward', '1000.00'],
    ]);

    // Disposable: a rebuild from the events gives the same rows.
    const before = await db.selectFrom('withdrawal_requests').selectAll().orderBy('id').execute();
    await rebuildReadModels(db, listAsEventSource(recorded), allProjections);
    expect(await db.selectFrom('withdrawal_requests').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('serves the default settings until an admin changes one, then keeps the other default', async () => {
    expect(await getSettings(db)).toEqual({ supportEmail: 'support@kamai.in', homepageUrl: 'https://kamai.in', updatedAt: null, ...limitsBody(DEFAULT_LIMITS), cannedReasons: DEFAULT_CANNED_REASONS, taxRules: DEFAULT_TAX_RULES.map(taxRuleBody), ...NO_DEDUCTOR, ...DEFAULT_BANK_FILE_SETTINGS });
    const recorded = recordEvents([
      { stream: 'settings', event: { type: 'SettingsUpdated', data: { supportEmail: 'help@kamai.in', updatedBy: 'a1', updatedAt: t(1) } } },
      { stream: 'settings', event: { type: 'SettingsUpdated', data: { homepageUrl: 'https://kamai.example', updatedBy: 'a1', updatedAt: t(2) } } },
    ]);
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded.slice(0, 1)));
    expect(await getSettings(db)).toEqual({ supportEmail: 'help@kamai.in', homepageUrl: 'https://kamai.in', updatedAt: t(1), ...limitsBody(DEFAULT_LIMITS), cannedReasons: DEFAULT_CANNED_REASONS, taxRules: DEFAULT_TAX_RULES.map(taxRuleBody), ...NO_DEDUCTOR, ...DEFAULT_BANK_FILE_SETTINGS });
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recorded.slice(1)));
    expect(await getSettings(db)).toEqual({ supportEmail: 'help@kamai.in', homepageUrl: 'https://kamai.example', updatedAt: t(2), ...limitsBody(DEFAULT_LIMITS), cannedReasons: DEFAULT_CANNED_REASONS, taxRules: DEFAULT_TAX_RULES.map(taxRuleBody), ...NO_DEDUCTOR, ...DEFAULT_BANK_FILE_SETTINGS });
  });
});
