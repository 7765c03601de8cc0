import { describe, expect, it } from 'vitest';
import { formatRupees } from './format.ts';

describe('formatRupees', () => {
  it('shows wire amounts in rupees with Indian digit grouping', () => {
    expect(formatRupees('0.00')).toBe('₹0.00');
    expect(formatRupees('125.00')).toBe('₹125.00');
    expect(formatRupees('125000.5')).toBe('₹1,25,000.50');
    expect(formatRupees(15)).toBe('₹15.00');
    expect(formatRupees('-20.00')).toBe('-₹20.00');
  });

  it('shows an unreadable amount as it came', () => {
    expect(formatRupees('abc')).toBe('₹abc');
  });
});
