import type { KamaiEvent } from '@kamai/contracts';
import { describe, it } from 'vitest';
import { projectionSpec } from '../testing.ts';
import { webhookDeliveryId, webhooksProjection } from './projection.ts';

const at = '2026-11-21T10:00:00.000Z';
const e = (stream: string, event: KamaiEvent) => ({ stream, event });
const registered = (endpointId: string, events: Array<'withdrawal.requested' | 'withdrawal.paid' | 'funding.booked'>) =>
  e(`webhook-${endpointId}`, { type: 'WebhookEndpointRegistered', data: { endpointId, url: `https://${endpointId}.example/hooks`, events, sealedSecret: 'sealed', registeredBy: 'admin', registeredAt: at } });
const requested = (withdrawalId: string, amountPaise: number) =>
  e('user-u1', { type: 'WithdrawalRequested', data: { withdrawalId, amountPaise, destination: { kind: 'upi', upiId: 'asha@okaxis' }, requestedAt: at } });

describe('webhooks read model', () => {
  it('queues one delivery per event and endpoint that asked for its kind, with ids and amounts only; a replay queues them again under the same ids', async () => {
    const paidBody = (endpoint: string) =>
      `{"id":"${webhookDeliveryId(endpoint, 'evt-4')}","type":"withdrawal.paid","position":4,"occurredAt":"${at}","data":{"userId":"u1","withdrawalId":"w1","amount":"150.00"}}`;
    await projectionSpec(webhooksProjection)
      .given([
        registered('e1', ['withdrawal.requested', 'withdrawal.paid']),
        registered('e2', ['funding.booked', 'withdrawal.paid']),
        requested('w1', 15_000),
        // An older WithdrawalPaid carries no amount: the request's is used.
        e('user-u1', { type: 'WithdrawalPaid', data: { withdrawalId: 'w1', reference: 'UTR12345678', paidBy: 'f1', paidAt: at } }),
        // Waiting for a second member: not booked, nothing to send; its approval is.
        e('funding-f1', { type: 'BankFundingRecorded', data: { fundingId: 'f1', amountPaise: 500_000, reference: 'NEFT1', valueDate: '2026-11-21', recordedBy: 'f1', recordedAt: at, approvalRequired: true } }),
        e('funding-f1', { type: 'BankFundingApproved', data: { fundingId: 'f1', amountPaise: 500_000, reference: 'NEFT1', valueDate: '2026-11-21', approvedBy: 'f2', approvedAt: at } }),
        e('webhook-e1', { type: 'WebhookEndpointDeleted', data: { endpointId: 'e1', deletedBy: 'admin', deletedAt: at } }),
        requested('w2', 20_000),
        e('webhook-e2', { type: 'WebhookReplayRequested', data: { endpointId: 'e2', fromPosition: 4, requestedBy: 'admin', requestedAt: at } }),
      ])
      .then({
        webhook_endpoints: [
          { id: 'e1', deleted_at: at, position: 1 },
          { id: 'e2', deleted_at: null, position: 2 },
        ],
        webhook_deliveries: [
          { id: webhookDeliveryId('e1', 'evt-3'), endpoint_id: 'e1', kind: 'withdrawal.requested', queued_position: 3 },
          { id: webhookDeliveryId('e1', 'evt-4'), endpoint_id: 'e1', kind: 'withdrawal.paid', queued_position: 4, body: paidBody('e1') },
          // Queued first by the event, then again by the replay (position 9), with the same body.
          { id: webhookDeliveryId('e2', 'evt-4'), endpoint_id: 'e2', kind: 'withdrawal.paid', queued_position: 9, body: paidBody('e2') },
          { id: webhookDeliveryId('e2', 'evt-6'), endpoint_id: 'e2', kind: 'funding.booked', queued_position: 9 },
        ],
        webhook_events: [
          { position: 3, kind: 'withdrawal.requested', data: '{"userId":"u1","withdrawalId":"w1","amount":"150.00"}' },
          { position: 4, kind: 'withdrawal.paid' },
          { position: 6, kind: 'funding.booked', data: '{"fundingId":"f1","amount":"5000.00"}' },
          { position: 8, kind: 'withdrawal.requested' },
        ],
      });
  });
});
