import { describe, expect, it } from 'vitest';
import { KYC_BONUS_PAISE, type UserEvent } from '@kamai/contracts';
import { fold } from '../decider.ts';
import { deciderSpec } from '../testing/spec.ts';
import { type KycCommand, decideKyc, kycStatusOf } from './kyc.ts';
import { userEvolver, type UserState } from './state.ts';

const t0 = '2026-11-21T10:00:00.000Z';
const t1 = '2026-11-21T11:00:00.000Z';
const t2 = '2026-11-21T12:00:00.000Z';
const spec = deciderSpec<UserState, UserEvent, KycCommand>(userEvolver, decideKyc);
const sha = (c: string) => c.repeat(64);

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: t0 },
};
type DocType = 'pan' | 'voter_id';
const submit = (documentId: string, documentType: DocType = 'pan', front = '/objects/kyc/u1/f', back = '/objects/kyc/u1/b'): KycCommand => ({
  type: 'SubmitKycDocument',
  data: { documentId, documentType, front: { url: front, sha256: sha('a') }, back: { url: back, sha256: sha('b') } },
  now: t1,
});
const submitted = (documentId: string, documentType: DocType = 'pan'): UserEvent => ({
  type: 'KycDocumentSubmitted',
  data: {
    documentId,
    documentType,
    frontImageUrl: '/objects/kyc/u1/f',
    backImageUrl: '/objects/kyc/u1/b',
    frontImageSha256: sha('a'),
    backImageSha256: sha('b'),
    submittedAt: t1,
  },
});
const approve = (documentId: string, reviewerId = 'rev'): KycCommand => ({
  type: 'ApproveKycDocument',
  data: { documentId, reviewerId, notificationId: 'n1' },
  now: t2,
});
const reject = (documentId: string, reason = 'Blurry photo', reviewerId = 'rev'): KycCommand => ({
  type: 'RejectKycDocument',
  data: { documentId, reviewerId, reason, notificationId: 'n1' },
  now: t2,
});
const approved = (documentId: string, documentType: DocType = 'pan', kycVerified = false): UserEvent => ({
  type: 'KycDocumentApproved',
  data: { documentId, documentType, reviewedBy: 'rev', kycVerified, approvedAt: t2 },
});
const rejected = (documentId: string, documentType: DocType = 'pan'): UserEvent => ({
  type: 'KycDocumentRejected',
  data: { documentId, documentType, reviewedBy: 'rev', reason: 'Blurry photo', reasonCode: 'other', rejectedAt: t2 },
});
const claim: KycCommand = { type: 'ClaimKycBonus', data: { entryId: 'e1', notificationId: 'n1' }, now: t2 };
/** The API error code a refusal carries, or 'no error' when the decision went through. */
function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return 'no error';
}
const bothApproved = [registered, submitted('d1', 'pan'), submitted('d2', 'voter_id'), approved('d1', 'pan'), approved('d2', 'voter_id', true)];

describe('KYC document submission', () => {
  it('submits a document that was never uploaded', () => {
    spec.given([registered]).when(submit('d1')).then([submitted('d1')]);
  });

  it('submits again after a rejection, under a new document id', () => {
    spec.given([registered, submitted('d1'), rejected('d1')]).when(submit('d2')).then([submitted('d2')]);
  });

  it('refuses while the document is pending review or once approved (409 kyc_document_locked)', () => {
    spec.given([registered, submitted('d1')]).when(submit('d2')).thenFails('conflict', /under review/);
    spec.given([registered, submitted('d1'), approved('d1')]).when(submit('d2')).thenFails('conflict', /already approved/);
    expect(codeOf(() => decideKyc(submit('d2'), fold(userEvolver, [registered, submitted('d1')])))).toBe('kyc_document_locked');
  });

  it('does not lock the other document', () => {
    spec.given([registered, submitted('d1', 'pan')]).when(submit('d2', 'voter_id')).then([submitted('d2', 'voter_id')]);
  });

  it('refuses a missing front or back image (400)', () => {
    spec.given([registered]).when(submit('d1', 'pan', '')).thenFails('invalid', /front and the back/);
    spec.given([registered]).when(submit('d1', 'pan', '/objects/kyc/u1/f', '  ')).thenFails('invalid', /front and the back/);
  });
});

