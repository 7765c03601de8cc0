import * as v from 'valibot';
import { refusal } from './refusal.ts';

/**
 * The privacy policy in force: a registration records the version the person agreed to, so a later
 * policy can tell who agreed to which. Change it whenever the policy's text changes in substance.
 */
export const PRIVACY_POLICY_VERSION = '2026-11-25';

export const PRIVACY_MESSAGES = {
  consentRequired: 'Please confirm you are 18 or older and agree to the Privacy Policy',
  passwordRequired: 'Enter your password',
  /** 403 `consent_required`: a person without a consent record tried to earn, send KYC or withdraw. */
  consentNeeded: 'Please agree to the Privacy Policy first: until then you cannot do tasks, send KYC documents or withdraw',
} as const;
export const CONSENT_MESSAGE = PRIVACY_MESSAGES.consentRequired;
/**
 * `consent: true` on registration: the person is 18 or older and agrees to the privacy policy.
 * Missing, false or anything else is the same 400, naming the field with this message.
 */
export const Consent = v.pipe(
  // Missing reads as false, so it is refused with the same message as false.
  v.optional(v.unknown(), false),
  v.check((value) => value === true, refusal('privacy.consentRequired')),
  v.transform((): true => true),
);

/** What an erased person's name reads as wherever a name is shown. */
export const DELETED_USER = 'Deleted user';

export const DELETION_STATUSES = ['pending', 'cancelled', 'erased'] as const;
export type DeletionStatus = (typeof DELETION_STATUSES)[number];

export const DELETION_TEXTS = {
  noneToCancel: 'There is no pending deletion request to cancel',
  notFound: 'No such deletion request',
  notPending: 'This deletion request is not pending',
  coolingOff: 'The cooling-off period of this request has not ended yet',
  balanceNotSettled: 'The user still has an available balance or a pending payout; settle it first',
  erased: 'This account has been deleted',
} as const;

/** `POST /api/profile/deletion-request`: the password, entered again. */
export const DeletionRequestCreate = v.object({
  password: v.pipe(v.string(refusal('privacy.passwordRequired')), v.minLength(1, refusal('privacy.passwordRequired')), v.maxLength(256)),
});
export type DeletionRequestCreate = v.InferOutput<typeof DeletionRequestCreate>;

/** The signed-in user's own request (GET, POST and DELETE /api/profile/deletion-request). */
export const DeletionRequestBody = v.object({
  id: v.string(),
  status: v.picklist(DELETION_STATUSES),
  requestedAt: v.string(),
  /** From then on an admin may erase the account. */
  coolingOffEndsAt: v.string(),
  cancelledAt: v.nullable(v.string()),
});
export type DeletionRequestBody = v.InferOutput<typeof DeletionRequestBody>;

/** `GET /api/profile/deletion-request`: the latest request, or null when there was none. */
export const MyDeletionBody = v.object({ request: v.nullable(DeletionRequestBody) });
export type MyDeletionBody = v.InferOutput<typeof MyDeletionBody>;

/** `GET /api/admin/deletions?status=`: a request as staff see it; the mobile masked, and gone once erased. */
export const AdminDeletionBody = v.object({
  id: v.string(),
  userId: v.string(),
  status: v.picklist(DELETION_STATUSES),
  requestedAt: v.string(),
  coolingOffEndsAt: v.string(),
  cancelledAt: v.nullable(v.string()),
  erasedAt: v.nullable(v.string()),
  /** The admin's user id. */
  erasedBy: v.nullable(v.string()),
  /** "+91 98xxxxxx21" while the user is not erased; null after. */
  mobile: v.nullable(v.string()),
  /** The user's available balance and pending payout ("125.00"): erasure waits until both are "0.00". */
  balance: v.string(),
  pendingPayout: v.string(),
});
export type AdminDeletionBody = v.InferOutput<typeof AdminDeletionBody>;

export const DeletionListQuery = v.object({ status: v.optional(v.picklist(DELETION_STATUSES), 'pending') });

/**
 * `POST /api/profile/consent`: a person registered before consent was asked agrees now, to the policy
 * in force (PRIVACY_POLICY_VERSION, recorded by the server: a client never names another version).
 */
export const ConsentRequest = v.object({ accepted: Consent });
export type ConsentRequest = v.InferOutput<typeof ConsentRequest>;
