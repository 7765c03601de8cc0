import { type AuditEntryBody, DEFAULT_CANNED_REASONS, DEFAULT_TAX_RULES, type SettingsBody, type SettingsChangeRequestBody, taxRuleBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';

type Admin = TestClient & { userId: string };

describe('control settings need two admins', () => {
  let server: TestServer;
  let first: Admin;
  let second: Admin;
  const audit = async () => (await first.get<AuditEntryBody[]>('/api/admin/audit')).body;
  const threshold = async () => (await server.client().get<SettingsBody>('/api/settings')).body.adjustmentApprovalThreshold;

  beforeAll(async () => {
    server = await startTestServer();
    first = await server.signUp({ roles: ['admin'], firstName: 'Asha', lastName: 'Rao' });
    second = await server.signUp({ roles: ['admin'], firstName: 'Vikram', lastName: 'Shah' });
  });
  afterAll(() => server.close());

  it('a control change is a pending request (202); plain ones in the same body change at once; a different admin approves', async () => {
    const put = await first.put<{ settings: SettingsBody; request: SettingsChangeRequestBody }>('/api/admin/settings', {
      adjustmentApprovalThreshold: '5000',
      sessionIdleDays: 3,
    });
    expect(put.status).toBe(202);
    expect(put.body.settings).toMatchObject({ adjustmentApprovalThreshold: '1000.00', sessionIdleDays: 3 });
    expect(put.body.request).toEqual({
      id: expect.any(String),
      status: 'pending',
      changes: { adjustmentApprovalThreshold: '5000.00' },
      current: { adjustmentApprovalThreshold: '1000.00' },
      requestedBy: { id: first.userId, name: 'Asha Rao' },
      requestedAt: expect.any(String),
      decidedBy: null,
      decidedAt: null,
    });
    const id = put.body.request.id;
    expect(await threshold()).toBe('1000.00');
    expect((await second.get<SettingsChangeRequestBody[]>('/api/admin/settings/requests')).body.map((r) => r.id)).toEqual([id]);

    // The requester cannot approve his own request.
    const own = await first.post(`/api/admin/settings/requests/${id}/approve`);
    expect(own.status).toBe(403);
    expect(own.body.error).toMatchObject({ code: 'forbidden', key: 'controls.ownSettingsRequest' });
    expect(await threshold()).toBe('1000.00');

    const approved = await second.post<{ request: SettingsChangeRequestBody; settings: SettingsBody }>(`/api/admin/settings/requests/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.request).toMatchObject({ status: 'approved', decidedBy: { id: second.userId, name: 'Vikram Shah' } });
    expect(approved.body.settings.adjustmentApprovalThreshold).toBe('5000.00');
    expect(await threshold()).toBe('5000.00');
    expect((await second.get('/api/admin/settings/requests')).body).toEqual([]);
    expect((await second.get<SettingsChangeRequestBody[]>('/api/admin/settings/requests?status=approved')).body.map((r) => r.id)).toEqual([id]);

    // Decided: a second approval or a rejection is a conflict.
    expect((await second.post(`/api/admin/settings/requests/${id}/approve`)).status).toBe(409);
    expect((await first.post(`/api/admin/settings/requests/${id}/reject`)).status).toBe(409);

    const rows = await audit();
    const entry = (action: string) => rows.find((r) => r.action === action && r.reference === id);
    expect(entry('settings_change_requested')?.actor.id).toBe(first.userId);
    expect(entry('settings_change_approved')?.actor.id).toBe(second.userId);
    expect(rows.find((r) => r.action === 'settings_updated')?.actor.id).toBe(first.userId);
  });

  it('keeps 200 when nothing controlled changes, also for a control value equal to the one in force', async () => {
    const same = await first.put<SettingsBody>('/api/admin/settings', { adjustmentApprovalThreshold: '5000.00', latePayoutDays: 4 });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ adjustmentApprovalThreshold: '5000.00', latePayoutDays: 4 });
  });

  it('refuses an approval once the values in force moved since the request (409); rejection and cancellation change nothing', async () => {
    const older = await first.put('/api/admin/settings', { maxTaskReward: '100' });
    const newer = await first.put('/api/admin/settings', { maxTaskReward: '200' });
    expect([older.status, newer.status]).toEqual([202, 202]);
    expect((await second.post(`/api/admin/settings/requests/${newer.body.request.id}/approve`)).status).toBe(200);
    const stale = await second.post(`/api/admin/settings/requests/${older.body.request.id}/approve`);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'conflict', key: 'controls.settingsRequestStale' });
    expect((await server.client().get<SettingsBody>('/api/settings')).body.maxTaskReward).toBe('200.00');

    // Another admin rejects one; its requester cancels another; both leave the values as they were.
    const rejected = await first.put('/api/admin/settings', { autoApproveAfterHours: 0 });
    const cancelled = await first.put('/api/admin/settings', { payoutBatchApprovalThreshold: '1' });
    const byOther = await second.post<{ request: SettingsChangeRequestBody }>(`/api/admin/settings/requests/${rejected.body.request.id}/reject`);
    expect(byOther.body.request.status).toBe('rejected');
    const byRequester = await first.post<{ request: SettingsChangeRequestBody }>(`/api/admin/settings/requests/${cancelled.body.request.id}/reject`);
    expect(byRequester.body.request.status).toBe('cancelled');
    expect((await server.client().get<SettingsBody>('/api/settings')).body).toMatchObject({ autoApproveAfterHours: 72, payoutBatchApprovalThreshold: '50000.00' });
    const actions = (await audit()).map((r) => [r.action, r.reference]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['settings_change_rejected', rejected.body.request.id],
        ['settings_change_cancelled', cancelled.body.request.id],
      ]),
    );
    expect((await first.get('/api/admin/settings/requests?status=all')).body).toHaveLength(5);
  });

  it('answers 404 for an unknown request and 400 for a bad status; only admins reach the requests', async () => {
    expect((await second.post('/api/admin/settings/requests/00000000-0000-4000-8000-000000000000/approve')).status).toBe(404);
    expect((await second.post('/api/admin/settings/requests/nope/reject')).status).toBe(404);
    expect((await second.get('/api/admin/settings/requests?status=done')).status).toBe(400);
    const finance = await server.signUp({ roles: ['finance'] });
    expect((await finance.get('/api/admin/settings/requests')).status).toBe(403);
  });

  it('the canned rejection reasons are a plain setting in both languages, defaulting to the fixed ones', async () => {
    expect((await server.client().get<SettingsBody>('/api/settings')).body.cannedReasons).toEqual(DEFAULT_CANNED_REASONS);
    const reasons = [{ en: ' Wrong app ', hi: 'गलत ऐप' }];
    const set = await first.put<SettingsBody>('/api/admin/settings', { cannedReasons: reasons });
    expect(set.status).toBe(200);
    expect(set.body.cannedReasons).toEqual([{ en: 'Wrong app', hi: 'गलत ऐप' }]);
    const tooMany = await first.put('/api/admin/settings', { cannedReasons: Array.from({ length: 11 }, () => reasons[0]) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.fields).toEqual({ cannedReasons: 'Give from 1 to 10 reasons' });
    const noHindi = await first.put('/api/admin/settings', { cannedReasons: [{ en: 'Wrong app', hi: ' ' }] });
    expect(noHindi.status).toBe(400);
    expect((await server.client().get<SettingsBody>('/api/settings')).body.cannedReasons).toEqual([{ en: 'Wrong app', hi: 'गलत ऐप' }]);
  });

  it('tax rules are a control setting: percent and rupee strings, checked, and in force once a second admin approves', async () => {
    const defaults = DEFAULT_TAX_RULES.map(taxRuleBody);
    expect((await server.client().get<SettingsBody>('/api/settings')).body.taxRules).toEqual(defaults);
    expect(defaults[0]).toMatchObject({ rateWithPan: '1.00', rateWithoutPan: '20.00', perPaymentThreshold: '30000.00', perYearThreshold: '100000.00', appliesTo: ['task_reward'] });
    const rule = { code: '393-194C', label: 'Contractors', rateWithPan: '2.5', rateWithoutPan: '20', perPaymentThreshold: '30000', perYearThreshold: '100000.00', appliesTo: ['task_reward', 'bonus'] };
    const put = await first.put<{ request: SettingsChangeRequestBody }>('/api/admin/settings', { taxRules: [rule] });
    expect(put.status).toBe(202);
    const asked = { ...rule, rateWithPan: '2.50', rateWithoutPan: '20.00', perPaymentThreshold: '30000.00' };
    expect(put.body.request).toMatchObject({ changes: { taxRules: [asked] }, current: { taxRules: defaults } });
    expect((await server.client().get<SettingsBody>('/api/settings')).body.taxRules).toEqual(defaults);
    const updatesBefore = (await audit()).filter((e) => e.action === 'settings_updated').length;
    const approved = await second.post<{ settings: SettingsBody }>(`/api/admin/settings/requests/${put.body.request.id}/approve`);
    expect(approved.body.settings.taxRules).toEqual([asked]);
    // The approval is the audit entry; the values it put in force are no separate "settings updated".
    const after = await audit();
    expect(after.filter((e) => e.action === 'settings_updated')).toHaveLength(updatesBefore);
    expect(after.find((e) => e.reference === put.body.request.id && e.action === 'settings_change_approved')).toBeDefined();

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ ...rule, rateWithPan: '100.01' }, 'tax.rate'],
      [{ ...rule, rateWithPan: '1.005' }, 'tax.rate'],
      [{ ...rule, perYearThreshold: '-1' }, 'tax.threshold'],
      [{ ...rule, appliesTo: [] }, 'tax.appliesTo'],
      [{ ...rule, appliesTo: ['salary'] }, 'tax.appliesTo'],
      [{ ...rule, code: '' }, 'tax.code'],
    ];
    for (const [bad, key] of refusals) {
      const refused = await first.put('/api/admin/settings', { taxRules: [bad] });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(refused.body.error), JSON.stringify(bad)).toContain(key);
    }
    const twice = await first.put('/api/admin/settings', { taxRules: [rule, { ...rule, code: '194H', appliesTo: ['bonus'] }] });
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.body.error)).toContain('tax.overlap');
  });

  it('the test helper requests and approves as two admins', async () => {
    expect((await server.applySettings({ adjustmentApprovalThreshold: '1000', uploadsPerDay: 40 })).adjustmentApprovalThreshold).toBe('1000.00');
    expect(await threshold()).toBe('1000.00');
  });
});
