import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadIfscData, lookupIfsc } from './ifsc.ts';

// The package's own validator, to check ours agrees with it.
const ifsc = createRequire(import.meta.url)('ifsc') as { validate: (code: string) => boolean };

describe('IFSC offline', () => {
  it('knows real branches and names their bank', async () => {
    const data = await loadIfscData();
    expect(lookupIfsc('HDFC0001234', data)).toEqual({ valid: true, bankName: 'HDFC Bank' });
    expect(lookupIfsc(' sbin0000001 ', data)).toEqual({ valid: true, bankName: 'State Bank of India' });
  });

  it('refuses codes of the right shape that no bank uses, and wrong shapes', async () => {
    const data = await loadIfscData();
    for (const code of ['HDFC1001234', 'ZZZZ0001234', 'HDFC0', 'HDFC0ZZZZZZ', '']) expect(lookupIfsc(code, data).valid, code).toBe(false);
  });

  it('agrees with the package’s validate', async () => {
    const data = await loadIfscData();
    for (const code of ['HDFC0001234', 'HDFC1001234', 'ICIC0000001', 'UTIB0000009', 'KKBK0000958', 'ABCD0123456', 'SBIN0000001']) {
      expect(lookupIfsc(code, data).valid, code).toBe(ifsc.validate(code));
    }
  });
});
