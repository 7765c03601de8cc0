import { beforeAll, describe, expect, it } from 'vitest';
import { initialized } from '../i18n/index.ts';
import { formatDate, formatDateTime, formatRelativeTime, formatRupees } from './format.ts';

// The texts arrive from their files once i18next has initialised.
beforeAll(() => initialized);

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

describe('formatRelativeTime (spec: wallet activity)', () => {
  const now = new Date('2025-06-15T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;

  it("says 'Just now' under one hour, and for a time a little ahead of the clock", () => {
    expect(formatRelativeTime(ago(0), now)).toBe('Just now');
    expect(formatRelativeTime(ago(59 * MINUTE), now)).toBe('Just now');
    expect(formatRelativeTime(ago(-2 * MINUTE), now)).toBe('Just now');
  });

  it("counts whole hours under a day: 'Nh ago'", () => {
    expect(formatRelativeTime(ago(HOUR), now)).toBe('1h ago');
    expect(formatRelativeTime(ago(5 * HOUR + 59 * MINUTE), now)).toBe('5h ago');
    expect(formatRelativeTime(ago(DAY - 1), now)).toBe('23h ago');
  });

  it("counts whole days under a week: 'Nd ago'", () => {
    expect(formatRelativeTime(ago(DAY), now)).toBe('1d ago');
    expect(formatRelativeTime(ago(6 * DAY + 23 * HOUR), now)).toBe('6d ago');
  });

  it('shows the date from a week on', () => {
    expect(formatRelativeTime(ago(7 * DAY), now)).toBe('8 Jun 2025');
    expect(formatRelativeTime('2024-01-02T06:00:00Z', now)).toBe('2 Jan 2024');
  });

  it('shows an unreadable time as it came', () => {
    expect(formatRelativeTime('yesterday', now)).toBe('yesterday');
  });
});

describe('formatDate and formatDateTime', () => {
  it('show a wire time as an Indian-style date', () => {
    expect(formatDate('2025-03-05T06:00:00Z')).toBe('5 Mar 2025');
    expect(formatDateTime('2025-03-05T06:00:00Z')).toMatch(/^5 Mar 2025, \d{1,2}:\d{2}\s?(am|pm)$/i);
  });
});

describe('in the reader’s language (en-IN / hi-IN)', () => {
  it('shows every amount in the one format of the contracts, with paise', async () => {
    const { rupeeText } = await import('@kamai/contracts');
    expect(formatRupees('100000.00')).toBe('₹1,00,000.00');
    expect(formatRupees('1250.50')).toBe('₹1,250.50');
    expect(formatRupees(100)).toBe('₹100.00');
    expect(formatRupees('-25')).toBe(rupeeText(-2500));
  });

  it('formats in hi-IN and says relative times in Hindi', async () => {
    const { i18n, initialized } = await import('../i18n/index.ts');
    await initialized;
    await i18n.changeLanguage('hi');
    try {
      expect(formatRupees('100000')).toBe('₹1,00,000.00');
      const now = new Date('2025-06-15T12:00:00Z');
      expect(formatRelativeTime('2025-06-15T11:30:00Z', now)).toBe('अभी-अभी');
      expect(formatRelativeTime('2025-06-15T09:00:00Z', now)).toBe('3 घंटे पहले');
      expect(formatRelativeTime('2025-06-13T09:00:00Z', now)).toBe('2 दिन पहले');
      expect(formatDate('2025-03-05T06:00:00Z')).toMatch(/^5 मार्च?\.? 2025$|^5 मार्च 2025$/);
      // The day period in Hindi too, never "am" or "pm".
      for (const hour of ['00', '06', '12', '18']) expect(formatDateTime(`2025-03-05T${hour}:30:00Z`)).toMatch(/\d:30 (पूर्वाह्न|अपराह्न)$/);
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
