/** webhook_endpoints: every endpoint an admin registered (deleted ones keep their row, with deleted_at). */
export interface WebhookEndpointsTable {
  id: string;
  url: string;
  /** JSON array of WebhookEventKind. */
  events: string;
  /** The signing secret, sealed (WebhookEndpointRegistered.sealedSecret). */
  sealed_secret: string;
  created_by: string;
  created_at: string;
  /** Global position of the registration: events after it are delivered. */
  position: number;
  deleted_at: string | null;
}

/**
 * webhook_events: every event of a webhook kind, as the body's `data` (ids and amounts only): what a
 * replay from a position queues again, also for events before an endpoint was registered.
 */
export interface WebhookEventsTable {
  position: number;
  event_id: string;
  kind: string;
  occurred_at: string;
  /** JSON of WebhookPayload['data']. */
  data: string;
}

/**
 * webhook_deliveries: one per (endpoint, event), named by its delivery id. `queued_position` is the
 * position of what queued it last (the event itself, or a replay): the sender picks up rows past the
 * last one it saw, and a replay moves it on, so the same delivery is sent again.
 */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_position: number;
  kind: string;
  /** The exact JSON text sent (the signature is over these bytes). */
  body: string;
  queued_position: number;
  created_at: string;
}

/** webhook_withdrawals: what later withdrawal events lack (whose it is, its amount), for their bodies. */
export interface WebhookWithdrawalsTable {
  withdrawal_id: string;
  user_id: string;
  amount_paise: number;
}
