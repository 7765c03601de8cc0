/** invitations: one row per person invited (docs/invitations.md), as finance lists them and the award sweep finds them. */
export interface InvitationsTable {
  invitee_id: string;
  inviter_id: string;
  /** paid (both bonuses), refused (either), pending. */
  status: string;
  /** The first refusal's reason code, or null. */
  refusal: string | null;
  invitee_status: string;
  invitee_amount_paise: number;
  invitee_refusal: string | null;
  inviter_status: string;
  inviter_amount_paise: number;
  inviter_refusal: string | null;
  accepted_at: string;
  position: number;
  /** When the invited person's first task was approved (the invitee's bonus is due), or null. */
  approved_at: string | null;
  /** When the invited person's first withdrawal was paid (the inviter's bonus is due), or null. */
  paid_at: string | null;
}
