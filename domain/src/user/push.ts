import type { EventsOf, pushEvents } from '@kamai/contracts';
import { assertNever } from '../errors.ts';

export type PushEvent = EventsOf<typeof pushEvents>;

/**
 * Alerts outside the app. The subscriptions and choices are kept by the alert sender, which reads
 * these events in log order; no rule of the stream depends on them, and recording the same fact
 * twice is harmless (the sender keeps one row per endpoint and the last choice).
 */
export type PushCommand =
  | { type: 'SubscribePush'; data: { endpoint: string; p256dh: string; auth: string }; now: string }
  | { type: 'UnsubscribePush'; data: { endpoint: string; reason: 'user' | 'expired' }; now: string }
  | { type: 'ChoosePushAlerts'; data: { alerts: string[] }; now: string };

export function decidePush(command: PushCommand): PushEvent[] {
  switch (command.type) {
    case 'SubscribePush':
      return [{ type: 'PushSubscribed', data: { ...command.data, subscribedAt: command.now } }];
    case 'UnsubscribePush':
      return [{ type: 'PushUnsubscribed', data: { ...command.data, unsubscribedAt: command.now } }];
    case 'ChoosePushAlerts':
      return [{ type: 'PushAlertsChosen', data: { alerts: [...new Set(command.data.alerts)], chosenAt: command.now } }];
    default:
      return assertNever(command);
  }
}
