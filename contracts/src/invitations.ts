import * as v from 'valibot';
import { refusal } from './refusal.ts';

/**
 * Invitations (docs/invitations.md): each person has an invite code; the person invited gets a bonus
 * after their first approved task, the inviter after the invited person's first paid withdrawal.
 * Amounts, the inviter's monthly cap and the programme's budget are control settings (DEFAULT_LIMITS).
 */

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const Paise = v.pipe(v.number(), v.integer(), v.minValue(0));

/** An invite code: 8 letters and digits without the look-alikes (0/O, 1/I/L), upper case. */
export const INVITE_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const INVITE_CODE_LENGTH = 8;
export const INVITE_CODE_PATTERN = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/;

/** Messages of the invitation rules (catalogue keys `invitation.*`). */
export const INVITATION_MESSAGES = {
  code: 'This invite code is not valid. Check it, or leave it empty.',
  status: 'Status must be paid, pending or refused',
  accepted: 'This person was already invited',
  notFound: 'Invitation not found',
  budgetSpent: 'The invitation programme has spent its budget',
  monthlyCap: 'This inviter has had the most bonuses allowed this month',
} as const;

/** Who a bonus is for. */
export const INVITATION_BENEFICIARIES = ['invitee', 'inviter'] as const;
export type InvitationBeneficiary = (typeof INVITATION_BENEFICIARIES)[number];

/**
 * Why a bonus was refused: the two share a browser (device cookie), a UPI ID or a bank account; the
 * invited person is suspended; the inviter's monthly cap or the programme's budget is reached.
 */
export const INVITATION_REFUSALS = ['shared_device', 'shared_upi', 'shared_bank', 'suspended', 'monthly_cap', 'budget_spent'] as const;
export type InvitationRefusal = (typeof INVITATION_REFUSALS)[number];
export const isInvitationRefusal = (code: string): code is InvitationRefusal => (INVITATION_REFUSALS as readonly string[]).includes(code);

export const INVITATION_STATUSES = ['paid', 'pending', 'refused'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** Invite code letters a person may type in lower case or with spaces. */
export const normaliseInviteCode = (input: string): string => input.replace(/[\s-]/g, '').toUpperCase();

/** `POST /api/auth/register`'s optional `inviteCode`. */
export const InviteCodeInput = v.pipe(
  v.string(refusal('invitation.code')),
  v.transform(normaliseInviteCode),
  v.regex(INVITE_CODE_PATTERN, refusal('invitation.code')),
);

/** `GET /api/profile/invite`. */
export const InviteBody = v.object({ code: v.string(), link: v.string() });
export type InviteBody = v.InferOutput<typeof InviteBody>;

/** `GET /api/admin/invitations?status=`. */
export const InvitationsQuery = v.object({
  status: v.optional(v.picklist(INVITATION_STATUSES, refusal('invitation.status'))),
});

/** One bonus of an invitation as finance sees it. */
const BonusBody = v.object({
  status: v.picklist(INVITATION_STATUSES),
  amount: v.nullable(v.string()),
  refusal: v.nullable(v.picklist(INVITATION_REFUSALS)),
});

/** One row of `GET /api/admin/invitations`: ids and masked numbers only, as other finance lists. */
export const InvitationBody = v.object({
  inviteeId: v.string(),
  inviterId: v.string(),
  inviteeMobile: v.nullable(v.string()),
  inviterMobile: v.nullable(v.string()),
  status: v.picklist(INVITATION_STATUSES),
  /** The first refusal's reason code, when refused. */
  refusal: v.nullable(v.picklist(INVITATION_REFUSALS)),
  invitee: BonusBody,
  inviter: BonusBody,
  acceptedAt: v.string(),
});
export type InvitationBody = v.InferOutput<typeof InvitationBody>;
export const InvitationsBody = v.array(InvitationBody);

/**
 * Events. `invite-code-<code>`: the code is held for one person. `invitation-<inviteeId>`: the
 * invitation and each bonus's outcome. `invitation-programme`: every bonus counted against the
 * budget and the inviter's monthly cap. Ids, codes and amounts only.
 */
export const invitationEvents = {
  InviteCodeIssued: v.object({ code: v.string(), userId: v.string(), issuedAt: IsoTime }),
  InvitationAccepted: v.object({
    inviteeId: v.string(),
    inviterId: v.string(),
    code: v.string(),
    /** The registering browser carried a device cookie issued to the inviter's number. */
    sharedDevice: v.boolean(),
    acceptedAt: IsoTime,
  }),
  InvitationBonusAwarded: v.object({
    inviteeId: v.string(),
    beneficiary: v.picklist(INVITATION_BENEFICIARIES),
    userId: v.string(),
    amountPaise: Paise,
    entryId: v.string(),
    awardedAt: IsoTime,
  }),
  InvitationBonusRefused: v.object({
    inviteeId: v.string(),
    beneficiary: v.picklist(INVITATION_BENEFICIARIES),
    reason: v.picklist(INVITATION_REFUSALS),
    refusedAt: IsoTime,
  }),
  InvitationBonusCounted: v.object({
    inviteeId: v.string(),
    beneficiary: v.picklist(INVITATION_BENEFICIARIES),
    inviterId: v.string(),
    amountPaise: Paise,
    countedAt: IsoTime,
  }),
};
