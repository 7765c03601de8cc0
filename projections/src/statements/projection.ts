import { erasedTextOf } from '../erasure.ts';
import type { Projection } from '../projection.ts';

const userOf = (streamId: string) => (streamId.startsWith('user-') ? streamId.slice('user-'.length) : null);

/**
 * The bank statement exceptions queue: each exception a statement's matching opened, and how it was
 * resolved (matched by hand, or written off by two finance members).
 */
export const statementsProjection: Projection = {
  name: 'statements',
  // 2: each exception's direction (what a write-off books against platform:bank).
  version: 2,
  tables: {
    statement_exceptions: {
      columns: `id TEXT PRIMARY KEY, run_id TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL, line INTEGER,
        date TEXT NOT NULL, amount_paise INTEGER NOT NULL, reference TEXT, status TEXT NOT NULL, note TEXT, note_by TEXT,
        requested_by TEXT, resolved_by TEXT, resolved_at TEXT, direction TEXT`,
      indexes: { status: 'status, position', run: 'run_id', note_by: 'note_by' },
    },
  },
  handles: ['BankStatementMatched', 'StatementExceptionMatchedByHand', 'StatementWriteOffRequested', 'StatementWrittenOff', 'UserErased'],
  apply(rows, event) {
    switch (event.type) {
      case 'BankStatementMatched': {
        const d = event.data;
        const below = d.closingBalancePaise !== null && d.closingBalancePaise < d.ledgerBalancePaise;
        const directionOf = (kind: string) =>
          kind === 'unmatched_debit' || (kind === 'balance_mismatch' && below) ? 'out' : kind === 'missing_payout' ? null : 'in';
        for (const e of d.exceptions) {
          rows.insert('statement_exceptions', {
            id: e.exceptionId,
            run_id: event.data.runId,
            position: event.position,
            kind: e.kind,
            line: e.line,
            date: e.date,
            amount_paise: e.amountPaise,
            reference: e.reference,
            status: 'open',
            note: null,
            note_by: null,
            requested_by: null,
            resolved_by: null,
            resolved_at: null,
            direction: directionOf(e.kind),
          });
        }
        return;
      }
      case 'StatementExceptionMatchedByHand': {
        const d = event.data;
        rows.update('statement_exceptions', { id: d.exceptionId }, { set: { status: 'matched', note: d.note, note_by: d.by, resolved_by: d.by, resolved_at: d.matchedAt } });
        return;
      }
      case 'StatementWriteOffRequested': {
        const d = event.data;
        rows.update('statement_exceptions', { id: d.exceptionId }, { set: { status: 'write_off_pending', note: d.note, note_by: d.by, requested_by: d.by } });
        return;
      }
      case 'StatementWrittenOff': {
        const d = event.data;
        rows.update('statement_exceptions', { id: d.exceptionId }, { set: { status: 'written_off', resolved_by: d.approvedBy, resolved_at: d.writtenOffAt } });
        return;
      }
      case 'UserErased': {
        // A note is sealed under its writer's key: once they are erased it reads as a rebuild decodes it.
        const subject = userOf(event.streamId);
        const note = erasedTextOf('StatementExceptionMatchedByHand', 'note');
        if (subject && note !== undefined) rows.update('statement_exceptions', { note_by: subject }, { set: { note } });
        return;
      }
      default:
        return;
    }
  },
};
