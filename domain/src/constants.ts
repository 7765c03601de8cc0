import { KYC_BONUS_PAISE, MIN_WITHDRAWAL_PAISE } from '@kamai/contracts';

/** Business constants of the spec's section 9, in one place. Money in paise. */
export const MIN_WITHDRAWAL = MIN_WITHDRAWAL_PAISE; // defined in contracts: the web form checks the same number
export const KYC_BONUS = KYC_BONUS_PAISE; // defined in contracts: the web's claim banner shows the same number
export const PROOF_DESCRIPTION_MAX = 500;
export const MAX_IMAGE_BYTES = 5_242_880;
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
