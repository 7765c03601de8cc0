import {
  BalanceQuery,
  type LedgerBalanceBody,
  type LedgerUserLookupBody,
  LedgerUserLookupRequest,
  LedgerUserParam,
  type ReconciliationBody,
  type StatementBody,
  StatementQuery,
  type TrialBalanceBody,
  TrialBalanceQuery,
  WITHDRAWAL_PAGE_SIZE,
  WithdrawalListQuery,
  type FinanceWithdrawalBody,
  formatPaise,
  maskMobile,
  msg,
} from '@kamai/contracts';
import { maskDestination } from '@kamai/domain';
import {
  type Statement,
  accountHolders,
  userOfAccount,
  findUserById,
  findUserByMobile,
  listWithdrawalsPage,
  reconciliation,
  trialBalance,
  userBalanceAt,
  userStatement,
} from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { readWithCatchUp } from '../auth/sessions.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { csvFile } from './csv.ts';
import { verifyLedger } from './verify.ts';
import { latePayoutCutoff } from '../settings/limits.ts';

// Roles separate duties: ledgers and payouts are finance's alone, not an admin's.
const financeStaff = withRole('finance');

/** Lets the read models catch up with the store first: finance reads the figures as of now. */
export async function caughtUp(deps: AppDeps): Promise<void> {
  const head = await deps.store.headPosition();
  if (head > deps.runner.position) await deps.runner.waitFor(head, 2000);
}

async function userFor(deps: AppDeps, userId: string) {
  const user = await readWithCatchUp(deps, () => findUserById(deps.db, userId));
  if (!user) throw new ApiError(404, 'not_found', msg('api.noSuchUser'), { userId: msg('api.noSuchUser') });
  return user;
}

export function csvResponse(c: Context<AppEnv>, name: string, body: string, headers: Record<string, string> = {}) {
  return c.body(body, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${name}"`,
    ...headers,
  });
}

const STATEMENT_HEADER = [
  'position', 'time', 'kind', 'description', 'amount', 'pending_payout_change', 'balance', 'pending_payout',
  'actor_name', 'actor_mobile', 'reason', 'submission_id', 'task_id', 'withdrawal_id', 'utr', 'effective_date', 'corrects',
] as const;
const STATEMENT_NUMERIC = new Set(['position', 'amount', 'pending_payout_change', 'balance', 'pending_payout']);

/**
 * The statement's CSV, with a UTF-8 BOM: an `opening_balance` row, one row per entry, and a
 * `closing_balance` row, so the file read alone shows both balances. The balance rows leave `amount`
 * empty, so the `amount` column sums to closing − opening.
 */
export function statementCsv(statement: StatementBody): string {
  const balanceRow = (kind: 'opening_balance' | 'closing_balance', time: string | null, b: StatementBody['opening']) => [
    null, time, kind, kind === 'opening_balance' ? 'Opening balance' : 'Closing balance', null, null, b.available, b.pendingPayout,
    null, null, null, null, null, null, null, null, null,
  ];
  return csvFile(
    STATEMENT_HEADER,
    [
      balanceRow('opening_balance', statement.from, statement.opening),
      ...statement.entries.map((e) => [
        e.position, e.time, e.kind, e.description, e.amount, e.pendingPayoutChange, e.balance, e.pendingPayout,
        e.actor?.name ?? null, e.actor?.mobile ? maskMobile(e.actor.mobile) : null, e.reason,
        e.references.submissionId, e.references.taskId, e.references.withdrawalId, e.references.utr, e.effectiveDate, e.corrects,
      ]),
      balanceRow('closing_balance', statement.to, statement.closing),
    ],
    STATEMENT_NUMERIC,
  );
}

const WITHDRAWAL_HEADER = [
  'id', 'status', 'amount', 'requested_at', 'processed_at', 'user_name', 'user_mobile', 'destination', 'utr', 'processed_by', 'reason',
] as const;

