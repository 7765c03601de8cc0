import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { MAX_MONEY_PAISE, RupeeAmount, formatPaise, parseRupees } from './money.ts';

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

describe('RupeeAmount', () => {
  const schema = RupeeAmount({ format: 'format', negative: 'negative', empty: 'empty' });
  const message = (input: unknown) => {
    const result = v.safeParse(schema, input);
    return result.success ? result.output : result.issues[0]?.message;
  };

  it('reads numbers and decimal strings into paise, up to what a money column holds', () => {
    expect(message('125.50')).toBe(12550);
    expect(message(99_999_999.99)).toBe(MAX_MONEY_PAISE);
    expect(message('99999999.99')).toBe(9_999_999_999);
  });

  it('names what is wrong with anything else', () => {
    expect(message('100000000.00')).toBe('format');
    expect(message('1.234')).toBe('format');
    expect(message(true)).toBe('format');
    expect(message('-5')).toBe('negative');
    expect(message(-5)).toBe('negative');
    expect(message('  ')).toBe('empty');
    expect(message(undefined)).toBe('empty');
  });
});
