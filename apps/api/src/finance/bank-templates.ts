import { BANK_FILE_COLUMNS, type BankFileKind, type BankFileSettings, type BankFileTemplate, WithdrawalDestination } from '@kamai/contracts';
import * as v from 'valibot';
import { toCsv } from './csv.ts';

/**
 * The payout batch's bulk-transfer file in each layout of docs/payouts.md "The bank file": Kamai's
 * generic CSV, or a bank's corporate bulk-upload template (HDFC Bank ENet, ICICI Bank CIB), whose
 * UPI and account transfers go as separate uploads.
 */

/** One member of the batch as the file sends it: the net amount and where it goes. */
export interface FileMember {
  withdrawalId: string;
  amountPaise: number;
  /** The withdrawal's destination as the read model keeps it (JSON of WithdrawalDestination). */
  destination: string;
}

export interface BankFileRequest {
  template: BankFileTemplate;
  settings: BankFileSettings;
  /** The day the bank is to pay, YYYY-MM-DD (an IST day). */
  valueDate: string;
  /** Bank templates: which upload. The generic file holds both kinds unless one is asked for. */
  kind?: BankFileKind;
}

/** Above this a bank transfer goes by RTGS (as the generic file's `mode` has always done). */
const RTGS_ABOVE_PAISE = 20_000_000;
/** The longest beneficiary name the templates take (HDFC ENet: 35 for NEFT/RTGS; ICICI: assumed the same). */
const NAME_MAX = 35;

/**
 * The short reference a bank template carries in its customer-reference field (HDFC: 20 characters)
 * and gives back in its reverse file: `KM` and the last 16 hex digits of the withdrawal id, the
 * random ones in both random and time-ordered UUIDs (62 random bits: two members of one batch
 * sharing one is not to be expected, and the results import treats a shared one as unknown).
 */
export function shortReference(withdrawalId: string): string {
  return `KM${withdrawalId.replaceAll('-', '').slice(-16).toUpperCase()}`;
}

/**
 * A name as a bank's upload takes it: letters (accents dropped), digits and spaces only, no formula
 * guard (the bank reads the cell as text; a leading apostrophe would be sent as part of the name),
 * so nothing a spreadsheet could run survives either: `=`, `+`, `-` and `@` are among what goes.
 */
