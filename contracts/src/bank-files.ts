import * as v from 'valibot';
import { isDay } from './days.ts';
import { refusal } from './refusal.ts';
import { IFSC_PATTERN } from './withdrawals.ts';
import { BANK_FILE_TEMPLATES, type BankFileTemplate, DEFAULT_BANK_FILE_TEMPLATE } from './bank-file-templates.ts';

export * from './bank-file-templates.ts';

/** What one file of a batch carries: UPI transfers or bank transfers (IMPS, NEFT, RTGS, within the bank). */
export const BANK_FILE_KINDS = ['upi', 'bank'] as const;
export type BankFileKind = (typeof BANK_FILE_KINDS)[number];

/** A bank template sends UPI and account transfers as separate uploads; the generic file holds both. */
export const templateSplitsKinds = (template: BankFileTemplate): boolean => template !== 'generic';

export const BANK_FILE_MESSAGES = {
  template: `Choose the bank file layout: ${BANK_FILE_TEMPLATES.join(', ')}`,
  debitAccount: 'The debit account number is 9 to 18 digits (or empty)',
  payerName: 'The payer name is at most 40 letters, digits and spaces (or empty)',
  payerIfsc: 'Enter a valid IFSC code, e.g. HDFC0001234 (or empty)',
  kind: 'Choose which file: kind=upi or kind=bank',
  valueDate: 'Give the value date as YYYY-MM-DD, today (IST) or later',
  needsDebitAccount: 'Set the debit account number in Settings before downloading a bank template file',
} as const;

/** The bank file's settings (plain settings, PUT /api/admin/settings); empty strings are unset. */
export const BankFileSettingsInput = {
  bankFileTemplate: v.optional(v.picklist(BANK_FILE_TEMPLATES, refusal('bankFile.template'))),
  bankDebitAccount: v.optional(
    v.pipe(v.string(refusal('bankFile.debitAccount')), v.transform((s) => s.replace(/[\s-]/g, '')), v.regex(/^(\d{9,18})?$/, refusal('bankFile.debitAccount'))),
  ),
  bankPayerName: v.optional(v.pipe(v.string(refusal('bankFile.payerName')), v.trim(), v.regex(/^[A-Za-z0-9 ]{0,40}$/, refusal('bankFile.payerName')))),
  bankPayerIfsc: v.optional(
    v.pipe(v.string(refusal('bankFile.payerIfsc')), v.trim(), v.toUpperCase(), v.check((s) => s === '' || IFSC_PATTERN.test(s), refusal('bankFile.payerIfsc'))),
  ),
};

/** The bank file's settings as GET /api/settings answers them (the debit account masked for anyone but staff). */
export const BankFileSettingsBody = {
  bankFileTemplate: v.picklist(BANK_FILE_TEMPLATES),
  bankDebitAccount: v.string(),
  bankPayerName: v.string(),
  bankPayerIfsc: v.string(),
};
export interface BankFileSettings {
  bankFileTemplate: BankFileTemplate;
  bankDebitAccount: string;
  bankPayerName: string;
  bankPayerIfsc: string;
}
export const DEFAULT_BANK_FILE_SETTINGS: BankFileSettings = { bankFileTemplate: DEFAULT_BANK_FILE_TEMPLATE, bankDebitAccount: '', bankPayerName: '', bankPayerIfsc: '' };
export const BANK_FILE_SETTING_KEYS = Object.keys(DEFAULT_BANK_FILE_SETTINGS) as Array<keyof BankFileSettings>;

/** GET /api/admin/payout-batches/:id/file's query: which file (bank templates) and its value date (default today, IST). */
export const PayoutFileQuery = v.object({
  kind: v.optional(v.picklist(BANK_FILE_KINDS, refusal('bankFile.kind'))),
  valueDate: v.optional(v.pipe(v.string(refusal('bankFile.valueDate')), v.check(isDay, refusal('bankFile.valueDate')))),
});
export type PayoutFileQuery = v.InferOutput<typeof PayoutFileQuery>;
