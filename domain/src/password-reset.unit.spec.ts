import { describe, it } from 'vitest';
import { passwordResetDecider } from './password-reset.ts';
import { deciderSpec } from './testing/spec.ts';

const spec = deciderSpec(passwordResetDecider, passwordResetDecider.decide);
const issuedAt = '2026-11-25T10:00:00.000Z';
const expiresAt = '2026-11-25T10:10:00.000Z';
const issued = (codeHash: string) => ({ type: 'PasswordResetCodeIssued' as const, data: { userId: 'u1', codeHash, issuedAt, expiresAt } });
const use = (codeHash: string, now = '2026-11-25T10:05:00.000Z') => ({ type: 'UsePasswordResetCode' as const, userId: 'u1', codeHash, now });

describe('password reset codes', () => {
  it('issues a code as its hash, valid until its expiry', () => {
    spec.given([]).when({ type: 'IssuePasswordResetCode', userId: 'u1', codeHash: 'h1', expiresAt, now: issuedAt }).then([issued('h1')]);
  });

  it('accepts the latest code once, before it expires', () => {
    spec.given([issued('h1')]).when(use('h1')).then([{ type: 'PasswordResetCodeUsed', data: { userId: 'u1', usedAt: '2026-11-25T10:05:00.000Z' } }]);
  });

  it('refuses a wrong code, a used one, an expired one, one replaced by a newer one, and none at all', () => {
    spec.given([issued('h1')]).when(use('h2')).thenFails('invalid', /wrong or has expired/);
    spec.given([issued('h1'), { type: 'PasswordResetCodeUsed', data: { userId: 'u1', usedAt: issuedAt } }]).when(use('h1')).thenFails('invalid', /wrong or has expired/);
    spec.given([issued('h1')]).when(use('h1', expiresAt)).thenFails('invalid', /wrong or has expired/);
    spec.given([issued('h1'), issued('h2')]).when(use('h1')).thenFails('invalid', /wrong or has expired/);
    spec.given([]).when(use('h1')).thenFails('invalid', /wrong or has expired/);
  });
});
