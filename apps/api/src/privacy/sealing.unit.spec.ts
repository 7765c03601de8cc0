import { describe, expect, it } from 'vitest';
import { associatedData } from './sealing.ts';

describe('the associated data a sealed blob is bound to', () => {
  // Blobs already stored were sealed with JSON.stringify's bytes: any other byte and none opens.
  it('is, byte for byte, JSON.stringify of [eventId, type, subject, paths], for plain strings and for any other', () => {
    const cases: Array<[string, string, string, string[]]> = [
      ['6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f', 'UserRegistered', '0b7e6f5d-1c2b-4a3e-9f8d-7c6b5a4e3d2c', ['mobile', 'passwordHash', 'firstName', 'lastName']],
      ['e1', 'WalletDebited', 'u-1', ['params.destination', 'description', 'params.reason']],
      ['e2', 'NotificationSent', 'u_2', ['params.*', 'items[].name']],
      ['e3', 'ProfileUpdated', 'u3', []],
      ['e4', 'ProfileUpdated', 'u3', ['']],
      ['quote"d', 'Type', 'back\\slash', ['new\nline']],
      ['e5', 'Typé', 'सदस्य', ['naïve', 'tab\tbed', '\u0001']],
      ['e6', 'T', 'lone \ud800 surrogate', ['p']],
      ['', '', '', ['a', '']],
    ];
    for (const [eventId, type, subject, paths] of cases) {
      expect(associatedData(eventId, type, subject, paths).equals(Buffer.from(JSON.stringify([eventId, type, subject, paths])))).toBe(true);
    }
  });
});
