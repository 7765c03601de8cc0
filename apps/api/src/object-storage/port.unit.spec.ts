import { describe, expect, it } from 'vitest';
import { newUploadKey, objectURLFor, parseObjectKey, parseObjectURL } from './port.ts';

const UUID = '0b9e3f4c-5a1d-4c2e-9f3a-7d6b8e1c2a40';

describe('object keys', () => {
  it('accept exactly <uploads|kyc-uploads|proofs|kyc>/<userId>/<uuid> and name the owner, purpose and stage', () => {
    expect(parseObjectKey(`uploads/user-1/${UUID}`)).toEqual({ key: `uploads/user-1/${UUID}`, ownerId: 'user-1', purpose: 'proof', stage: 'upload' });
    expect(parseObjectKey(`kyc-uploads/user-1/${UUID}`)).toEqual({ key: `kyc-uploads/user-1/${UUID}`, ownerId: 'user-1', purpose: 'kyc', stage: 'upload' });
    expect(parseObjectKey(`kyc/user-1/${UUID}`)).toEqual({ key: `kyc/user-1/${UUID}`, ownerId: 'user-1', purpose: 'kyc', stage: 'final' });
    expect(parseObjectKey(`proofs/user-1/${UUID}`)).toEqual({ key: `proofs/user-1/${UUID}`, ownerId: 'user-1', purpose: 'proof', stage: 'final' });
  });

  it('refuse every path trick and every other shape', () => {
    for (const raw of [
      '',
      `/uploads/user-1/${UUID}`,
      `uploads/user-1/${UUID}/`,
      `uploads//${UUID}`,
      `uploads/../${UUID}`,
      `uploads/user-1/../${UUID}`,
      `uploads/%2e%2e/${UUID}`,
      `uploads/user-1%2F..%2F/${UUID}`,
      `uploads\\user-1\\${UUID}`,
      `uploads/user.1/${UUID}`,
      `uploads/user-1/${UUID.toUpperCase()}`,
      `uploads/user-1/${UUID}/extra`,
      `other/user-1/${UUID}`,
      `uploads/user-1/${UUID}\n`,
      `uploads/${'a'.repeat(65)}/${UUID}`,
    ]) {
      expect(parseObjectKey(raw), JSON.stringify(raw)).toBeNull();
    }
  });

  it('newUploadKey makes a fresh valid key per call and refuses an unusable user id', () => {
    const a = newUploadKey('user-1');
    expect(parseObjectKey(a)?.ownerId).toBe('user-1');
    expect(newUploadKey('user-1')).not.toBe(a);
    expect(() => newUploadKey('../etc')).toThrow();
    expect(() => newUploadKey('')).toThrow();
  });

  it('objectURL is /objects/<key>, and only that parses back', () => {
    const key = newUploadKey('user-1');
    expect(objectURLFor(key)).toBe(`/objects/${key}`);
    expect(parseObjectURL(objectURLFor(key))?.key).toBe(key);
    expect(parseObjectURL(key)).toBeNull();
    expect(parseObjectURL(`http://localhost/objects/${key}`)).toBeNull();
  });
});
