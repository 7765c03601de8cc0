import { describe, expect, it } from 'vitest';
import { isTransient } from './runner.ts';
import { storageFault } from './db.ts';

const coded = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(code), { code, ...extra });

describe('storageFault: the disk, not the request', () => {
  it('names a full disk, a read-only one, and nothing else, through causes', () => {
    expect(storageFault(coded('SQLITE_FULL'))).toBe('full');
    expect(storageFault(coded('ENOSPC', { syscall: 'write' }))).toBe('full');
    expect(storageFault(coded('EDQUOT', { syscall: 'write' }))).toBe('full');
    expect(storageFault(Object.assign(new Error('disks full'), { name: 'XMinioStorageFull' }))).toBe('full');
    expect(storageFault(coded('SQLITE_READONLY'))).toBe('read_only');
    expect(storageFault(coded('SQLITE_IOERR_WRITE'))).toBe('read_only');
    expect(storageFault(coded('EROFS', { syscall: 'open' }))).toBe('read_only');
    expect(storageFault(coded('EPERM', { syscall: 'write' }))).toBe('read_only');
    expect(storageFault(new Error('wrapped', { cause: coded('SQLITE_FULL') }))).toBe('full');
    // An EPERM that is no file system call (a signal, a policy) is not the disk's.
    expect(storageFault(coded('EPERM'))).toBeNull();
    expect(storageFault(coded('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(storageFault(new Error('plain'))).toBeNull();
  });

  it('is transient for the read models: waited for, never parked', () => {
    expect(isTransient(new Error('projection failed', { cause: coded('SQLITE_FULL') }))).toBe(true);
    expect(isTransient(new Error('projection failed', { cause: new TypeError('a bug') }))).toBe(false);
  });
});
