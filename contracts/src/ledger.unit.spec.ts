import { describe, expect, it } from 'vitest';
import { financialYear } from './ledger.ts';

describe('the Indian financial year', () => {
  it('runs from 1 April to 31 March, whole days in India time', () => {
    expect(financialYear('2025-26')).toEqual({ label: '2025-26', from: '2025-03-31T18:30:00.000Z', to: '2026-03-31T18:29:59.999Z' });
    expect(financialYear('1999-00')).toEqual({ label: '1999-00', from: '1999-03-31T18:30:00.000Z', to: '2000-03-31T18:29:59.999Z' });
  });

  it('is null for anything else', () => {
    for (const label of ['2025', '2025-27', '25-26', '2025/26', '']) expect(financialYear(label)).toBeNull();
  });
});
