import { type Paise, type TaxDepositEvent, istDayOf, msg, taxQuarter } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

export interface TaxDeposit {
  depositId: string;
  quarter: string;
  bsrCode: string;
  serial: string;
  depositDate: string;
  amountPaise: Paise;
  recordedBy: string;
  recordedAt: string;
}

/** `tax-deposits-<quarter>`: the quarter's challans, in the order recorded. */
export interface TaxDepositsState {
  deposits: TaxDeposit[];
}

export type TaxDepositCommand = {
  type: 'RecordTaxDeposit';
  data: { depositId: string; quarter: string; bsrCode: string; serial: string; depositDate: string; amountPaise: Paise; by: string };
  now: string;
};

/** A challan is named by its BSR code, serial and day together (the bank's numbering restarts). */
const challanKey = (d: { bsrCode: string; serial: string; depositDate: string }) => `${d.bsrCode}/${d.serial}/${d.depositDate}`;

/**
 * Records a deposit of the tax withheld in a quarter. Each challan once: a retry with the same id
 * changes nothing, the same challan under another id is refused. The day is an IST day not in the
 * future and not before the quarter began (tax is deposited after it is deducted).
 */
export const taxDepositsDecider: Decider<TaxDepositsState, TaxDepositCommand, TaxDepositEvent> = {
  initialState: () => ({ deposits: [] }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'TaxDepositRecorded':
        return { deposits: [...state.deposits, { ...event.data }] };
      default:
        return assertNever(event.type);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'RecordTaxDeposit': {
        const d = command.data;
        if (state.deposits.some((p) => p.depositId === d.depositId)) return [];
        const quarter = taxQuarter(d.quarter);
        if (!quarter) throw new DomainError('invalid', msg('taxReturn.quarter'), { quarter: msg('taxReturn.quarter') });
        if (d.depositDate > istDayOf(command.now)) throw new DomainError('invalid', msg('taxReturn.futureDate'), { date: msg('taxReturn.futureDate') });
        if (d.depositDate < quarter.firstDay) {
          const text = msg('taxReturn.beforeQuarter', { quarter: d.quarter });
          throw new DomainError('invalid', text, { date: text });
        }
        if (state.deposits.some((p) => challanKey(p) === challanKey(d))) throw new DomainError('conflict', msg('taxReturn.duplicate'));
        return [
          {
            type: 'TaxDepositRecorded',
            data: {
              depositId: d.depositId,
              quarter: d.quarter,
              bsrCode: d.bsrCode,
              serial: d.serial,
              depositDate: d.depositDate,
              amountPaise: d.amountPaise,
              recordedBy: d.by,
              recordedAt: command.now,
            },
          },
        ];
      }
      default:
        return assertNever(command.type);
    }
  },
};
