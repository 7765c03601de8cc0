import {
  type EventsOf,
  type Paise,
  type UserEvent,
  MIN_WITHDRAWAL_PAISE,
  MAX_MONEY_PAISE,
  type TaxRule,
  type WithdrawalBody,
  type WithdrawalDestination,
  type WithdrawalStatus,
  formatPaise,
  type withdrawalEvents,
  msg,
  REASON_OTHER,
} from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';
import { notify } from './notifications.ts';
import { type AccountState, assertNotSuspended } from './account.ts';
import { type AdjustmentsState, assertNoConflictOfDuties } from './adjustments.ts';
import { type WalletState, credit, debit } from './wallet.ts';
import type { KycState } from './kyc.ts';
import { type TaxYearsState, type WithheldTax, withdrawalTax } from './tax-years.ts';

export type WithdrawalEvent = EventsOf<typeof withdrawalEvents>;

/** The parts of the user's state a withdrawal is decided on (the user decider passes its whole state). */
export interface WithdrawalDecisionState {
  account: AccountState;
  wallet: WalletState;
  withdrawals: WithdrawalsState;
  /** Who adjusted this wallet lately: they settle none of its withdrawals. */
  adjustments: AdjustmentsState;
  /** The year's totals the tax rules read, and whether the person has a PAN. */
  taxYears: TaxYearsState;
  kyc: KycState;
}

export interface WithdrawalRecord {
  amountPaise: Paise;
  status: WithdrawalStatus;
  destination: WithdrawalDestination;
  requestedAt: string;
  /** When it was paid, failed, rejected or reversed. */
  processedAt: string | null;
  reference: string | null;
  reason: string | null;
  /** The payout batch it was sent in (absent on records of snapshots taken before batches). */
  batchId?: string | null;
  /** Tax withheld from it (docs/tax.md); the bank is paid amountPaise less these. Absent: none. */
  taxes?: WithheldTax[];
}

/** What the bank is paid for a request: its amount less the tax withheld from it. */
export function netOf(record: Pick<WithdrawalRecord, 'amountPaise' | 'taxes'>): Paise {
  return record.amountPaise - (record.taxes ?? []).reduce((sum, tax) => sum + tax.amountPaise, 0);
}

/**
 * How many paid withdrawals stay in the decision state, the newest, so that a bank's return can
 * reverse them. Older ones leave it (a return that late is booked as an adjustment): the state stays
 * bounded whatever the history, as do its snapshot and every cold start.
 */
export const PAID_WITHDRAWALS_KEPT = 20;

/**
 * The user's withdrawal requests finance has not finished with (pending, processing, and the newest
 * paid ones), and where the last one went (offered again by the dialog). Rejected, failed and
 * reversed requests leave the map: no rule reads them. Every event costs O(1) however many requests
 * wait (issue 39): the map is updated in place, the paid ones kept are a set in the order they were
 * paid (the oldest leaves first, without a scan), and what rules ask of the open ones as a whole is
 * counted as they come and go. Records are replaced, never changed.
 */
export interface WithdrawalsState {
  /** Keyed by withdrawal id. */
  byId: Map<string, WithdrawalRecord>;
  /** Ids of the paid records kept, oldest paid first (at most PAID_WITHDRAWALS_KEPT). */
  paid: Set<string>;
  /** The requests pending or processing: how many, and their amounts' sum. */
  open: { count: number; amountPaise: Paise };
  lastDestination: WithdrawalDestination | null;
}

export const initialWithdrawalsState = (): WithdrawalsState => ({ byId: new Map(), paid: new Set(), open: { count: 0, amountPaise: 0 }, lastDestination: null });

const isOpen = (record: WithdrawalRecord | undefined): record is WithdrawalRecord => record?.status === 'pending' || record?.status === 'processing';

/** An open request settled or gone: it no longer counts. */
function close(state: WithdrawalsState, record: WithdrawalRecord | undefined): void {
  if (!isOpen(record)) return;
  state.open.count--;
  state.open.amountPaise -= record.amountPaise;
}

