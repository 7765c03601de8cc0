import { DEFAULT_CANNED_REASONS, DEFAULT_TAX_RULES, type SettingsEvent, type TaxRule } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from './testing/spec.ts';
import { decideApproveSettingsChange, decideRejectSettingsChange, decideUpdateSettings, settingsDecider, settingsEvolver } from './settings.ts';

const now = '2026-11-21T10:00:00.000Z';
const later = '2026-11-21T11:00:00.000Z';
const spec = deciderSpec(settingsEvolver, decideUpdateSettings);
const update = (data: Record<string, unknown>, by = 'admin-1') =>
  ({ type: 'UpdateSettings', data: { ...data, by, requestId: 'req-1' }, now }) as const;

describe('app settings', () => {
  it('records only the values that differ from those in force', () => {
    spec
      .given([])
      .when(update({ supportEmail: 'help@kamai.in', homepageUrl: 'https://kamai.in' }))
      .then([{ type: 'SettingsUpdated', data: { supportEmail: 'help@kamai.in', updatedBy: 'admin-1', updatedAt: now } }]);
  });
  it('records nothing when nothing changes', () => {
    const set = { type: 'SettingsUpdated' as const, data: { supportEmail: 'help@kamai.in', updatedBy: 'admin-1', updatedAt: now } };
    spec.given([set]).when(update({ supportEmail: 'help@kamai.in' })).then([]);
    spec.given([]).when(update({})).then([]);
    // A control setting set to the value in force asks nobody for anything.
    spec.given([]).when(update({ adjustmentApprovalThresholdPaise: 100_000 })).then([]);
  });
  it('records a changed plain limit at once, and nothing for a limit set to the value in force', () => {
    spec
      .given([])
      .when(update({ sessionIdleDays: 3, uploadsPerDay: 30 }))
      .then([{ type: 'SettingsUpdated', data: { sessionIdleDays: 3, updatedBy: 'admin-1', updatedAt: now } }]);
    const set = { type: 'SettingsUpdated' as const, data: { sessionIdleDays: 3, updatedBy: 'admin-1', updatedAt: now } };
    spec.given([set]).when(update({ sessionIdleDays: 3 })).then([]);
  });
  it('records the bank file settings that changed at once (plain settings), nothing for the default template', () => {
    spec
      .given([])
      .when(update({ bankFileTemplate: 'hdfc', bankDebitAccount: '000405001234', bankPayerName: '' }))
      .then([{ type: 'SettingsUpdated', data: { bankFileTemplate: 'hdfc', bankDebitAccount: '000405001234', updatedBy: 'admin-1', updatedAt: now } }]);
    spec.given([]).when(update({ bankFileTemplate: 'generic' })).then([]);
    const set = { type: 'SettingsUpdated' as const, data: { bankFileTemplate: 'icici' as const, updatedBy: 'admin-1', updatedAt: now } };
    spec.given([set]).when(update({ bankFileTemplate: 'generic' })).then([{ type: 'SettingsUpdated', data: { bankFileTemplate: 'generic', updatedBy: 'admin-1', updatedAt: now } }]);
  });
  it('records the canned reasons as a whole list, only when they differ', () => {
    const reasons = [{ en: 'Wrong screenshot', hi: 'गलत स्क्रीनशॉट' }];
    spec
      .given([])
      .when(update({ cannedReasons: reasons }))
      .then([{ type: 'SettingsUpdated', data: { cannedReasons: reasons, updatedBy: 'admin-1', updatedAt: now } }]);
    spec.given([]).when(update({ cannedReasons: DEFAULT_CANNED_REASONS })).then([]);
  });
});

