import { describe, expect, it } from 'vitest';
import { financeSearch } from '../features/finance/financeSearch.ts';
import { auditSearch } from '../features/audit/auditSearch.ts';
import { deletionSearch } from '../features/deletions/deletionSearch.ts';

describe('the staff screens read their tab and filters from the address', () => {
  it('keeps valid values, as the router parsed them', () => {
    expect(financeSearch({ tab: 'history', status: 'rejected', from: '2026-11-01', to: '2026-11-28', late: true })).toEqual({
      tab: 'history',
      status: 'rejected',
      from: '2026-11-01',
      to: '2026-11-28',
      late: true,
    });
    expect(auditSearch({ actor: '0190c3a2-7d4e-7a1b-9c2d-3e4f5a6b7c8d', action: 'role_granted' })).toEqual({
      actor: '0190c3a2-7d4e-7a1b-9c2d-3e4f5a6b7c8d',
      action: 'role_granted',
    });
    expect(deletionSearch({ status: 'erased' })).toEqual({ status: 'erased' });
  });

  it('drops what is not valid, so a stale or mistyped link opens the defaults', () => {
    expect(financeSearch({ tab: 'payouts', status: 'lost', from: '1 Nov', to: 20261128, late: 'no' })).toEqual({});
    expect(auditSearch({ actor: '<script>', action: 'Role Granted', from: '2026-13', to: ['2026-11-01'] })).toEqual({});
    expect(deletionSearch({ status: 42 })).toEqual({});
  });
});