export function evolveWithdrawals(state: WithdrawalsState, event: WithdrawalEvent): WithdrawalsState {
  switch (event.type) {
    case 'WithdrawalRequested': {
      const d = event.data;
      const record: WithdrawalRecord = {
        amountPaise: d.amountPaise,
        status: 'pending',
        destination: d.destination,
        requestedAt: d.requestedAt,
        processedAt: null,
        reference: null,
        reason: null,
        batchId: null,
        ...(d.taxes && d.taxes.length > 0 && { taxes: d.taxes }),
      };
      close(state, state.byId.get(d.withdrawalId));
      state.byId.set(d.withdrawalId, record);
      state.open.count++;
      state.open.amountPaise += d.amountPaise;
      state.lastDestination = d.destination;
      return state;
    }
    case 'WithdrawalPaid': {
      const id = event.data.withdrawalId;
      const record = state.byId.get(id);
      if (!record) return state;
      close(state, record);
      state.byId.set(id, { ...record, status: 'paid', processedAt: event.data.paidAt, reference: event.data.reference });
      state.paid.add(id);
      return forgetOldestPaid(state);
    }
    case 'WithdrawalProcessing': {
      const record = state.byId.get(event.data.withdrawalId);
      if (record) state.byId.set(event.data.withdrawalId, { ...record, status: 'processing', batchId: event.data.batchId });
      return state;
    }
    case 'WithdrawalRejected':
    case 'WithdrawalFailed':
    case 'WithdrawalReversed':
      close(state, state.byId.get(event.data.withdrawalId));
      state.byId.delete(event.data.withdrawalId);
      state.paid.delete(event.data.withdrawalId);
      return state;
    default:
      return assertNever(event);
  }
}

/** Keeps at most PAID_WITHDRAWALS_KEPT paid records: the set's first is the one paid longest ago. */
function forgetOldestPaid(state: WithdrawalsState): WithdrawalsState {
  for (const id of state.paid) {
    if (state.paid.size <= PAID_WITHDRAWALS_KEPT) break;
    state.paid.delete(id);
    state.byId.delete(id);
  }
  return state;
}

export type WithdrawalCommand =
  | {
      type: 'RequestWithdrawal';
      data: {
        withdrawalId: string;
        /** Id of the ledger entry that holds the amount. */
        entryId: string;
        notificationId: string;
        amountPaise: Paise;
        /** Absent: pay to the destination of the user's last request. */
        destination?: WithdrawalDestination;
        /** The tax rules in force (settings); absent: none withheld. */
        taxRules?: readonly TaxRule[];
      };
      now: string;
    }
  | {
      type: 'MarkWithdrawalPaid';
      /** `batchId`: the bank's result for a withdrawal of that batch; absent: paid by hand. */
      /** `valueDate`: the bank's value date (IST day), when the bank gave one. */
      data: { withdrawalId: string; reference: string; by: string; notificationId: string; batchId?: string; valueDate?: string };
      now: string;
    }
  | {
      type: 'RejectWithdrawal';
      data: { withdrawalId: string; reason: string; by: string; entryId: string; notificationId: string };
      now: string;
    }
  | {
      /** Sent to the bank in a payout batch. Marking it again for the same batch changes nothing. */
      type: 'MarkWithdrawalProcessing';
      data: { withdrawalId: string; batchId: string; by: string };
      now: string;
    }
  | {
      /** The bank could not pay a processing withdrawal: its money goes back to the wallet. */
      type: 'FailWithdrawal';
      data: { withdrawalId: string; reason: string; by: string; entryId: string; notificationId: string; batchId?: string };
      now: string;
    }
  | {
      /** The bank returned a paid withdrawal: its money goes back to the wallet. */
      type: 'ReverseWithdrawal';
      data: { withdrawalId: string; reason: string; by: string; entryId: string; notificationId: string };
      now: string;
    };

/**
 * Withdrawals are decided on the user's own stream, against the wallet folded from it: the request's
 * hold is a ledger debit (refused beyond the balance), appended with the request in one append that
 * expects the revision the decision was made on. Two concurrent requests therefore cannot both spend
 * the same rupees: the second append conflicts and is decided again on the new balance.
 */
