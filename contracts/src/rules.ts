import { type Paise, rupees } from './money.ts';

/**
 * The spec's numbers (section 9) that are not the limit of one form field: each lives here once, and
 * web, API and domain import it. Field limits live beside their schema (PROOF_DESCRIPTION_MAX_LENGTH,
 * REJECT_REASON_MAX_LENGTH in tasks.ts; MIN_WITHDRAWAL_PAISE in withdrawals.ts).
 */

/** The largest proof image, in bytes (5 MB). */
export const MAX_IMAGE_BYTES = 5_242_880;
export const IMAGE_TOO_LARGE = `File size must be less than ${MAX_IMAGE_BYTES / 1024 / 1024}MB`;
/** Paid once when the user's KYC is verified. */
export const KYC_BONUS_PAISE: Paise = rupees(200);
/** How long a signed-in session lasts. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
