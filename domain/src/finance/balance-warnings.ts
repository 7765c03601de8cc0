import { type BalanceWarningEvent, WARNED_BALANCES, type WarnedBalance } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { assertNever } from '../errors.ts';

/** `balance-warnings`: per balance, the warning in force (if any) and how many were ever raised. */
export interface BalanceWarningsState {
  warnings: Record<WarnedBalance, { current: string | null; raised: number }>;
}

/** A balance as read now, with its threshold in force (0: the warning is off). */
export interface BalanceReading {
  balance: WarnedBalance;
  amountPaise: number;
  thresholdPaise: number;
}

export type BalanceWarningsCommand = {
  type: 'CheckBalances';
  data: { readings: readonly BalanceReading[]; financeMembers: readonly string[] };
  now: string;
};

/** Whether a balance is past its threshold: the float below it, the tax payable above it; a 0 threshold is off. */
export function inWarning(reading: BalanceReading): boolean {
  if (reading.thresholdPaise <= 0) return false;
  return reading.balance === 'payout_float' ? reading.amountPaise < reading.thresholdPaise : reading.amountPaise > reading.thresholdPaise;
}

/**
 * Each crossing is recorded once: a warning is raised only when none is in force for that balance,
 * and cleared only when one is, so a second check (another process, a restart) of the same balances
 * decides nothing. The id counts the balance's warnings, so the same crossing has the same id on
 * every process, and the notifications it raises are named by it.
 */
export const balanceWarningsDecider: Decider<BalanceWarningsState, BalanceWarningsCommand, BalanceWarningEvent> = {
  initialState: () => ({
    warnings: Object.fromEntries(WARNED_BALANCES.map((balance) => [balance, { current: null, raised: 0 }])) as BalanceWarningsState['warnings'],
  }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'BalanceWarningRaised': {
        const before = state.warnings[event.data.balance];
        return { warnings: { ...state.warnings, [event.data.balance]: { current: event.data.warningId, raised: before.raised + 1 } } };
      }
      case 'BalanceWarningCleared': {
        const before = state.warnings[event.data.balance];
        return { warnings: { ...state.warnings, [event.data.balance]: { ...before, current: null } } };
      }
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'CheckBalances': {
        const events: BalanceWarningEvent[] = [];
        for (const reading of command.data.readings) {
          const { current, raised } = state.warnings[reading.balance];
          const { balance, amountPaise, thresholdPaise } = reading;
          if (inWarning(reading) && current === null) {
            events.push({
              type: 'BalanceWarningRaised',
              data: { warningId: `${balance}-${raised + 1}`, balance, amountPaise, thresholdPaise, notify: [...command.data.financeMembers], raisedAt: command.now },
            });
          } else if (!inWarning(reading) && current !== null) {
            events.push({ type: 'BalanceWarningCleared', data: { warningId: current, balance, amountPaise, thresholdPaise, clearedAt: command.now } });
          }
        }
        return events;
      }
      default:
        return assertNever(command.type);
    }
  },
};
