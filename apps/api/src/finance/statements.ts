import {
  type BankStatementImportBody,
  STATEMENT_COLUMNS,
  STATEMENT_COLUMN_ALIASES,
  StatementExceptionNote,
  StatementExceptionsQuery,
  formatPaise,
  istDay,
  istDayOf,
  msg,
  parseRupees,
  csvRecords,
  streams,
} from '@kamai/contracts';
import { type WriteOffBooking, statementExceptionDecider, statementRunDecider } from '@kamai/domain';
import {
  bankCashAt,
  bookedFeesBetween,
  bookedFundingsBetween,
  exceptionDifference,
  exceptionsDatedBetween,
  findStatementException,
  listStatementExceptions,
  paidBatchMembers,
  paidBatchesBetween,
  paidPayoutsBetween,
  returnedPayoutsBetween,
  toBankStatementRunBody,
} from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppEnv } from '../deps.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { dayClosed } from '../ledger/periods.ts';
import { loadLimits } from '../settings/limits.ts';
import { caughtUp } from './ledger-routes.ts';
import { csvBody, missingColumns } from './payouts.ts';
import { MATCH_WINDOW_DAYS, type StatementLine, exceptionsOf, feesToBook, matchStatement, notOpenedBefore } from './statements-match.ts';

const financeStaff = withRole('finance');
const exceptionId = idParam('id', UUID_PATTERN, msg('statement.exceptionNotFound'));

/** A statement's date: 2026-11-30, 30-11-2026 or 30/11/2026; null for anything else. */
function statementDate(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const indian = /^(\d{2})[-/](\d{2})[-/](\d{4})$/.exec(text);
  const date = iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : indian ? `${indian[3]}-${indian[2]}-${indian[1]}` : null;
  return date && !Number.isNaN(Date.parse(date)) ? date : null;
}

/** A statement amount: rupees with commas allowed; empty is null; anything else undefined (refused). */
function statementAmount(text: string): number | null | undefined {
  const plain = text.replaceAll(',', '');
  if (plain === '') return null;
  return parseRupees(plain) ?? undefined;
}

/** A running balance: rupees, negative with a leading minus or a `Dr` suffix (`Cr` is positive). */
function statementBalance(text: string): number | null | undefined {
  const match = /^(-)?\s*([\d,]+(?:\.\d{1,2})?)\s*(cr|dr)?$/i.exec(text.trim());
  if (text.trim() === '') return null;
  if (!match) return undefined;
  const paise = parseRupees(match[2]!.replaceAll(',', ''));
  if (paise === null) return undefined;
  return match[1] || match[3]?.toLowerCase() === 'dr' ? -paise : paise;
}

const DAY = 86_400_000;
const widen = (from: string, to: string) => ({
  start: new Date(Date.parse(istDay(from).start) - MATCH_WINDOW_DAYS * DAY).toISOString(),
  end: new Date(Date.parse(istDay(to).end) + MATCH_WINDOW_DAYS * DAY).toISOString(),
});
const shiftDay = (day: string, days: number) => new Date(Date.parse(day) + days * DAY).toISOString().slice(0, 10);

/**
 * Bank statements matched many ways (docs/payouts.md#statement-matching), and the exceptions queue:
 * what no line matched, resolved by hand with a note or written off by two finance members.
 */