export function decideWithdrawals(command: WithdrawalCommand, state: WithdrawalDecisionState): UserEvent[] {
  if (!state.account.registered) throw new DomainError('not_found', msg('api.noSuchUser'));
  switch (command.type) {
    case 'RequestWithdrawal': {
      const d = command.data;
      assertNotSuspended(state.account);
      if (!Number.isSafeInteger(d.amountPaise) || d.amountPaise < MIN_WITHDRAWAL_PAISE) {
        throw new DomainError('invalid', msg('withdrawal.minimum'), { amount: msg('withdrawal.minimum') });
      }
      if (state.withdrawals.byId.has(d.withdrawalId)) throw new DomainError('conflict', msg('api.withdrawalExists'));
      const destination = d.destination ?? state.withdrawals.lastDestination;
      const label = destination ? maskDestination(destination) : '';
      // The balance is checked first: asking where to pay rupees the user does not have helps nobody.
      debit(state.wallet, { entryId: d.entryId, amountPaise: d.amountPaise, kind: 'withdrawal', params: {}, now: command.now });
      const taxes: WithheldTax[] = withdrawalTax(state, d.taxRules ?? [], d.amountPaise, command.now).map((c) => ({
        code: c.code,
        amountPaise: c.amountPaise,
        basePaise: c.basePaise,
        rateBasisPoints: c.rateBasisPoints,
      }));
      const netPaise = netOf({ amountPaise: d.amountPaise, taxes });
      if (netPaise <= 0) {
        const message = msg('withdrawal.allTax', { taxPaise: d.amountPaise });
        throw new DomainError('invalid', message, { amount: message });
      }
      // The hold is what the bank will be paid; each tax moves to tax payable on its own entry.
      const hold = debit(state.wallet, { entryId: d.entryId, amountPaise: netPaise, kind: 'withdrawal', params: { destination: label }, reference: d.withdrawalId, now: command.now });
      const withheld = taxes.map((tax, i) => ({
        type: 'WalletDebited' as const,
        data: { entryId: taxEntryId(d.entryId, i), amountPaise: tax.amountPaise, kind: 'tax_withheld' as const, params: { code: tax.code }, reference: d.withdrawalId, debitedAt: command.now },
      }));
      if (!destination) {
        throw new DomainError(
          'invalid',
          msg('withdrawal.destinationRequired'),
          { destination: msg('withdrawal.destinationRequired') },
          'destination_required',
        );
      }
      return [
        {
          type: 'WithdrawalRequested',
          data: { withdrawalId: d.withdrawalId, amountPaise: d.amountPaise, destination, requestedAt: command.now, ...(taxes.length > 0 && { taxes }) },
        },
        hold,
        ...withheld,
        notify({
          notificationId: d.notificationId,
          key: 'withdrawal_requested',
          params: { amountPaise: d.amountPaise, destination: label },
          kind: 'info',
          now: command.now,
        }),
      ];
    }
    case 'MarkWithdrawalPaid': {
      const d = command.data;
      // Paid by hand while pending, or from its own batch's results while processing.
      const record = withdrawalIn(state, d.withdrawalId, d.by, ['pending', 'processing']);
      assertBatchResult(record, d.batchId);
      // Recording a bank's result is a decision too: whoever adjusted this wallet lately records none.
      assertNoConflictOfDuties(state.adjustments, d.by, command.now);
      return [
        {
          type: 'WithdrawalPaid',
          // What the bank paid: the request's amount less the tax withheld.
          data: {
            withdrawalId: d.withdrawalId,
            reference: d.reference,
            paidBy: d.by,
            paidAt: command.now,
            amountPaise: netOf(record),
            ...(d.valueDate !== undefined && { valueDate: d.valueDate }),
          },
        },
        // The amount left the balance when it was requested; paying only settles that hold.
        notify({
          notificationId: d.notificationId,
          key: 'withdrawal_paid',
          params: { amountPaise: record.amountPaise, destination: maskDestination(record.destination), reference: d.reference },
          kind: 'success',
          now: command.now,
        }),
      ];
    }
    case 'RejectWithdrawal': {
      const d = command.data;
      const current = state.withdrawals.byId.get(d.withdrawalId);
      if (current?.status === 'processing') assertBatchResult(current, undefined);
      const record = pendingWithdrawal(state, d.withdrawalId, d.by);
      assertNoConflictOfDuties(state.adjustments, d.by, command.now);
      return [
        {
          type: 'WithdrawalRejected',
          // Withdrawal rejections have no canned reasons: every reason is written.
          data: { withdrawalId: d.withdrawalId, reason: d.reason, reasonCode: REASON_OTHER, rejectedBy: d.by, rejectedAt: command.now },
        },
        ...returned(state, command, record, 'withdrawal_refund'),
        notify({
          notificationId: d.notificationId,
          key: 'withdrawal_rejected',
          params: { amountPaise: record.amountPaise, reason: d.reason },
          kind: 'error',
          now: command.now,
        }),
      ];
    }
    case 'MarkWithdrawalProcessing': {
      const d = command.data;
      const current = state.withdrawals.byId.get(d.withdrawalId);
      if (current?.status === 'processing' && current.batchId === d.batchId && d.by !== state.account.userId) return [];
      // One open batch per withdrawal: a second batch would put it in a second bank file.
      if (current?.status === 'processing') throw new DomainError('conflict', msg('payout.alreadyBatched', { ids: d.withdrawalId }), undefined, 'already_batched');
      pendingWithdrawal(state, d.withdrawalId, d.by);
      assertNoConflictOfDuties(state.adjustments, d.by, command.now);
      return [{ type: 'WithdrawalProcessing', data: { withdrawalId: d.withdrawalId, batchId: d.batchId, by: d.by, processingAt: command.now } }];
    }
    case 'FailWithdrawal': {
      const d = command.data;
      const record = withdrawalIn(state, d.withdrawalId, d.by, ['processing']);
      if (d.batchId !== undefined && record.batchId !== d.batchId) throw new DomainError('conflict', msg('payout.notInBatch'), undefined, 'not_in_batch');
      assertNoConflictOfDuties(state.adjustments, d.by, command.now);
      const failed: UserEvent = { type: 'WithdrawalFailed', data: { withdrawalId: d.withdrawalId, reason: d.reason, by: d.by, failedAt: command.now } };
      return giveBack(state, command, record, failed, 'payout_failed', 'withdrawal_failed', {});
    }
    case 'ReverseWithdrawal': {
      const d = command.data;
      const record = withdrawalIn(state, d.withdrawalId, d.by, ['paid']);
      assertNoConflictOfDuties(state.adjustments, d.by, command.now);
      const reversed: UserEvent = { type: 'WithdrawalReversed', data: { withdrawalId: d.withdrawalId, reason: d.reason, by: d.by, reversedAt: command.now } };
      return giveBack(state, command, record, reversed, 'payout_reversal', 'withdrawal_reversed', { reference: record.reference ?? '' });
    }
    default:
      return assertNever(command);
  }
}