/** History's CSV: a file leaves the screen, so the person's mobile is masked in it. */
function withdrawalsCsv(rows: readonly FinanceWithdrawalBody[]): string {
  return csvFile(
    WITHDRAWAL_HEADER,
    rows.map((w) => [
      w.id, w.status, w.amount, w.requestedAt, w.processedAt, w.user.name, maskMobile(w.user.mobile), maskDestination(w.payTo), w.reference, w.processedByName ?? w.processedBy, w.reason,
    ]),
    new Set(['amount']),
  );
}

type LedgerUser = { id: string; first_name: string | null; last_name: string | null; mobile: string | null };

/** How finance names a user: their name, else their number, else their id. */
const ledgerName = (user: LedgerUser): string => [user.first_name, user.last_name].filter(Boolean).join(' ') || (user.mobile ?? user.id);

/** The statement as the API and the CLI answer it: rupees as decimal strings. */
export function toStatementBody(user: LedgerUser, statement: Statement): StatementBody {
  return {
    user: { id: user.id, name: ledgerName(user), mobile: user.mobile ?? '' },
    from: statement.from,
    to: statement.to,
    opening: { available: formatPaise(statement.opening.availablePaise), pendingPayout: formatPaise(statement.opening.pendingPayoutPaise) },
    entries: statement.entries.map((e) => ({
      position: e.position,
      revision: e.revision,
      time: e.effectiveAt,
      kind: e.kind,
      description: e.description,
      amount: formatPaise(e.amountPaise),
      pendingPayoutChange: formatPaise(e.pendingPayoutChangePaise),
      balance: formatPaise(e.availablePaise),
      pendingPayout: formatPaise(e.pendingPayoutPaise),
      actor: e.actor,
      reason: e.reason,
      references: { submissionId: e.submissionId, taskId: e.taskId, withdrawalId: e.withdrawalId, utr: e.utr },
      effectiveDate: e.effectiveDate,
      corrects: e.corrects,
    })),
    closing: { available: formatPaise(statement.closing.availablePaise), pendingPayout: formatPaise(statement.closing.pendingPayoutPaise) },
  };
}

/**
 * Finance's ledger: statements and balances as of any moment, the trial balance, the
 * reconciliation, and the withdrawal list with history, filters, cursor pages and CSV.
 */
