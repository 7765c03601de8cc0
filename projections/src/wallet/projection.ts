import { EARNING_KINDS, ledgerText } from '@kamai/contracts';
import type { Projection } from '../projection.ts';
import { userIdOf } from '../users/projection.ts';

/** wallets (one row per user: balance and totals) and transactions (one row per ledger event). */
export const walletProjection: Projection = {
  name: 'wallet',
  // 2: transactions keyed by (position, id); data directories built by version 1 are rebuilt aside.
  // 3: transactions keyed by position alone (the rowid).
  version: 3,
  tables: {
    wallets: {
      columns: `user_id TEXT PRIMARY KEY, balance_paise INTEGER NOT NULL, total_earned_paise INTEGER NOT NULL,
        total_withdrawn_paise INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL`,
    },
    // Keyed by the event's position, as the rowid: one row per ledger event, so it refuses an entry
    // applied twice; positions only grow, so the table's pages fill in order (a key on the random entry
    // id put each row on a random page), and no separate index of the key is written. Rows are read
    // by user only.
    transactions: {
      columns: `id TEXT NOT NULL, user_id TEXT NOT NULL, type TEXT NOT NULL, direction TEXT NOT NULL, kind TEXT NOT NULL,
        amount_paise INTEGER NOT NULL, description TEXT NOT NULL, params TEXT, task_id TEXT, reference TEXT,
        by_user_id TEXT, position INTEGER PRIMARY KEY, created_at TEXT NOT NULL`,
      indexes: { user: 'user_id, position' },
    },
  },
  handles: ['UserRegistered', 'WalletCredited', 'WalletDebited'],
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
        });
        return;
      case 'WalletCredited': {
        const d = event.data;
        const userId = userIdOf(event.streamId);
        const earned = EARNING_KINDS.has(d.kind) ? d.amountPaise : 0;
        const refunded = d.kind === 'withdrawal_refund' ? d.amountPaise : 0;
        rows.update(
          'wallets',
          { user_id: userId },
          { set: { updated_at: d.creditedAt }, add: { balance_paise: d.amountPaise, total_earned_paise: earned, total_withdrawn_paise: -refunded } },
        );
        rows.insert('transactions', {
          id: d.entryId,
          user_id: userId,
          type: earned > 0 ? 'earned' : 'other',
          direction: 'credit',
          kind: d.kind,
          amount_paise: d.amountPaise,
          description: ledgerText(d),
          params: d.params ? JSON.stringify(d.params) : null,
          task_id: d.taskId ?? null,
          reference: d.reference ?? null,
          by_user_id: d.by ?? null,
          position: event.position,
          created_at: d.creditedAt,
        });
        return;
      }
      case 'WalletDebited': {
        const d = event.data;
        const userId = userIdOf(event.streamId);
        const withdrawn = d.kind === 'withdrawal' ? d.amountPaise : 0;
        rows.update(
          'wallets',
          { user_id: userId },
          { set: { updated_at: d.debitedAt }, add: { balance_paise: -d.amountPaise, total_withdrawn_paise: withdrawn } },
        );
        rows.insert('transactions', {
          id: d.entryId,
          user_id: userId,
          type: withdrawn > 0 ? 'withdrawn' : 'other',
          direction: 'debit',
          kind: d.kind,
          amount_paise: d.amountPaise,
          description: ledgerText(d),
          params: d.params ? JSON.stringify(d.params) : null,
          task_id: null,
          reference: d.reference ?? null,
          by_user_id: d.by ?? null,
          position: event.position,
          created_at: d.debitedAt,
        });
        return;
      }
      default:
        return;
    }
  },
};
