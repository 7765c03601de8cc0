import type { WithdrawalStatus } from '@kamai/contracts';

/** withdrawal_requests: one row per withdrawal request, with what finance needs to pay it. */
export interface WithdrawalRequestsTable {
  id: string;
  user_id: string;
  amount_paise: number;
  status: WithdrawalStatus;
  destination_kind: 'bank' | 'upi';
  /** The full destination as JSON (finance pays it); user-facing answers mask it. */
  destination: string;
  requested_at: string;
  processed_at: string | null;
  /** The staff member who paid or rejected it. */
  processed_by: string | null;
  /** Transfer reference of a paid request. */
  reference: string | null;
  /** Why a rejected request was refused. */
  reason: string | null;
  /** Position of the request event: the stable order of the queue and the history. */
  position: number;
  /** The payout batch it was sent in. */
  batch_id: string | null;
  /** When it was put in that batch (late payouts are counted from here). */
  processing_at: string | null;
  /** Tax withheld from it, in paise (0: none); the bank is paid amount_paise − tax_paise. */
  tax_paise: number;
  /** The codes of the rules that withheld it, joined by " + "; null when none. */
  tax_code: string | null;
}

/** app_settings: a single row (id 'app') once an admin has changed a setting; defaults until then. */
export interface AppSettingsTable {
  id: string;
  support_email: string | null;
  homepage_url: string | null;
  /** JSON of the limits an admin has changed; null while every default applies. */
  limits: string | null;
  /** JSON of the canned rejection reasons an admin set; null while the defaults apply. */
  canned_reasons: string | null;
  /** JSON of the tax rules in force (TaxRule[]); null while the defaults apply. */
  tax_rules: string | null;
  /** The tax deductor's TAN, name and address (docs/tax.md); null until set. */
  tax_deductor_tan: string | null;
  tax_deductor_name: string | null;
  tax_deductor_address: string | null;
  /** JSON of the bank file's settings an admin changed (Partial<BankFileSettings>); null while the defaults apply. */
  bank_file: string | null;
  updated_by: string;
  updated_at: string;
}
