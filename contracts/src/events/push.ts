import * as v from 'valibot';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());

/**
 * Alerts outside the app, on the person's `user-<id>` stream. A subscription's endpoint and keys
 * name one browser of the person's: they are sealed (PERSONAL_FIELDS).
 */
export const pushEvents = {
  PushSubscribed: v.object({ endpoint: v.string(), p256dh: v.string(), auth: v.string(), subscribedAt: IsoTime }),
  /** `user`: the person turned alerts off on that browser; `expired`: the push service said it is gone. */
  PushUnsubscribed: v.object({ endpoint: v.string(), reason: v.picklist(['user', 'expired']), unsubscribedAt: IsoTime }),
  /** The alert kinds the person wants (PUSH_ALERT_KINDS), kept plain strings so a kind added later still reads. */
  PushAlertsChosen: v.object({ alerts: v.array(v.string()), chosenAt: IsoTime }),
};