describe('control settings need a second admin', () => {
  const requested: SettingsEvent = {
    type: 'SettingsChangeRequested',
    data: { requestId: 'req-1', changes: { adjustmentApprovalThresholdPaise: 500_000 }, basis: { adjustmentApprovalThresholdPaise: 100_000 }, requestedBy: 'admin-1', requestedAt: now },
  };
  const approve = (by: string) => ({ type: 'ApproveSettingsChange' as const, data: { requestId: 'req-1', by }, now: later });
  const reject = (by: string) => ({ type: 'RejectSettingsChange' as const, data: { requestId: 'req-1', by }, now: later });
  const approvals = deciderSpec(settingsEvolver, decideApproveSettingsChange);
  const rejections = deciderSpec(settingsEvolver, decideRejectSettingsChange);

  it('a change to a control setting is a request; plain ones in the same command change at once', () => {
    // The reward cap is already ₹500 (50,000 paise): only the threshold is asked for.
    spec
      .given([])
      .when(update({ adjustmentApprovalThresholdPaise: 500_000, maxTaskRewardPaise: 50_000, sessionIdleDays: 3 }))
      .then([{ type: 'SettingsUpdated', data: { sessionIdleDays: 3, updatedBy: 'admin-1', updatedAt: now } }, requested]);
  });
  it('nothing is in force while the request waits', () => {
    const state = [requested].reduce(settingsEvolver.evolve, settingsEvolver.initialState());
    expect(state.limits.adjustmentApprovalThresholdPaise).toBe(100_000);
    expect(state.requests['req-1']?.status).toBe('pending');
  });
  it('a different admin approves it: the values come into force', () => {
    approvals
      .given([requested])
      .when(approve('admin-2'))
      .then([
        { type: 'SettingsChangeApproved', data: { requestId: 'req-1', approvedBy: 'admin-2', approvedAt: later } },
        { type: 'SettingsUpdated', data: { adjustmentApprovalThresholdPaise: 500_000, updatedBy: 'admin-2', updatedAt: later } },
      ]);
  });
  it('the requester may not approve his own request', () => {
    approvals.given([requested]).when(approve('admin-1')).thenFails('forbidden', /another admin must approve/);
  });
  it('an unknown request is not found; a decided one is a conflict', () => {
    approvals.given([]).when(approve('admin-2')).thenFails('not_found');
    rejections.given([]).when(reject('admin-2')).thenFails('not_found');
    const approved: SettingsEvent = { type: 'SettingsChangeApproved', data: { requestId: 'req-1', approvedBy: 'admin-2', approvedAt: later } };
    const rejected: SettingsEvent = { type: 'SettingsChangeRejected', data: { requestId: 'req-1', rejectedBy: 'admin-2', rejectedAt: later } };
    approvals.given([requested, approved]).when(approve('admin-3')).thenFails('conflict', /already approved/);
    approvals.given([requested, rejected]).when(approve('admin-3')).thenFails('conflict', /already approved/);
    rejections.given([requested, rejected]).when(reject('admin-3')).thenFails('conflict');
  });
  it('is refused once the values in force moved since it was asked', () => {
    const other: SettingsEvent = {
      type: 'SettingsUpdated',
      data: { adjustmentApprovalThresholdPaise: 200_000, updatedBy: 'admin-3', updatedAt: now },
    };
    approvals.given([requested, other]).when(approve('admin-2')).thenFails('conflict', /changed after this request/);
  });
  it('another admin rejects it, or the requester cancels it; nothing changes', () => {
    rejections
      .given([requested])
      .when(reject('admin-2'))
      .then([{ type: 'SettingsChangeRejected', data: { requestId: 'req-1', rejectedBy: 'admin-2', rejectedAt: later } }]);
    rejections
      .given([requested])
      .when(reject('admin-1'))
      .then([{ type: 'SettingsChangeRejected', data: { requestId: 'req-1', rejectedBy: 'admin-1', rejectedAt: later } }]);
  });
  it('the decider routes each command', () => {
    const state = [requested].reduce(settingsDecider.evolve, settingsDecider.initialState());
    expect(settingsDecider.decide(reject('admin-2'), state)).toHaveLength(1);
  });
});

describe('tax rules are a control setting', () => {
  const rule: TaxRule = { ...DEFAULT_TAX_RULES[0]!, rateWithPanBasisPoints: 200, appliesTo: ['task_reward', 'bonus'] };
  const approvals = deciderSpec(settingsEvolver, decideApproveSettingsChange);
  const requested: SettingsEvent = {
    type: 'SettingsChangeRequested',
    data: { requestId: 'req-1', changes: { taxRules: [rule] }, basis: { taxRules: [...DEFAULT_TAX_RULES] }, requestedBy: 'admin-1', requestedAt: now },
  };
  it('a changed list is a request against the rules in force; the same list asks nothing', () => {
    spec.given([]).when(update({ taxRules: [rule] })).then([requested]);
    spec.given([]).when(update({ taxRules: DEFAULT_TAX_RULES })).then([]);
  });
  it('a second admin puts it in force, unless the rules moved since it was asked', () => {
    approvals
      .given([requested])
      .when({ type: 'ApproveSettingsChange', data: { requestId: 'req-1', by: 'admin-2' }, now: later })
      .then([
        { type: 'SettingsChangeApproved', data: { requestId: 'req-1', approvedBy: 'admin-2', approvedAt: later } },
        { type: 'SettingsUpdated', data: { taxRules: [rule], updatedBy: 'admin-2', updatedAt: later } },
      ]);
    const moved: SettingsEvent = { type: 'SettingsUpdated', data: { taxRules: [], updatedBy: 'admin-3', updatedAt: now } };
    approvals.given([requested, moved]).when({ type: 'ApproveSettingsChange', data: { requestId: 'req-1', by: 'admin-2' }, now: later }).thenFails('conflict', /changed after this request/);
    const state = [requested, moved].reduce(settingsEvolver.evolve, settingsEvolver.initialState());
    expect(state.taxRules).toEqual([]);
  });
});
