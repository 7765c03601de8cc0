import { EARNING_KINDS, WITHDRAWAL_DEBIT_KINDS, WITHDRAWAL_RETURN_KINDS } from '@kamai/contracts';
import type { Projection } from '../projection.ts';
import type { Rows } from '../rows.ts';
import { userIdOf } from '../users/projection.ts';

/**
 * wallets: one row per user, the balance and the totals. The user's history (GET /api/transactions)
 * is read from the journal's entries (queries.ts): the same rows finance audits, kept once.
 */
export const walletProjection: Projection = {
  name: 'wallet',
  // 2: transactions keyed by (position, id); data directories built by version 1 are rebuilt aside.
  // 3: transactions keyed by position alone (the rowid).
  // 4: no transactions table (the history is the journal's); wallets keep the position last applied.
  version: 4,
  tables: {
    wallets: {
      columns: `user_id TEXT PRIMARY KEY, balance_paise INTEGER NOT NULL, total_earned_paise INTEGER NOT NULL,
        total_withdrawn_paise INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, position INTEGER NOT NULL`,
    },
  },
  retired: ['transactions'],
  handles: ['UserRegistered', 'WalletCredited', 'WalletDebited'],
  // Ids, kinds, amounts and times: no sealed field.
  opens: [],
  apply(rows, event) {
    switch (event.type) {
      case 'UserRegistered':
        rows.insert('wallets', {
          user_id: event.data.userId,
          balance_paise: 0,
          total_earned_paise: 0,
          total_withdrawn_paise: 0,
          created_at: event.data.registeredAt,
          updated_at: event.data.registeredAt,
          position: event.position,
        });
        return;
      case 'WalletCredited': {
        const d = event.data;
        const earned = EARNING_KINDS.has(d.kind) ? d.amountPaise : 0;
        const refunded = WITHDRAWAL_RETURN_KINDS.has(d.kind) ? d.amountPaise : 0;
        move(rows, event.streamId, event.position, { balance_paise: d.amountPaise, total_earned_paise: earned, total_withdrawn_paise: -refunded }, d.creditedAt);
        return;
      }
      case 'WalletDebited': {
        const d = event.data;
        const withdrawn = WITHDRAWAL_DEBIT_KINDS.has(d.kind) ? d.amountPaise : 0;
        move(rows, event.streamId, event.position, { balance_paise: -d.amountPaise, total_earned_paise: 0, total_withdrawn_paise: withdrawn }, d.debitedAt);
        return;
      }
      default:
        return;
    }
  },
};

/**
 * Adds a ledger event's amounts to the user's wallet. Only a wallet not yet past the event's position
 * takes it: an event applied twice (or a credit on a stream with no registration) changes nothing
 * and throws, so no balance counts a rupee twice.
 */
function move(
  rows: Rows,
  streamId: string,
  position: number,
  add: { balance_paise: number; total_earned_paise: number; total_withdrawn_paise: number },
  at: string,
): void {
  const changed = rows.update('wallets', { user_id: userIdOf(streamId), position: { lt: position } }, { set: { updated_at: at, position }, add });
  if (changed !== 1) throw new Error(`wallets: the ledger event at position ${position} is not newer than ${streamId}'s wallet`);
}
