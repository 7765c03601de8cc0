import { describe, it } from 'vitest';
import { kycProjection } from '../kyc/projection.ts';
import { pansOf } from '../kyc/queries.ts';
import { projectionSpec } from '../testing.ts';
import { usersProjection } from './projection.ts';
import { accountHolders } from './queries.ts';

const at = '2026-11-21T10:00:00.000Z';
const sha = (c: string) => c.repeat(64);
const registered = (userId: string, mobile: string, firstName: string) => ({
  stream: `user-${userId}`,
  event: { type: 'UserRegistered' as const, data: { userId, mobile, passwordHash: 'h', firstName, lastName: 'Rao', registeredAt: at } },
});
const pan = (userId: string, documentId: string, panNumber: string) => ({
  stream: `user-${userId}`,
  event: {
    type: 'KycDocumentSubmitted' as const,
    data: { documentId, documentType: 'pan' as const, frontImageUrl: '/f', backImageUrl: '/b', frontImageSha256: sha('a'), backImageSha256: sha('b'), panNumber, submittedAt: at },
  },
});
const spec = projectionSpec(usersProjection, kycProjection);

describe('who holds an account, as exports name them', () => {
  it('gives the name and a masked mobile; an erased person reads as erased, with no mobile or PAN', async () => {
    await spec
      .given([
        registered('u1', '9876543210', 'Asha'),
        registered('u2', '9123456780', 'Ravi'),
        pan('u1', 'd1', 'ABCDE1234F'),
        pan('u2', 'd2', 'ZZZZZ9999Z'),
        { stream: 'user-u2', event: { type: 'UserErased', data: { requestId: 'r1', erasedBy: 'admin', erasedAt: at } } },
      ])
      .thenQuery(
        async (db) => ({ holders: Object.fromEntries(await accountHolders(db, ['u1', 'u2', 'nobody'])), pans: Object.fromEntries(await pansOf(db, ['u1', 'u2'])) }),
        {
          holders: { u1: { id: 'u1', name: 'Asha Rao', mobile: '+91 98xxxxxx10' }, u2: { id: 'u2', name: 'erased', mobile: null } },
          pans: { u1: 'ABCDE1234F' },
        },
      );
  });
});