describe('KYC review', () => {
  it('approves a pending document and notifies the user', () => {
    spec.given([registered, submitted('d1')]).when(approve('d1')).then([
      approved('d1'),
      { type: 'NotificationSent', data: { notificationId: 'n1', key: 'kyc_pan_approved', params: {}, kind: 'success', sentAt: t2 } },
    ]);
  });

  it('marks KYC verified when the second document is approved', () => {
    const events = decideKyc(approve('d2'), fold(userEvolver, [registered, submitted('d1'), submitted('d2', 'voter_id'), approved('d1')]));
    expect(events[0]).toEqual(approved('d2', 'voter_id', true));
  });

  it('rejects with a trimmed reason and tells the user why', () => {
    spec.given([registered, submitted('d1', 'voter_id')]).when(reject('d1', '  Blurry photo ')).then([
      rejected('d1', 'voter_id'),
      {
        type: 'NotificationSent',
        data: { notificationId: 'n1', key: 'kyc_voter_id_rejected', params: { reason: 'Blurry photo' }, kind: 'warning', sentAt: t2 },
      },
    ]);
  });

  it('refuses a blank reason or one over 500 characters (400)', () => {
    spec.given([registered, submitted('d1')]).when(reject('d1', '   ')).thenFails('invalid', /reason/);
    spec.given([registered, submitted('d1')]).when(reject('d1', 'x'.repeat(501))).thenFails('invalid', /500/);
  });

  it('refuses a second decision on one submission (409)', () => {
    spec.given([registered, submitted('d1'), approved('d1')]).when(approve('d1')).thenFails('conflict', /already been reviewed/);
    spec.given([registered, submitted('d1'), rejected('d1')]).when(approve('d1')).thenFails('conflict', /already been reviewed/);
    spec.given([registered, submitted('d1'), approved('d1')]).when(reject('d1')).thenFails('conflict', /already been reviewed/);
  });

  it('refuses an unknown document (404)', () => {
    spec.given([registered]).when(approve('nope')).thenFails('not_found', /not found/);
  });

  it('forbids reviewing your own documents (403)', () => {
    spec.given([registered, submitted('d1')]).when(approve('d1', 'u1')).thenFails('forbidden', /your own documents/);
    spec.given([registered, submitted('d1')]).when(reject('d1', 'x', 'u1')).thenFails('forbidden', /your own documents/);
  });
});

describe('KYC bonus claim', () => {
  it('credits the spec bonus with a notification, in the same append as KycBonusClaimed', () => {
    expect(KYC_BONUS_PAISE).toBe(20000);
    spec.given(bothApproved).when(claim).then([
      { type: 'KycBonusClaimed', data: { entryId: 'e1', amountPaise: 20000, claimedAt: t2 } },
      { type: 'WalletCredited', data: { entryId: 'e1', amountPaise: 20000, kind: 'kyc_bonus', params: {}, reference: 'kyc', creditedAt: t2 } },
      { type: 'NotificationSent', data: { notificationId: 'n1', key: 'kyc_bonus', params: { amountPaise: 20000 }, kind: 'success', sentAt: t2 } },
    ]);
  });

  it('refuses unless both documents are approved (409 kyc_incomplete)', () => {
    expect(codeOf(() => decideKyc(claim, fold(userEvolver, [registered])))).toBe('kyc_incomplete');
    spec.given([registered]).when(claim).thenFails('conflict', /Please upload all required documents/);
    spec.given([registered, submitted('d1'), submitted('d2', 'voter_id'), approved('d1')]).when(claim).thenFails('conflict', /required documents/);
    spec.given([registered, submitted('d1'), submitted('d2', 'voter_id'), approved('d1'), rejected('d2', 'voter_id')])
      .when(claim)
      .thenFails('conflict', /required documents/);
  });

  it('refuses a second claim (409 kyc_bonus_already_claimed)', () => {
    const claimedOnce = [...bothApproved, ...decideKyc(claim, fold(userEvolver, bothApproved))];
    spec.given(claimedOnce).when(claim).thenFails('conflict', /already claimed/);
    expect(codeOf(() => decideKyc(claim, fold(userEvolver, claimedOnce)))).toBe('kyc_bonus_already_claimed');
  });

  it('moves kycStatus pending -> verified -> bonus_claimed', () => {
    expect(kycStatusOf(fold(userEvolver, [registered, submitted('d1'), approved('d1')]).kyc)).toBe('pending');
    expect(kycStatusOf(fold(userEvolver, bothApproved).kyc)).toBe('verified');
    const claimedOnce = [...bothApproved, ...decideKyc(claim, fold(userEvolver, bothApproved))];
    const state = fold(userEvolver, claimedOnce);
    expect(kycStatusOf(state.kyc)).toBe('bonus_claimed');
    expect(state.wallet.balance).toBe(20000);
    expect(state.wallet.totalEarned).toBe(20000);
  });
});

describe('the PAN number on a PAN card', () => {
  const withPan = (documentType: DocType, panNumber: string): KycCommand => {
    const command = submit('d9', documentType);
    return { ...command, data: { ...command.data, panNumber } } as KycCommand;
  };

  it('is kept as data with the submission when it reads AAAAA9999A', () => {
    const expected = submitted('d9');
    spec.given([registered]).when(withPan('pan', 'ABCDE1234F')).then([{ ...expected, data: { ...expected.data, panNumber: 'ABCDE1234F' } } as UserEvent]);
  });

  it('is refused in any other form, and on any other document', () => {
    for (const pan of ['ABCD1234F', 'abcde1234f', 'ABCDE12345', '']) spec.given([registered]).when(withPan('pan', pan)).thenFails('invalid', /PAN/);
    spec.given([registered]).when(withPan('voter_id', 'ABCDE1234F')).thenFails('invalid', /Only a PAN card/);
  });
});
