import { describe, expect, it } from 'vitest';
import { istDay, istDayOf } from './days.ts';
import { csvRecords, parseCsv } from './payouts.ts';

describe('CSV read back', () => {
  it('reads quoted cells, doubled quotes, line breaks in quotes, CRLF and a BOM, keeping line numbers', () => {
    const text = '\uFEFFa,b\r\n"x, y","say ""hi"""\r\n\r\n"two\nlines",3\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, y', 'say "hi"'] },
      { line: 4, cells: ['two\nlines', '3'] },
    ]);
  });

  it('finds columns by header name, in any order and case, and names the missing ones', () => {
    const parsed = csvRecords('Status,Reference\r\nSUCCESS, w1 \r\n', ['reference', 'status']);
    if ('missing' in parsed) throw new Error('columns reported missing');
    expect(parsed.records.map((r) => [r.line, r.get('reference'), r.get('status')])).toEqual([[2, 'w1', 'SUCCESS']]);
    expect(csvRecords('reference\r\nw1\r\n', ['reference', 'status'])).toEqual({ missing: ['status'] });
    expect(csvRecords('', ['reference'])).toEqual({ missing: ['reference'] });
  });
});

describe('India-time days', () => {
  it('spans a whole IST day, end inclusive', () => {
    expect(istDay('2026-11-30')).toEqual({ start: '2026-11-29T18:30:00.000Z', end: '2026-11-30T18:29:59.999Z' });
    expect(istDayOf('2026-11-30T18:29:59.999Z')).toBe('2026-11-30');
    expect(istDayOf('2026-11-30T18:30:00.000Z')).toBe('2026-12-01');
  });
});
