import { type WebhookEvent, type WebhookEventKind, msg } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

/** `webhook-<id>`: one endpoint an admin registered, and whether it was deleted. */
export interface WebhookEndpointState {
  registered: boolean;
  deleted: boolean;
}

export type WebhookEndpointCommand =
  | {
      type: 'RegisterWebhookEndpoint';
      data: { endpointId: string; url: string; events: readonly WebhookEventKind[]; sealedSecret: string; by: string };
      now: string;
    }
  | { type: 'DeleteWebhookEndpoint'; data: { endpointId: string; by: string }; now: string }
  | { type: 'ReplayWebhookEndpoint'; data: { endpointId: string; fromPosition: number; by: string }; now: string };

function live(state: WebhookEndpointState): void {
  if (!state.registered) throw new DomainError('not_found', msg('webhook.notFound'));
  if (state.deleted) throw new DomainError('not_found', msg('webhook.deleted'));
}

/** An endpoint is registered once, deleted once; a deleted endpoint is replayed no more. */
export const webhookEndpointDecider: Decider<WebhookEndpointState, WebhookEndpointCommand, WebhookEvent> = {
  initialState: () => ({ registered: false, deleted: false }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'WebhookEndpointRegistered':
        return { registered: true, deleted: false };
      case 'WebhookEndpointDeleted':
        return { ...state, deleted: true };
      case 'WebhookReplayRequested':
        return state;
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'RegisterWebhookEndpoint': {
        const d = command.data;
        if (state.registered) throw new DomainError('conflict', msg('webhook.exists'));
        return [
          {
            type: 'WebhookEndpointRegistered',
            // Each kind once, in the contract's order, whatever order the admin ticked them in.
            data: { endpointId: d.endpointId, url: d.url, events: [...new Set(d.events)], sealedSecret: d.sealedSecret, registeredBy: d.by, registeredAt: command.now },
          },
        ];
      }
      case 'DeleteWebhookEndpoint':
        live(state);
        return [{ type: 'WebhookEndpointDeleted', data: { endpointId: command.data.endpointId, deletedBy: command.data.by, deletedAt: command.now } }];
      case 'ReplayWebhookEndpoint':
        live(state);
        return [
          {
            type: 'WebhookReplayRequested',
            data: { endpointId: command.data.endpointId, fromPosition: command.data.fromPosition, requestedBy: command.data.by, requestedAt: command.now },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
