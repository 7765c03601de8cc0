import { createHash } from 'node:crypto';
import { type WebhookEventKind, type WebhookPayload, formatPaise } from '@kamai/contracts';
import type { Projection, ProjectedEvent } from '../projection.ts';
import type { Rows } from '../rows.ts';

const USER_STREAM = 'user-';

/**
 * The delivery id of an event to an endpoint: the same on every retry, replay and rebuild (made of
 * the two ids), shaped as a UUID so receivers can keep it in a uuid column.
 */
export function webhookDeliveryId(endpointId: string, eventId: string): string {
  const hex = createHash('sha256').update(`${endpointId}\n${eventId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface Outgoing {
  kind: WebhookEventKind;
  occurredAt: string;
  data: WebhookPayload['data'];
}

const userOf = (event: ProjectedEvent) => (event.streamId.startsWith(USER_STREAM) ? event.streamId.slice(USER_STREAM.length) : undefined);

/** The withdrawal's owner and amount, as its request recorded them. */
function withdrawal(rows: Rows, withdrawalId: string, amountPaise?: number): WebhookPayload['data'] {
  const known = rows.get('webhook_withdrawals', { withdrawal_id: withdrawalId }, ['user_id', 'amount_paise']);
  const amount = amountPaise ?? known?.amount_paise;
  return { ...(known && { userId: known.user_id }), withdrawalId, ...(amount !== undefined && { amount: formatPaise(amount) }) };
}

/** What an event says to a finance tool, or null when it is not of a webhook kind. Ids and amounts only. */
function outgoing(rows: Rows, event: ProjectedEvent): Outgoing | null {
  switch (event.type) {
    case 'WithdrawalRequested': {
      const d = event.data;
      const userId = userOf(event) ?? '';
      rows.upsert('webhook_withdrawals', { withdrawal_id: d.withdrawalId, user_id: userId, amount_paise: d.amountPaise }, { conflict: ['withdrawal_id'] });
      return { kind: 'withdrawal.requested', occurredAt: d.requestedAt, data: { userId, withdrawalId: d.withdrawalId, amount: formatPaise(d.amountPaise) } };
    }
    case 'WithdrawalProcessing':
      return { kind: 'withdrawal.sent_to_bank', occurredAt: event.data.processingAt, data: { ...withdrawal(rows, event.data.withdrawalId), batchId: event.data.batchId } };
    case 'WithdrawalPaid':
      return { kind: 'withdrawal.paid', occurredAt: event.data.paidAt, data: withdrawal(rows, event.data.withdrawalId, event.data.amountPaise) };
    // The bank's reason is free text about a person: it stays out of the body.
    case 'WithdrawalFailed':
      return { kind: 'withdrawal.failed', occurredAt: event.data.failedAt, data: withdrawal(rows, event.data.withdrawalId) };
    case 'WithdrawalReversed':
      return { kind: 'withdrawal.returned', occurredAt: event.data.reversedAt, data: withdrawal(rows, event.data.withdrawalId) };
    case 'WalletCredited':
    case 'WalletDebited': {
      if (event.data.kind !== 'adjustment') return null;
      const credit = event.type === 'WalletCredited';
      return {
        kind: 'adjustment.booked',
        occurredAt: credit ? event.data.creditedAt : event.data.debitedAt,
        data: { ...(userOf(event) !== undefined && { userId: userOf(event) }), adjustmentId: event.data.entryId, direction: credit ? 'credit' : 'debit', amount: formatPaise(event.data.amountPaise) },
      };
    }
    case 'BankFundingRecorded':
      if (event.data.approvalRequired) return null;
      return { kind: 'funding.booked', occurredAt: event.data.recordedAt, data: { fundingId: event.data.fundingId, amount: formatPaise(event.data.amountPaise) } };
    case 'BankFundingApproved':
      return { kind: 'funding.booked', occurredAt: event.data.approvedAt, data: { fundingId: event.data.fundingId, amount: formatPaise(event.data.amountPaise) } };
    case 'ProofApproved': {
      const d = event.data;
      return {
        kind: 'proof.approved',
        occurredAt: d.approvedAt,
        data: { ...(userOf(event) !== undefined && { userId: userOf(event) }), submissionId: d.submissionId, taskId: d.taskId, amount: formatPaise(d.rewardPaise) },
      };
    }
    default:
      return null;
  }
}

function queue(rows: Rows, endpointId: string, event: { position: number; event_id: string; kind: string; occurred_at: string; data: string }, queuedPosition: number, at: string) {
  const id = webhookDeliveryId(endpointId, event.event_id);
  // Built by hand so the bytes are fixed here, once: every retry sends (and signs) exactly these.
  const body = `{"id":${JSON.stringify(id)},"type":${JSON.stringify(event.kind)},"position":${event.position},"occurredAt":${JSON.stringify(event.occurred_at)},"data":${event.data}}`;
  rows.upsert(
    'webhook_deliveries',
    { id, endpoint_id: endpointId, event_position: event.position, kind: event.kind, body, queued_position: queuedPosition, created_at: at },
    { conflict: ['id'], set: ['queued_position'] },
  );
}

/**
 * Webhooks: the endpoints, and one delivery per event of a kind an endpoint asked for. The sender
 * (apps/api/src/webhooks/sender.ts) sends what this queues; its own file records what was sent, so a
 * rebuild of this read model (which queues the same ids at the same positions) sends nothing again.
 */
export const webhooksProjection: Projection = {
  name: 'webhooks',
  version: 1,
  tables: {
    webhook_endpoints: {
      columns:
        'id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, sealed_secret TEXT NOT NULL, created_by TEXT NOT NULL, created_at TEXT NOT NULL, position INTEGER NOT NULL, deleted_at TEXT',
    },
    webhook_events: { columns: 'position INTEGER PRIMARY KEY, event_id TEXT NOT NULL, kind TEXT NOT NULL, occurred_at TEXT NOT NULL, data TEXT NOT NULL' },
    webhook_deliveries: {
      columns:
        'id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, event_position INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL, queued_position INTEGER NOT NULL, created_at TEXT NOT NULL',
      indexes: { queued: 'queued_position', endpoint: 'endpoint_id, event_position' },
    },
    webhook_withdrawals: { columns: 'withdrawal_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, amount_paise INTEGER NOT NULL' },
  },
  handles: [
    'WebhookEndpointRegistered',
    'WebhookEndpointDeleted',
    'WebhookReplayRequested',
    'WithdrawalRequested',
    'WithdrawalProcessing',
    'WithdrawalPaid',
    'WithdrawalFailed',
    'WithdrawalReversed',
    'WalletCredited',
    'WalletDebited',
    'BankFundingRecorded',
    'BankFundingApproved',
    'ProofApproved',
  ],
  // A webhook's body carries ids and amounts only: no sealed field.
  opens: [],
  apply(rows, event) {
    switch (event.type) {
      case 'WebhookEndpointRegistered': {
        const d = event.data;
        rows.upsert(
          'webhook_endpoints',
          { id: d.endpointId, url: d.url, events: JSON.stringify(d.events), sealed_secret: d.sealedSecret, created_by: d.registeredBy, created_at: d.registeredAt, position: event.position, deleted_at: null },
          { conflict: ['id'] },
        );
        return;
      }
      case 'WebhookEndpointDeleted':
        rows.update('webhook_endpoints', { id: event.data.endpointId }, { set: { deleted_at: event.data.deletedAt } });
        return;
      case 'WebhookReplayRequested': {
        const endpoint = rows.get('webhook_endpoints', { id: event.data.endpointId }, ['events', 'deleted_at']);
        if (!endpoint || endpoint.deleted_at !== null) return;
        const kinds = new Set<string>(JSON.parse(endpoint.events) as string[]);
        // Replays are rare and a scan is in rowid (= position) order: no range index needed.
        for (const past of rows.all('webhook_events', {}, ['position', 'event_id', 'kind', 'occurred_at', 'data'])) {
          if (past.position >= event.data.fromPosition && kinds.has(past.kind)) queue(rows, event.data.endpointId, past, event.position, event.data.requestedAt);
        }
        return;
      }
      default: {
        const out = outgoing(rows, event);
        if (!out) return;
        const row = { position: event.position, event_id: event.id, kind: out.kind, occurred_at: out.occurredAt, data: JSON.stringify(out.data) };
        rows.insert('webhook_events', row);
        for (const endpoint of rows.all('webhook_endpoints', { deleted_at: null }, ['id', 'events'])) {
          if ((JSON.parse(endpoint.events) as string[]).includes(out.kind)) queue(rows, endpoint.id, row, event.position, out.occurredAt);
        }
      }
    }
  },
};
