import { describe, expect, it } from 'vitest';
import { formatPaise, parseRupees } from './money.ts';

describe('money on the wire', () => {
  it('parses decimal strings and numbers with at most two places into paise', () => {
    expect(parseRupees('125')).toBe(12500);
    expect(parseRupees('125.5')).toBe(12550);
    expect(parseRupees('125.05')).toBe(12505);
    expect(parseRupees(100)).toBe(10000);
    expect(parseRupees(0.1)).toBe(10);
    expect(parseRupees(19.99)).toBe(1999);
    expect(parseRupees(' 7.00 ')).toBe(700);
  });
  it('refuses anything else', () => {
    for (const bad of ['-1', '1.234', '1e3', 'abc', '', '.5', '1.', null, undefined, {}, Number.NaN, Infinity, -5, 1e21, '1234567890']) {
      expect(parseRupees(bad)).toBeNull();
    }
  });
  it('formats paise as a two-place decimal string', () => {
    expect(formatPaise(0)).toBe('0.00');
    expect(formatPaise(5)).toBe('0.05');
    expect(formatPaise(12550)).toBe('125.50');
    expect(formatPaise(-500)).toBe('-5.00');
    expect(() => formatPaise(1.5)).toThrow(RangeError);
  });
});
