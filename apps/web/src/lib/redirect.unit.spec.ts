import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect.ts';

describe('safeRedirect', () => {
  it('keeps a path of the app, with its search and hash', () => {
    expect(safeRedirect('/tasks/rating')).toBe('/tasks/rating');
    expect(safeRedirect('/admin/finance?tab=ledger#top')).toBe('/admin/finance?tab=ledger#top');
    expect(safeRedirect('/')).toBe('/');
  });

  it('refuses anything that would leave the app or loop back to signing in', () => {
    for (const value of [
      undefined,
      42,
      '',
      'tasks',
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'javascript:alert(1)',
      '/login',
      '/login?redirect=%2Fwallet',
      '/register',
    ]) {
      expect(safeRedirect(value), String(value)).toBeUndefined();
    }
  });
});
