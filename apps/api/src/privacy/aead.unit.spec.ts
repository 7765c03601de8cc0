import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gcmOpen, gcmSeal } from './aead.ts';

describe('AES-256-GCM sealing', () => {
  it('gives every seal its own nonce, across refills of the nonce pool, and never changes one handed out', () => {
    const key = randomBytes(32);
    const aad = Buffer.from('subject');
    const firstSeal = gcmSeal(key, 'text 0', aad);
    const first = Buffer.from(firstSeal.nonce);
    const sealed = [{ i: 0, ...firstSeal }, ...Array.from({ length: 999 }, (_, n) => ({ i: n + 1, ...gcmSeal(key, `text ${n + 1}`, aad) }))];
    expect(new Set(sealed.map(({ nonce }) => nonce.toString('hex'))).size).toBe(sealed.length);
    expect(sealed[0]!.nonce.equals(first)).toBe(true);
    for (const { i, nonce, body } of sealed) expect(gcmOpen(key, nonce, body, aad).toString()).toBe(`text ${i}`);
  });

  it('refuses to open with another key or other associated data', () => {
    const key = randomBytes(32);
    const { nonce, body } = gcmSeal(key, 'text', Buffer.from('a'));
    expect(() => gcmOpen(randomBytes(32), nonce, body, Buffer.from('a'))).toThrow();
    expect(() => gcmOpen(key, nonce, body, Buffer.from('b'))).toThrow();
  });
});
