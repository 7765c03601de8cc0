import { type LedgerBalancesBody, formatPaise, streams } from '@kamai/contracts';
import { type BalanceReading, balanceWarningsDecider, inWarning } from '@kamai/domain';
import { financeMemberIds, reconciliation } from '@kamai/projections';
import { Hono } from 'hono';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';
import { loadLimits } from '../settings/limits.ts';
import { onOwnAppendsOf } from '../own-appends.ts';
import { caughtUp } from './ledger-routes.ts';

/** Events that move the payout float or the tax payable, or the thresholds: a check follows them. */
const MOVES = [
  'WithdrawalRequested',
  'WithdrawalRejected',
  'WithdrawalFailed',
  'WithdrawalPaid',
  'WithdrawalReversed',
  'WalletDebited',
  'BankFundingRecorded',
  'BankFundingApproved',
  'BankFundingReversed',
  'TaxDepositRecorded',
  'SettingsUpdated',
] as const;

/** Other processes' appends (and a store without change signals) are caught by a look this often. */
const SWEEP_MS = 60_000;

type Deps = Pick<AppDeps, 'store' | 'db' | 'runner' | 'now'>;

/**
 * Both balances as the read models hold them, with the thresholds in force (read from the settings
 * stream, so a threshold changed a moment ago on another process already counts). The float is what
 * is left to pay new withdrawals from: funded − paid − tax deposited − payouts requested and not paid.
 */
export async function readBalances(deps: Deps): Promise<BalanceReading[]> {
  const [r, limits] = await Promise.all([reconciliation(deps.db), loadLimits(deps.store)]);
  return [
    { balance: 'payout_float', amountPaise: r.bankBalancePaise - r.pendingPayoutPaise, thresholdPaise: limits.payoutFloatWarnBelowPaise },
    { balance: 'tax_payable', amountPaise: r.taxPayablePaise, thresholdPaise: limits.taxPayableWarnAbovePaise },
  ];
}

/**
 * Reads both balances once the read models hold the log's head and records each crossing once on
 * `balance-warnings` (the decider raises only when no warning is in force; the append expects the
 * revision it decided on and decides again on a conflict, so two processes record it once).
 */
export async function checkBalances(deps: Deps): Promise<void> {
  const head = await deps.store.headPosition();
  if (head > deps.runner.position) await deps.runner.waitFor(head, 30_000);
  const readings = await readBalances(deps);
  const financeMembers = await financeMemberIds(deps.db);
  await handleCommand(
    deps.store,
    streams.balanceWarnings(),
    balanceWarningsDecider,
    { type: 'CheckBalances', data: { readings, financeMembers }, now: deps.now().toISOString() },
    { actor: 'system' },
  );
}

/**
 * Follows the log: a check soon after this process appends an event that moves a balance (read by
 * header only), and one each minute for what other processes appended. The warning's notifications
 * and alerts follow from its event (the notifications read model, the alert sender's outbox), so a
 * crash after the append loses none and sends none twice.
 */
export function followBalances(deps: Deps, log: (line: string) => void): { stop(): Promise<void>; check(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await checkBalances(deps);
      } while (again && !stopped);
    })()
      .catch((err: unknown) => log(`[balances] check failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => (running = null));
    return running;
  };
  const unhook = onOwnAppendsOf(deps.store, MOVES, () => void run());
  const timer = setInterval(() => void run(), SWEEP_MS);
  timer.unref();
  void run();
  return {
    check: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      unhook();
      await running;
    },
  };
}

/** GET /api/admin/ledger/balances: both balances, their thresholds and whether each is in warning. */
export const balanceRoutes = new Hono<AppEnv>().get('/api/admin/ledger/balances', withRole('finance'), async (c) => {
  const deps = c.var.deps;
  await caughtUp(deps);
  const [float, tax] = await readBalances(deps);
  const shown = (reading: BalanceReading) => ({ amount: formatPaise(reading.amountPaise), threshold: formatPaise(reading.thresholdPaise), warning: inWarning(reading) });
  const body: LedgerBalancesBody = { payoutFloat: shown(float!), taxPayable: shown(tax!) };
  return c.json(body);
});
