import { BANK_FEE_PATTERN, type StatementExceptionKind, type StatementMatchKind, istDay, istDayOf } from '@kamai/contracts';
import { normaliseReference } from '@kamai/domain';

/** One money line of a bank statement, in the file's order. */
export interface StatementLine {
  line: number;
  /** IST day `YYYY-MM-DD`. */
  date: string;
  direction: 'debit' | 'credit';
  amountPaise: number;
  utr: string | null;
  narration: string;
}

export interface LedgerSide {
  payouts: { withdrawalId: string; amountPaise: number; utr: string | null; paidAt: string }[];
  batches: { batchId: string; totalPaise: number; firstPaidAt: string; lastPaidAt: string; members: string[] }[];
  fundings: { id: string; amountPaise: number; reference: string; valueDate: string }[];
  returns: { withdrawalId: string; amountPaise: number; utr: string | null; at: string }[];
}

export interface Match {
  line: number;
  kind: StatementMatchKind;
  target: string | null;
  amountPaise: number;
}

export interface MatchResult {
  matches: Match[];
  unmatchedLines: StatementLine[];
  /** Withdrawals a line matched, alone or in their batch's line. */
  matchedPayouts: Set<string>;
}

/** How many days either side of a line's own day its payout or funding may be dated (the bank books a day or two late). */
export const MATCH_WINDOW_DAYS = 7;
const DAY = 86_400_000;

/** Whether an instant lies within the window around the line's IST day. */
function inWindow(line: StatementLine, at: string): boolean {
  const { start, end } = istDay(line.date);
  const t = Date.parse(at);
  return t >= Date.parse(start) - MATCH_WINDOW_DAYS * DAY && t <= Date.parse(end) + MATCH_WINDOW_DAYS * DAY;
}

/** Whether the line names `reference`: its UTR cell is it, or (without one) its narration holds it. */
function names(line: StatementLine, reference: string | null): boolean {
  if (!reference) return false;
  const wanted = normaliseReference(reference);
  if (wanted === '') return false;
  return line.utr ? normaliseReference(line.utr) === wanted : normaliseReference(line.narration).includes(wanted);
}

/** A batch's reference on a statement: `KAMAI` and the batch id's first 8 characters (or the whole id), in the UTR cell or the narration. */
export const batchReference = (batchId: string): string => `KAMAI${batchId.slice(0, 8).toUpperCase()}`;
function namesBatch(line: StatementLine, batchId: string): boolean {
  const text = normaliseReference(`${line.utr ?? ''} ${line.narration}`);
  return text.includes(batchReference(batchId)) || text.includes(normaliseReference(batchId));
}

const within = (a: number, b: number, tolerancePaise: number) => Math.abs(a - b) <= tolerancePaise;

/**
 * Matches a statement's lines to the ledger, each line within its own date window:
 * a debit to one payout (UTR and net amount) or to a whole batch (its reference and the net total of
 * its paid payouts); a debit whose narration says fee or charges, beside a line matched to a payout
 * or batch, as that payout's bank fee; a credit to a funding (its reference and amount) or to a
 * payout the bank returned (its UTR and amount). Amounts may differ by the tolerance.
 */
export function matchStatement(lines: readonly StatementLine[], ledger: LedgerSide, tolerancePaise: number): MatchResult {
  const matches = new Map<number, Match>();
  const matchedPayouts = new Set<string>();
  const usedFundings = new Set<string>();
  const usedReturns = new Set<string>();
  const usedBatches = new Set<string>();
  for (const line of lines) {
    if (line.direction === 'debit') {
      const payout = ledger.payouts.find(
        (p) => !matchedPayouts.has(p.withdrawalId) && within(p.amountPaise, line.amountPaise, tolerancePaise) && names(line, p.utr) && inWindow(line, p.paidAt),
      );
      if (payout) {
        matchedPayouts.add(payout.withdrawalId);
        matches.set(line.line, { line: line.line, kind: 'payout', target: payout.withdrawalId, amountPaise: line.amountPaise });
        continue;
      }
      const batch = ledger.batches.find(
        (b) =>
          !usedBatches.has(b.batchId) &&
          b.members.every((m) => !matchedPayouts.has(m)) &&
          within(b.totalPaise, line.amountPaise, tolerancePaise) &&
          namesBatch(line, b.batchId) &&
          (inWindow(line, b.firstPaidAt) || inWindow(line, b.lastPaidAt)),
      );
      if (batch) {
        usedBatches.add(batch.batchId);
        for (const m of batch.members) matchedPayouts.add(m);
        matches.set(line.line, { line: line.line, kind: 'batch', target: batch.batchId, amountPaise: line.amountPaise });
      }
      continue;
    }
    const funding = ledger.fundings.find(
      (f) =>
        !usedFundings.has(f.id) &&
        within(f.amountPaise, line.amountPaise, tolerancePaise) &&
        // The company's transfer may carry the bank's own UTR in that cell: its reference may be in the narration.
        (names(line, f.reference) || normaliseReference(line.narration).includes(normaliseReference(f.reference))) &&
        inWindow(line, istDay(f.valueDate).start),
    );
    if (funding) {
      usedFundings.add(funding.id);
      matches.set(line.line, { line: line.line, kind: 'funding', target: funding.id, amountPaise: line.amountPaise });
      continue;
    }
    const returned = ledger.returns.find(
      (r) => !usedReturns.has(r.withdrawalId) && within(r.amountPaise, line.amountPaise, tolerancePaise) && names(line, r.utr) && inWindow(line, r.at),
    );
    if (returned) {
      usedReturns.add(returned.withdrawalId);
      matches.set(line.line, { line: line.line, kind: 'returned_payout', target: returned.withdrawalId, amountPaise: line.amountPaise });
    }
  }
  // A fee is read after the payouts: it belongs to the payout or batch line right before or after it.
  lines.forEach((line, i) => {
    if (line.direction !== 'debit' || matches.has(line.line) || !BANK_FEE_PATTERN.test(line.narration)) return;
    const beside = [lines[i - 1], lines[i + 1]]
      .map((l) => (l ? matches.get(l.line) : undefined))
      .find((m) => m !== undefined && (m.kind === 'payout' || m.kind === 'batch'));
    if (beside) matches.set(line.line, { line: line.line, kind: 'fee', target: beside.target, amountPaise: line.amountPaise });
  });
  return {
    matches: lines.flatMap((l) => matches.get(l.line) ?? []),
    unmatchedLines: lines.filter((l) => !matches.has(l.line)),
    matchedPayouts,
  };
}