export const statementRoutes = new Hono<AppEnv>()
  .post('/api/admin/ledger/bank-statements', financeStaff, async (c) => {
    const deps = c.var.deps;
    const staff = requireUser(c);
    const text = await csvBody(c);
    const parsed = csvRecords<(typeof STATEMENT_COLUMNS)[number]>(text, ['date', 'debit'], STATEMENT_COLUMN_ALIASES);
    if ('missing' in parsed) throw missingColumns(parsed.missing);
    const lines: StatementLine[] = [];
    const dates: string[] = [];
    let closing: { line: number; date: string; paise: number } | null = null;
    for (const record of parsed.records) {
      const date = statementDate(record.get('date'));
      const refuse = () => {
        const message = msg('payout.statementLine', { line: record.line });
        return new ApiError(400, 'validation_failed', message, { body: message });
      };
      if (!date) throw refuse();
      dates.push(date);
      const debit = statementAmount(record.get('debit'));
      const credit = statementAmount(record.get('credit'));
      const balance = statementBalance(record.get('balance'));
      if (debit === undefined || credit === undefined || balance === undefined) throw refuse();
      // The closing balance is the last line of the latest day that shows one.
      if (balance !== null && (closing === null || date >= closing.date)) closing = { line: record.line, date, paise: balance };
      const utr = record.get('utr') || null;
      const narration = record.get('narration');
      if (debit) lines.push({ line: record.line, date, direction: 'debit', amountPaise: debit, utr, narration });
      else if (credit) lines.push({ line: record.line, date, direction: 'credit', amountPaise: credit, utr, narration });
    }
    if (dates.length === 0) throw missingColumns(['date', 'debit']);
    dates.sort();
    const from = dates[0]!;
    const to = dates.at(-1)!;
    await caughtUp(deps);
    const { statementMatchTolerancePaise: tolerancePaise } = await loadLimits(deps.store);
    // Each line has its own window around its day: the ledger is read for the widest of them.
    const wide = widen(from, to);
    const payouts = (await paidPayoutsBetween(deps.db, wide.start, wide.end)).map((p) => ({ withdrawalId: p.withdrawal_id ?? '', amountPaise: p.amount_paise, utr: p.utr, paidAt: p.effective_at }));
    const batchRows = await paidBatchesBetween(deps.db, wide.start, wide.end);
    const members = await paidBatchMembers(deps.db, batchRows.map((b) => b.batch_id));
    const batches = batchRows.map((b) => ({
      batchId: b.batch_id,
      totalPaise: Number(b.total_paise),
      firstPaidAt: b.first_paid_at,
      lastPaidAt: b.last_paid_at,
      members: members.filter((m) => m.batch_id === b.batch_id).map((m) => m.withdrawal_id),
    }));
    const fundings = (await bookedFundingsBetween(deps.db, shiftDay(from, -MATCH_WINDOW_DAYS), shiftDay(to, MATCH_WINDOW_DAYS))).map((f) => ({
      id: f.id,
      amountPaise: f.amount_paise,
      reference: f.reference,
      valueDate: f.value_date,
    }));
    const returns = (await returnedPayoutsBetween(deps.db, wide.start, wide.end)).map((r) => ({ withdrawalId: r.withdrawal_id ?? '', amountPaise: r.amount_paise, utr: r.utr, at: r.effective_at }));
    const result = matchStatement(lines, { payouts, batches, fundings, returns }, tolerancePaise);
    // Missing: what the ledger paid within the statement's own days that no line shows.
    const start = istDay(from).start;
    const end = istDay(to).end;
    const missing = payouts.filter((p) => !result.matchedPayouts.has(p.withdrawalId) && p.paidAt >= start && p.paidAt <= end);
    // The fee lines are booked with this run, effective on their own days (all within the statement):
    // the ledger's balance at its end counts them, so a statement with fees can agree with the books.
    const fees = feesToBook(result, lines, await bookedFeesBetween(deps.db, from, to));
    const ledgerPaise = (await bankCashAt(deps.db, end)) - fees.reduce((sum, f) => sum + f.amountPaise, 0);
    const drafts = exceptionsOf(result, missing, closing && { line: closing.line, date: closing.date, closingPaise: closing.paise, ledgerPaise });
    const before = (await exceptionsDatedBetween(deps.db, from, to)).map((e) => ({ kind: e.kind, date: e.date, amountPaise: e.amount_paise, reference: e.reference }));
    const exceptions = notOpenedBefore(drafts, before).map((d) => ({ exceptionId: commandId(), ...d }));
    const runId = commandId();
    const at = deps.now().toISOString();
    const missingFromStatement = missing.map((p) => ({ withdrawalId: p.withdrawalId, amountPaise: p.amountPaise, utr: p.utr ?? '', paidAt: p.paidAt }));
    const unmatchedDebits = result.unmatchedLines.filter((l) => l.direction === 'debit').map((l) => ({ line: l.line, date: l.date, amountPaise: l.amountPaise, utr: l.utr }));
    const { position } = await handleCommand(
      deps.store,
      streams.bankStatement(runId),
      statementRunDecider,
      {
        type: 'RecordStatementRun',
        data: {
          reconciled: { runId, by: staff.id, from, to, lines: parsed.records.length, missingFromStatement, unmatchedDebits, reconciledAt: at },
          matched: { runId, tolerancePaise, matches: result.matches, closingBalancePaise: closing?.paise ?? null, ledgerBalancePaise: ledgerPaise, exceptions, matchedAt: at },
          fees: await Promise.all(
            // A fee is booked on its line's day unless that month is closed: then today, in the open month.
            fees.map(async (f) => ({ runId, ...f, effectiveDate: (await dayClosed(deps.store, f.date)) ? istDayOf(deps.now()) : f.date, by: staff.id, bookedAt: at })),
          ),
        },
        now: at,
      },
      { actor: staff.id },
    );
    await deps.runner.waitFor(position);
    const count = (kind: string) => result.matches.filter((m) => m.kind === kind).length;
    const body: BankStatementImportBody = {
      ...toBankStatementRunBody({
        id: runId,
        by: staff.id,
        at,
        from_date: from,
        to_date: to,
        lines: parsed.records.length,
        missing: JSON.stringify(missingFromStatement),
        unmatched: JSON.stringify(unmatchedDebits),
      }),
      matching: {
        tolerance: formatPaise(tolerancePaise),
        matched: { payouts: count('payout'), batches: count('batch'), fees: count('fee'), fundings: count('funding'), returnedPayouts: count('returned_payout') },
        fees: formatPaise(result.matches.filter((m) => m.kind === 'fee').reduce((sum, m) => sum + m.amountPaise, 0)),
        closingBalance: closing ? formatPaise(closing.paise) : null,
        ledgerBalance: formatPaise(ledgerPaise),
        exceptions: await listStatementExceptions(deps.db, 'all', deps.now(), runId),
      },
    };
    return c.json(body, 201);
  })
  .get('/api/admin/ledger/statement-exceptions', financeStaff, validate('query', StatementExceptionsQuery), async (c) => {
    await caughtUp(c.var.deps);
    return c.json(await listStatementExceptions(c.var.deps.db, c.req.valid('query').status, c.var.deps.now()));
  })
  .post('/api/admin/ledger/statement-exceptions/:id/match', financeStaff, exceptionId, validate('json', StatementExceptionNote), (c) =>
    resolve(c, 'MatchExceptionByHand', 200, c.req.valid('json').note),
  )
  .post('/api/admin/ledger/statement-exceptions/:id/write-off', financeStaff, exceptionId, validate('json', StatementExceptionNote), (c) =>
    resolve(c, 'RequestWriteOff', 202, c.req.valid('json').note),
  )
  .post('/api/admin/ledger/statement-exceptions/:id/write-off/approve', financeStaff, exceptionId, (c) => resolve(c, 'ApproveWriteOff', 200, ''));