export function bankName(name: string, max = NAME_MAX): string {
  return name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

/** A cell of a bank template: quoted only if the bank's CSV needs it, never given a formula guard. */
const plainCell = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
const plainCsv = (header: readonly string[] | null, rows: ReadonlyArray<readonly string[]>) =>
  [...(header ? [header] : []), ...rows].map((row) => `${row.map(plainCell).join(',')}\r\n`).join('');

const rupeesOf = (paise: number) => (paise / 100).toFixed(2);
/** DD/MM/YYYY, as both banks' templates write dates. */
const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const NARRATION = 'KAMAI PAYOUT';

interface Parsed {
  member: FileMember;
  destination: WithdrawalDestination;
}

/** HDFC Bank ENet vendor-payment upload: 28 columns, no header row; the debit account is the client code's. */
function hdfcRow({ member, destination }: Parsed, valueDate: string): string[] {
  if (destination.kind !== 'bank') throw new Error('HDFC ENet rows are bank transfers');
  const type = destination.ifsc.startsWith('HDFC') ? 'I' : member.amountPaise > RTGS_ABOVE_PAISE ? 'R' : 'N';
  const row = Array<string>(28).fill('');
  row[0] = type; // Transaction Type: N NEFT, R RTGS, I within HDFC Bank
  row[2] = destination.accountNumber; // Beneficiary Account Number
  row[3] = rupeesOf(member.amountPaise); // Instrument Amount
  row[4] = bankName(destination.holderName); // Beneficiary Name
  row[13] = shortReference(member.withdrawalId); // Customer Reference Number (given back in the reverse file)
  row[14] = NARRATION; // Payment details 1
  row[22] = ddmmyyyy(valueDate); // Chq / Trn Date
  row[24] = destination.ifsc; // IFC Code
  return row;
}

/** ICICI Bank CIB bulk payment: the transaction types of its upload converter; the column order is Kamai's (docs). */
export const ICICI_BANK_COLUMNS = [
  'Transaction Type', 'Debit Account No', 'Beneficiary Account No', 'Beneficiary IFSC', 'Beneficiary Name', 'Amount', 'Currency', 'Value Date', 'Customer Reference', 'Remarks',
] as const;
function iciciRow({ member, destination }: Parsed, settings: BankFileSettings, valueDate: string): string[] {
  if (destination.kind !== 'bank') throw new Error('ICICI CIB rows are bank transfers');
  const type = destination.ifsc.startsWith('ICIC') ? 'WIB' : member.amountPaise > RTGS_ABOVE_PAISE ? 'RTG' : 'IFC';
  return [
    type, settings.bankDebitAccount, destination.accountNumber, destination.ifsc, bankName(destination.holderName),
    rupeesOf(member.amountPaise), 'INR', ddmmyyyy(valueDate), shortReference(member.withdrawalId), NARRATION,
  ];
}

/** The UPI upload of either bank (an assumption: neither template above carries UPI; docs/payouts.md). */
export const UPI_COLUMNS = ['Debit Account No', 'Payer IFSC', 'Value Date', 'Transaction Type', 'Beneficiary VPA', 'Beneficiary Name', 'Amount', 'Customer Reference', 'Remarks'] as const;
function upiRow({ member, destination }: Parsed, settings: BankFileSettings, valueDate: string, names: ReadonlyMap<string, string>): string[] {
  if (destination.kind !== 'upi') throw new Error('UPI rows are UPI transfers');
  return [
    settings.bankDebitAccount, settings.bankPayerIfsc, ddmmyyyy(valueDate), 'UPI', destination.upiId,
    bankName(names.get(member.withdrawalId) ?? ''), rupeesOf(member.amountPaise), shortReference(member.withdrawalId), NARRATION,
  ];
}

/** The generic file's row (BANK_FILE_COLUMNS); its names keep the spreadsheet formula guard (csv.ts). */
function genericRow({ member, destination }: Parsed): (string | null)[] {
  const amount = rupeesOf(member.amountPaise);
  const narration = `KAMAI ${member.withdrawalId.slice(0, 8)}`;
  return destination.kind === 'bank'
    ? [member.withdrawalId, amount, member.amountPaise > RTGS_ABOVE_PAISE ? 'RTGS' : 'IMPS', destination.ifsc, destination.accountNumber, destination.holderName, null, narration]
    : [member.withdrawalId, amount, 'UPI', null, null, null, destination.upiId, narration];
}

export interface BankFile {
  text: string;
  /** The members it sends, for the download's record. */
  rows: number;
  totalPaise: number;
  filename: string;
}

/**
 * The file of `members` in the chosen template. `upiNames` names the UPI payees (a UPI destination
 * carries no name; the bank's UPI upload wants one): the person's name, cleaned like any other.
 */
export function bankFile(batchId: string, members: readonly FileMember[], request: BankFileRequest, upiNames: ReadonlyMap<string, string> = new Map()): BankFile {
  const parsed = members
    .map((member) => ({ member, destination: v.parse(WithdrawalDestination, JSON.parse(member.destination)) }))
    .filter(({ destination }) => request.kind === undefined || destination.kind === request.kind);
  const rows = parsed.length;
  const totalPaise = parsed.reduce((sum, { member }) => sum + member.amountPaise, 0);
  const suffix = request.kind ? `-${request.kind}` : '';
  if (request.template === 'generic') {
    const text = toCsv(BANK_FILE_COLUMNS, parsed.map(genericRow), new Set(['amount', 'account_number']));
    return { text, rows, totalPaise, filename: `payout-batch-${batchId}${suffix}.csv` };
  }
  const { settings, valueDate } = request;
  const text =
    request.kind === 'upi'
      ? plainCsv(UPI_COLUMNS, parsed.map((p) => upiRow(p, settings, valueDate, upiNames)))
      : request.template === 'hdfc'
        ? plainCsv(null, parsed.map((p) => hdfcRow(p, valueDate)))
        : plainCsv(ICICI_BANK_COLUMNS, parsed.map((p) => iciciRow(p, settings, valueDate)));
  return { text, rows, totalPaise, filename: `payout-batch-${batchId}-${request.template}${suffix}-${valueDate}.csv` };
}