export interface ExceptionDraft {
  kind: StatementExceptionKind;
  line: number | null;
  date: string;
  amountPaise: number;
  reference: string | null;
}

/** What the queue opens for a statement: lines nothing matched, payouts no line shows, and a closing balance that differs. */
export function exceptionsOf(
  result: MatchResult,
  missing: readonly { amountPaise: number; utr: string | null; paidAt: string }[],
  balance: { line: number; date: string; closingPaise: number; ledgerPaise: number } | null,
): ExceptionDraft[] {
  return [
    ...result.unmatchedLines.map((l): ExceptionDraft => ({ kind: l.direction === 'debit' ? 'unmatched_debit' : 'unmatched_credit', line: l.line, date: l.date, amountPaise: l.amountPaise, reference: l.utr })),
    ...missing.map((p): ExceptionDraft => ({ kind: 'missing_payout', line: null, date: istDayOf(p.paidAt), amountPaise: p.amountPaise, reference: p.utr })),
    ...(balance && balance.closingPaise !== balance.ledgerPaise
      ? [{ kind: 'balance_mismatch' as const, line: balance.line, date: balance.date, amountPaise: Math.abs(balance.closingPaise - balance.ledgerPaise), reference: null }]
      : []),
  ];
}

/** Key of an exception as an import sees it: the same line (or payout, or balance) read again has the same key. */
const keyOf = (e: { kind: string; date: string; amountPaise: number; reference: string | null }) => `${e.kind}|${e.date}|${e.amountPaise}|${e.reference ?? ''}`;

/** The items of `drafts` not already in `existing` by `key`, counted: two equal ones already there hold back two. */
function unseen<D, E>(drafts: readonly D[], existing: readonly E[], key: (x: D | E) => string): D[] {
  const counts = new Map<string, number>();
  for (const e of existing) counts.set(key(e), (counts.get(key(e)) ?? 0) + 1);
  return drafts.filter((d) => {
    const left = counts.get(key(d)) ?? 0;
    if (left === 0) return true;
    counts.set(key(d), left - 1);
    return false;
  });
}

/**
 * The drafts not already in the queue (open or resolved): a statement imported again, or one that
 * overlaps the last, opens each exception once.
 */
export function notOpenedBefore(drafts: readonly ExceptionDraft[], existing: readonly { kind: string; date: string; amountPaise: number; reference: string | null }[]): ExceptionDraft[] {
  return unseen(drafts, existing, keyOf);
}

export interface FeeLine {
  line: number;
  date: string;
  amountPaise: number;
  target: string | null;
}

/** The fee lines to book: each matched fee not booked before (the same day, amount and payout or batch), so a statement imported again books its fees once. */
export function feesToBook(result: MatchResult, lines: readonly StatementLine[], booked: readonly Omit<FeeLine, 'line'>[]): FeeLine[] {
  const fees = result.matches
    .filter((m) => m.kind === 'fee')
    .map((m) => ({ line: m.line, date: lines.find((l) => l.line === m.line)!.date, amountPaise: m.amountPaise, target: m.target }));
  return unseen(fees, booked, (f) => `${f.date}|${f.amountPaise}|${f.target ?? ''}`);
}