/** One step of an exception's resolution, decided on its own stream; answers the exception as it now is. */
async function resolve(c: Context<AppEnv>, type: 'MatchExceptionByHand' | 'RequestWriteOff' | 'ApproveWriteOff', status: 200 | 202, note: string) {
  const deps = c.var.deps;
  const by = requireUser(c).id;
  const id = (c.req.param('id') ?? '').toLowerCase();
  await caughtUp(deps);
  // The exception exists once its statement's run is in the read model; its resolution lives on its stream.
  if (!(await findStatementException(deps.db, id, deps.now()))) throw notFound(msg('statement.exceptionNotFound'));
  const now = deps.now().toISOString();
  const command =
    type === 'ApproveWriteOff' ? { type, data: { exceptionId: id, by, booking: await writeOffBooking(c, id) }, now } : { type, data: { exceptionId: id, by, note }, now };
  const { position } = await handleCommand(deps.store, streams.statementException(id), statementExceptionDecider, command, { actor: by });
  await deps.runner.waitFor(position);
  return c.json(await findStatementException(deps.db, id, deps.now()), status);
}

/**
 * What approving this exception's write-off books against platform:bank: the difference, effective on
 * the exception's day, or (that month closed) today in the open month, correcting the exception.
 * A payout no line shows books nothing: the ledger already paid it; writing it off only closes the item.
 */
async function writeOffBooking(c: Context<AppEnv>, id: string): Promise<WriteOffBooking | null> {
  const deps = c.var.deps;
  const row = await exceptionDifference(deps.db, id);
  if (!row || row.direction === null || row.kind === 'missing_payout') return null;
  const closed = await dayClosed(deps.store, row.date);
  return {
    kind: row.kind as WriteOffBooking['kind'],
    direction: row.direction === 'out' ? 'out' : 'in',
    amountPaise: row.amount_paise,
    effectiveDate: closed ? istDayOf(deps.now()) : row.date,
    corrects: closed ? id : null,
  };
}
