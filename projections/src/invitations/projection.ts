import type { Projection } from '../projection.ts';

/** Invitations (docs/invitations.md): who invited whom, and each bonus's outcome. Ids and codes only. */
export const invitationsProjection: Projection = {
  name: 'invitations',
  version: 1,
  tables: {
    invitations: {
      columns: `invitee_id TEXT PRIMARY KEY, inviter_id TEXT NOT NULL, status TEXT NOT NULL, refusal TEXT,
        invitee_status TEXT NOT NULL, invitee_amount_paise INTEGER NOT NULL, invitee_refusal TEXT,
        inviter_status TEXT NOT NULL, inviter_amount_paise INTEGER NOT NULL, inviter_refusal TEXT,
        accepted_at TEXT NOT NULL, position INTEGER NOT NULL`,
      indexes: { status: 'status, accepted_at', inviter: 'inviter_id' },
    },
  },
  handles: ['InvitationAccepted', 'InvitationBonusAwarded', 'InvitationBonusRefused'],
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
    }
  },
};
