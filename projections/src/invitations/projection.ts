import type { Projection } from '../projection.ts';
import { userIdOf } from '../users/projection.ts';

/**
 * Invitations (docs/invitations.md): who invited whom, each bonus's outcome, and when the invited
 * person reached each bonus's milestone (first approval, first paid withdrawal), so the award sweep
 * reads only the invitations whose bonus is due. Ids and codes only.
 */
export const invitationsProjection: Projection = {
  name: 'invitations',
  version: 2,
  tables: {
    invitations: {
      columns: `invitee_id TEXT PRIMARY KEY, inviter_id TEXT NOT NULL, status TEXT NOT NULL, refusal TEXT,
        invitee_status TEXT NOT NULL, invitee_amount_paise INTEGER NOT NULL, invitee_refusal TEXT,
        inviter_status TEXT NOT NULL, inviter_amount_paise INTEGER NOT NULL, inviter_refusal TEXT,
        accepted_at TEXT NOT NULL, position INTEGER NOT NULL, approved_at TEXT, paid_at TEXT`,
      indexes: { status: 'status, accepted_at', inviter: 'inviter_id', invitee_due: 'invitee_status, approved_at', inviter_due: 'inviter_status, paid_at' },
    },
  },
  handles: ['InvitationAccepted', 'InvitationBonusAwarded', 'InvitationBonusRefused', 'ProofApproved', 'WithdrawalPaid'],
  apply(rows, event) {
    switch (event.type) {
      case 'InvitationAccepted': {
        const d = event.data;
        rows.insert('invitations', {
          invitee_id: d.inviteeId,
          inviter_id: d.inviterId,
          status: 'pending',
          refusal: null,
          invitee_status: 'pending',
          invitee_amount_paise: 0,
          invitee_refusal: null,
          inviter_status: 'pending',
          inviter_amount_paise: 0,
          inviter_refusal: null,
          accepted_at: d.acceptedAt,
          position: event.position,
          approved_at: null,
          paid_at: null,
        });
        return;
      }
      case 'InvitationBonusAwarded': {
        const d = event.data;
        const row = rows.get('invitations', { invitee_id: d.inviteeId }, ['status', 'invitee_status', 'inviter_status']);
        if (!row) return;
        const other = d.beneficiary === 'invitee' ? row.inviter_status : row.invitee_status;
        const status = row.status === 'refused' ? 'refused' : other === 'paid' ? 'paid' : 'pending';
        rows.update(
          'invitations',
          { invitee_id: d.inviteeId },
          { set: d.beneficiary === 'invitee' ? { invitee_status: 'paid', invitee_amount_paise: d.amountPaise, status } : { inviter_status: 'paid', inviter_amount_paise: d.amountPaise, status } },
        );
        return;
      }
      case 'InvitationBonusRefused': {
        const d = event.data;
        const row = rows.get('invitations', { invitee_id: d.inviteeId }, ['refusal']);
        if (!row) return;
        const refusal = row.refusal ?? d.reason;
        rows.update(
          'invitations',
          { invitee_id: d.inviteeId },
          { set: d.beneficiary === 'invitee' ? { invitee_status: 'refused', invitee_refusal: d.reason, status: 'refused', refusal } : { inviter_status: 'refused', inviter_refusal: d.reason, status: 'refused', refusal } },
        );
        return;
      }
      // The milestones, first of each only (an invitation is accepted right after registering, before either).
      case 'ProofApproved':
      case 'WithdrawalPaid': {
        const approved = event.type === 'ProofApproved';
        const key = { invitee_id: userIdOf(event.streamId) };
        const row = rows.get('invitations', key, ['approved_at', 'paid_at']);
        if (!row || (approved ? row.approved_at : row.paid_at) !== null) return;
        rows.update('invitations', key, { set: approved ? { approved_at: event.data.approvedAt } : { paid_at: event.data.paidAt } });
        return;
      }
    }
  },
};
