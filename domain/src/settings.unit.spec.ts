import { describe, it } from 'vitest';
import { deciderSpec } from './testing/spec.ts';
import { decideUpdateSettings, settingsEvolver } from './settings.ts';

const now = '2026-11-21T10:00:00.000Z';
const spec = deciderSpec(settingsEvolver, decideUpdateSettings);

describe('app settings', () => {
  it('records only the values that differ from those in force', () => {
    spec
      .given([])
      .when({ type: 'UpdateSettings', data: { supportEmail: 'help@kamai.in', homepageUrl: 'https://kamai.in', by: 'admin-1' }, now })
      .then([{ type: 'SettingsUpdated', data: { supportEmail: 'help@kamai.in', updatedBy: 'admin-1', updatedAt: now } }]);
  });
  it('records nothing when nothing changes', () => {
    const set = { type: 'SettingsUpdated' as const, data: { supportEmail: 'help@kamai.in', updatedBy: 'admin-1', updatedAt: now } };
    spec.given([set]).when({ type: 'UpdateSettings', data: { supportEmail: 'help@kamai.in', by: 'admin-1' }, now }).then([]);
    spec.given([]).when({ type: 'UpdateSettings', data: { by: 'admin-1' }, now }).then([]);
  });
  it('records a changed limit, and nothing for a limit set to the value in force', () => {
    spec
      .given([])
      .when({ type: 'UpdateSettings', data: { maxTaskRewardPaise: 20_000, adjustmentApprovalThresholdPaise: 100_000, by: 'admin-1' }, now })
      .then([{ type: 'SettingsUpdated', data: { maxTaskRewardPaise: 20_000, updatedBy: 'admin-1', updatedAt: now } }]);
    const set = { type: 'SettingsUpdated' as const, data: { sessionIdleDays: 3, updatedBy: 'admin-1', updatedAt: now } };
    spec.given([set]).when({ type: 'UpdateSettings', data: { sessionIdleDays: 3, by: 'admin-1' }, now }).then([]);
  });
});