/**
 * A payout the bank did not keep (failed, or reversed after paying): its outcome, the credit that
 * returns the amount to the wallet, and the user's notification with the reason.
 */
function giveBack(
  state: WithdrawalDecisionState,
  command: { data: { withdrawalId: string; reason: string; by: string; entryId: string; notificationId: string }; now: string },
  record: WithdrawalRecord,
  outcome: UserEvent,
  kind: 'payout_failed' | 'payout_reversal',
  key: 'withdrawal_failed' | 'withdrawal_reversed',
  params: Record<string, string>,
): UserEvent[] {
  const d = command.data;
  return [
    outcome,
    ...returned(state, command, record, kind),
    notify({
      notificationId: d.notificationId,
      key,
      params: { amountPaise: record.amountPaise, ...params, reason: d.reason },
      kind: 'error',
      now: command.now,
    }),
  ];
}

/**
 * The credits that give a request's money back: what the bank was (to be) paid on the entry the
 * command names, and each tax withheld from it, once, out of tax payable. The record leaves the
 * state with the outcome they are appended with, so nothing is given back twice.
 */
function returned(
  state: WithdrawalDecisionState,
  command: { data: { withdrawalId: string; reason: string; by: string; entryId: string }; now: string },
  record: WithdrawalRecord,
  kind: 'withdrawal_refund' | 'payout_failed' | 'payout_reversal',
): UserEvent[] {
  const d = command.data;
  const netPaise = netOf(record);
  const base = netPaise > 0 ? [credit({ entryId: d.entryId, amountPaise: netPaise, kind, params: { reason: d.reason }, reference: d.withdrawalId, by: d.by, now: command.now }, state.wallet)] : [];
  const taxes = (record.taxes ?? []).map((tax, i) =>
    credit({ entryId: taxEntryId(d.entryId, i), amountPaise: tax.amountPaise, kind: 'tax_refund', params: { code: tax.code }, reference: d.withdrawalId, by: d.by, now: command.now }),
  );
  if (state.wallet.balance + record.amountPaise > MAX_MONEY_PAISE) {
    const message = msg('wallet.creditAboveMax', { maxPaise: MAX_MONEY_PAISE });
    throw new DomainError('conflict', message, { amount: message });
  }
  return [...base, ...taxes];
}