export const ledgerRoutes = new Hono<AppEnv>()
  // A mobile number travels in the body, never in a path (paths are logged): the ledger routes then take the id.
  .post('/api/admin/ledger/users/lookup', financeStaff, validate('json', LedgerUserLookupRequest), async (c) => {
    const deps = c.var.deps;
    const { mobile } = c.req.valid('json');
    await caughtUp(deps);
    const user = await readWithCatchUp(deps, () => findUserByMobile(deps.db, mobile));
    if (!user) throw new ApiError(404, 'not_found', msg('api.noUserWithMobile'), { mobile: msg('api.noUserWithMobile') });
    const body: LedgerUserLookupBody = { id: user.id, name: ledgerName(user), mobile };
    return c.json(body);
  })
  .get('/api/admin/ledger/users/:userId/statement', financeStaff, validate('param', LedgerUserParam), validate('query', StatementQuery), async (c) => {
    const deps = c.var.deps;
    const { from, to, format, by } = c.req.valid('query');
    await caughtUp(deps);
    const user = await userFor(deps, c.req.valid('param').userId);
    const statement = await userStatement(deps.db, user.id, { ...(from && { from }), ...(to && { to }), by });
    const body = toStatementBody(user, statement);
    if (format === 'csv') {
      return csvResponse(c, `statement-${user.id}.csv`, statementCsv(body), {
        'x-opening-balance': body.opening.available,
        'x-closing-balance': body.closing.available,
      });
    }
    return c.json(body);
  })
  .get('/api/admin/ledger/users/:userId/balance', financeStaff, validate('param', LedgerUserParam), validate('query', BalanceQuery), async (c) => {
    const deps = c.var.deps;
    const at = c.req.valid('query').at ?? deps.now().toISOString();
    await caughtUp(deps);
    const user = await userFor(deps, c.req.valid('param').userId);
    const balance = await userBalanceAt(deps.db, user.id, at);
    const body: LedgerBalanceBody = {
      available: formatPaise(balance.availablePaise),
      pendingPayout: formatPaise(balance.pendingPayoutPaise),
      at,
      position: balance.position,
    };
    return c.json(body);
  })
  .get('/api/admin/ledger/trial-balance', financeStaff, validate('query', TrialBalanceQuery), async (c) => {
    const deps = c.var.deps;
    const { at, by } = c.req.valid('query');
    await caughtUp(deps);
    const trial = await trialBalance(deps.db, at, by);
    const holders = await accountHolders(deps.db, trial.accounts.flatMap((a) => userOfAccount(a.account) ?? []));
    const body: TrialBalanceBody = {
      at: at ?? null,
      accounts: trial.accounts.map((a) => ({
        account: a.account,
        holder: holders.get(userOfAccount(a.account) ?? '') ?? null,
        debit: formatPaise(a.debitPaise),
        credit: formatPaise(a.creditPaise),
        balance: formatPaise(a.creditPaise - a.debitPaise),
      })),
      totalDebit: formatPaise(trial.debitPaise),
      totalCredit: formatPaise(trial.creditPaise),
      difference: formatPaise(trial.debitPaise - trial.creditPaise),
    };
    return c.json(body);
  })
  .get('/api/admin/ledger/reconciliation', financeStaff, async (c) => {
    const deps = c.var.deps;
    await caughtUp(deps);
    const r = await reconciliation(deps.db);
    const body: ReconciliationBody = {
      available: formatPaise(r.availablePaise),
      pendingPayout: formatPaise(r.pendingPayoutPaise),
      funded: formatPaise(r.fundedPaise),
      paid: formatPaise(r.paidPaise),
      taxPayable: formatPaise(r.taxPayablePaise),
      taxDeposited: formatPaise(r.taxDepositedPaise),
      difference: formatPaise(r.differencePaise),
      bankFunded: formatPaise(r.bankFundedPaise),
      bankBalance: formatPaise(r.bankBalancePaise),
      negativeBalances: r.negativeBalances.map(({ userId, account, balancePaise }) => ({ userId, account, balance: formatPaise(balancePaise) })),
      position: deps.runner.position,
      headPosition: await deps.store.headPosition(),
    };
    return c.json(body);
  })
  .get('/api/admin/ledger/verify', financeStaff, async (c) =>
    c.json(await verifyLedger(c.var.deps.store, { signingKey: c.var.deps.config.ledgerSigningKey, witness: c.var.deps.ledger?.witness ?? null })),
  )
  .get('/api/admin/withdrawals', financeStaff, validate('query', WithdrawalListQuery), async (c) => {
    const deps = c.var.deps;
    const { status, from, to, cursor, limit, format, late } = c.req.valid('query');
    // Late payouts: processing (sent to the bank) for longer than the setting says.
    const processingBefore = late === 'true' ? await latePayoutCutoff(deps.store, deps.now()) : undefined;
    if (format === 'csv') {
      // The whole selection, page by page: an export is never cut off.
      const all: FinanceWithdrawalBody[] = [];
      let after = cursor === undefined ? undefined : Number(cursor);
      for (;;) {
        const page = await listWithdrawalsPage(deps.db, { status, from, to, cursor: after, limit: 1000, processingBefore });
        all.push(...page.rows);
        if (page.nextCursor === null) break;
        after = page.nextCursor;
      }
      return csvResponse(c, `withdrawals-${status}.csv`, withdrawalsCsv(all));
    }
    const page = await listWithdrawalsPage(deps.db, {
      status, from, to, cursor: cursor === undefined ? undefined : Number(cursor), limit: limit ?? WITHDRAWAL_PAGE_SIZE, processingBefore,
    });
    // The body stays the array the queue screen reads; the next page is named in a header.
    if (page.nextCursor !== null) c.header('x-next-cursor', String(page.nextCursor));
    c.header('access-control-expose-headers', 'x-next-cursor');
    return c.json(page.rows);
  });

