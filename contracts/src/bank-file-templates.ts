/**
 * The layouts the payout batch's bulk-transfer file can take (docs/payouts.md "The bank file"):
 * `generic` is Kamai's own CSV; the others follow a bank's corporate bulk-upload template. A module
 * of its own so the settings event can name them without importing the withdrawal rules.
 */
export const BANK_FILE_TEMPLATES = ['generic', 'hdfc', 'icici'] as const;
export type BankFileTemplate = (typeof BANK_FILE_TEMPLATES)[number];
export const DEFAULT_BANK_FILE_TEMPLATE: BankFileTemplate = 'generic';