/** The entry id of a request's i-th tax (withheld or given back): derived from the command's entry, so a retry names the same. */
function taxEntryId(entryId: string, i: number): string {
  return `${entryId}:tax:${i}`;
}

/**
 * A processing withdrawal is with the bank, in its batch: only that batch's results settle it, so a
 * payout is never booked by hand while the bank may pay it too. A batch's result for a withdrawal
 * not in that batch is refused.
 */
function assertBatchResult(record: WithdrawalRecord, batchId: string | undefined): void {
  if (record.status === 'processing' && batchId === undefined) throw new DomainError('conflict', msg('payout.withBank'), undefined, 'with_bank');
  if (batchId !== undefined && (record.status !== 'processing' || record.batchId !== batchId)) {
    throw new DomainError('conflict', msg('payout.notInBatch'), undefined, 'not_in_batch');
  }
}

/** A request still waiting for finance: settled once, never by the user it pays. */
function pendingWithdrawal(state: WithdrawalDecisionState, withdrawalId: string, by: string): WithdrawalRecord {
  return withdrawalIn(state, withdrawalId, by, ['pending']);
}

/** A withdrawal in one of the states a command may move it from, never handled by the user it pays. */
function withdrawalIn(state: WithdrawalDecisionState, withdrawalId: string, by: string, from: readonly WithdrawalStatus[]): WithdrawalRecord {
  const record = state.withdrawals.byId.get(withdrawalId);
  // Not kept: settled long enough ago to have left the state (the route answered 404 for an id the
  // read model does not know, and names the state it was settled in).
  // A settled request is no longer in the decision state; the route tells paid from rejected by the read model.
  if (!record) throw new DomainError('conflict', msg('withdrawalState.settled'));
  if (by === state.account.userId) throw new DomainError('forbidden', msg('api.ownWithdrawal'));
  if (!from.includes(record.status)) throw new DomainError('conflict', msg(`withdrawalState.${record.status}`));
  return record;
}

/** The user's view of a request (the destination masked): what the command answers and the read model lists alike. */
export function withdrawalBody(id: string, userId: string, record: WithdrawalRecord): WithdrawalBody {
  return {
    id,
    userId,
    amount: formatPaise(record.amountPaise),
    status: record.status,
    destination: maskDestination(record.destination),
    destinationKind: record.destination.kind,
    requestedAt: record.requestedAt,
    processedAt: record.processedAt,
    reference: record.reference,
    reason: record.reason,
    // Only once it is in a batch: withdrawals settled by hand never have one.
    ...(record.batchId != null && { batchId: record.batchId }),
    tax: taxBody(record.taxes ?? []),
    net: formatPaise(netOf(record)),
  };
}

/** Taxes as the answers show them: one amount, the codes joined; null when none. */
export function taxBody(taxes: readonly Pick<WithheldTax, 'code' | 'amountPaise'>[]): { amount: string; code: string } | null {
  if (taxes.length === 0) return null;
  return { amount: formatPaise(taxes.reduce((sum, t) => sum + t.amountPaise, 0)), code: taxes.map((t) => t.code).join(' + ') };
}

/** A destination as screens show it: 'A/c XXXXXX4321 · HDFC0001234' or 'UPI ra***@okhdfc'. */
export function maskDestination(destination: WithdrawalDestination): string {
  switch (destination.kind) {
    case 'bank':
      return `A/c XXXXXX${destination.accountNumber.slice(-4)} · ${destination.ifsc}`;
    case 'upi':
      return `UPI ${maskUpiId(destination.upiId)}`;
    default:
      return assertNever(destination);
  }
}

function maskUpiId(upiId: string): string {
  const at = upiId.lastIndexOf('@');
  const name = upiId.slice(0, at);
  const shown = name.length > 3 ? 2 : 1;
  return `${name.slice(0, shown)}***${upiId.slice(at)}`;
}
