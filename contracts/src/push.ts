import * as v from 'valibot';
import type { NotificationKey } from './recorded-texts.ts';
import { refusal } from './refusal.ts';

/**
 * Alerts outside the app (Web Push, and SMS for money). A person chooses which kinds reach them;
 * `proof_needs_changes` and `appeal_decided` are reserved for the features that will send them.
 */
export const PUSH_ALERT_KINDS = [
  'proof_approved',
  'proof_needs_changes',
  'proof_rejected',
  'appeal_decided',
  'payout_paid',
  'payout_failed',
  'payout_returned',
  /** Finance only: a balance crossed its warning threshold (docs/month-end.md#balances-that-warn). */
  'payout_float_low',
  'tax_payable_high',
] as const;
export type PushAlertKind = (typeof PUSH_ALERT_KINDS)[number];

/** About money: sent at night too, and payout paid / failed also go by SMS. */
export const MONEY_ALERTS: readonly PushAlertKind[] = ['payout_paid', 'payout_failed', 'payout_returned', 'payout_float_low', 'tax_payable_high'];
export const SMS_ALERTS: readonly PushAlertKind[] = ['payout_paid', 'payout_failed', 'payout_float_low', 'tax_payable_high'];
/** The alerts only finance members receive (a balance's warning): the Profile lists them to finance alone. */
export const FINANCE_ALERTS: readonly PushAlertKind[] = ['payout_float_low', 'tax_payable_high'];

/**
 * Which in-app notification raises which alert: the alert follows the notification the decider
 * already records, so there is one fact and one place that decides it is told. A feature that adds
 * a notification key for a reserved alert adds its line here.
 */
export const ALERT_OF_NOTIFICATION: Partial<Record<NotificationKey, PushAlertKind>> = {
  task_approved: 'proof_approved',
  proof_rejected: 'proof_rejected',
  withdrawal_paid: 'payout_paid',
  withdrawal_rejected: 'payout_failed',
  withdrawal_failed: 'payout_failed',
  withdrawal_reversed: 'payout_returned',
  proof_needs_changes: 'proof_needs_changes',
  appeal_upheld: 'appeal_decided',
  appeal_overturned: 'appeal_decided',
  payout_float_low: 'payout_float_low',
  tax_payable_high: 'tax_payable_high',
};

/**
 * What an alert says, in both languages (it is rendered on the server: a push or an SMS reaches a
 * person who is not in the app). Short, and never the reviewer's or staff's free text.
 * Parameters: `amountPaise`, `taskTitle`, `reference`, `thresholdPaise`.
 */
export const PUSH_TEXTS: Record<PushAlertKind, Record<'en' | 'hi', { title: string; body: string }>> = {
  proof_approved: {
    en: { title: 'Task approved', body: '{amountPaise} added to your wallet for "{taskTitle}"' },
    hi: { title: 'काम मंज़ूर हुआ', body: '"{taskTitle}" के लिए {amountPaise} आपके वॉलेट में जुड़ गए' },
  },
  proof_needs_changes: {
    en: { title: 'Changes needed', body: 'Your proof for "{taskTitle}" needs a change. Open Kamai to send it again.' },
    hi: { title: 'बदलाव ज़रूरी है', body: '"{taskTitle}" के आपके सबूत में बदलाव चाहिए। दोबारा भेजने के लिए Kamai खोलें।' },
  },
  proof_rejected: {
    en: { title: 'Proof not accepted', body: 'Your proof for "{taskTitle}" was not accepted. Open Kamai to see why.' },
    hi: { title: 'सबूत नहीं माना गया', body: '"{taskTitle}" का आपका सबूत नहीं माना गया। वजह देखने के लिए Kamai खोलें।' },
  },
  appeal_decided: {
    en: { title: 'Appeal decided', body: 'Your appeal for "{taskTitle}" has been decided. Open Kamai to see the result.' },
    hi: { title: 'अपील पर फ़ैसला हुआ', body: '"{taskTitle}" की आपकी अपील पर फ़ैसला हो गया। नतीजा देखने के लिए Kamai खोलें।' },
  },
  payout_paid: {
    en: { title: 'Withdrawal paid', body: '{amountPaise} sent to your bank. Reference (UTR): {reference}' },
    hi: { title: 'निकासी का भुगतान हुआ', body: '{amountPaise} आपके बैंक में भेज दिए गए। रेफ़रेंस (UTR): {reference}' },
  },
  payout_failed: {
    en: { title: 'Withdrawal not sent', body: 'Your withdrawal of {amountPaise} was not sent. The amount is back in your wallet.' },
    hi: { title: 'निकासी नहीं भेजी गई', body: '{amountPaise} की आपकी निकासी नहीं भेजी गई। रकम आपके वॉलेट में वापस आ गई है।' },
  },
  payout_returned: {
    en: { title: 'Withdrawal returned', body: 'The bank returned your withdrawal of {amountPaise}. The amount is back in your wallet.' },
    hi: { title: 'निकासी लौट आई', body: 'बैंक ने {amountPaise} की आपकी निकासी लौटा दी। रकम आपके वॉलेट में वापस आ गई है।' },
  },
  payout_float_low: {
    en: { title: 'Payout float low', body: 'The payout float is {amountPaise}, below {thresholdPaise}. Fund the payout account.' },
    hi: { title: 'भुगतान खाते में रकम कम', body: 'भुगतान के लिए बची रकम {amountPaise} है, {thresholdPaise} से कम। भुगतान खाते में पैसे डालें।' },
  },
  tax_payable_high: {
    en: { title: 'Tax payable high', body: 'Tax withheld and not deposited is {amountPaise}, above {thresholdPaise}. Deposit it with a challan.' },
    hi: { title: 'जमा करने लायक टैक्स ज़्यादा', body: 'काटा गया, जमा न किया गया टैक्स {amountPaise} है, {thresholdPaise} से ज़्यादा। इसे चालान से जमा करें।' },
  },
};

/** Quiet hours in India (IST, UTC+05:30, no daylight saving): no alert but money from 22:00 to 08:00. */
const IST_OFFSET_MS = 330 * 60_000;
export const QUIET_FROM_HOUR = 22;
export const QUIET_UNTIL_HOUR = 8;

export function isQuietHour(at: Date): boolean {
  const hour = new Date(at.getTime() + IST_OFFSET_MS).getUTCHours();
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

/** When an alert raised at `at` may go: now, or at the next 08:00 IST during quiet hours. */
export function alertDueAt(kind: PushAlertKind, at: Date): Date {
  if (MONEY_ALERTS.includes(kind) || !isQuietHour(at)) return at;
  const ist = new Date(at.getTime() + IST_OFFSET_MS);
  const morning = Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate(), QUIET_UNTIL_HOUR) - IST_OFFSET_MS;
  return new Date(ist.getUTCHours() >= QUIET_FROM_HOUR ? morning + 24 * 3_600_000 : morning);
}

export const PUSH_MESSAGES = {
  endpoint: 'The push subscription endpoint must be an https address',
  keys: 'The push subscription keys are missing or malformed',
  alerts: 'Choose alerts from the list',
  notConfigured: 'Alerts outside the app are not available on this server',
} as const;

const Base64Url = (min: number, max: number) => v.pipe(v.string(refusal('push.keys')), v.regex(/^[A-Za-z0-9_-]+={0,2}$/, refusal('push.keys')), v.minLength(min, refusal('push.keys')), v.maxLength(max, refusal('push.keys')));

/** A browser's PushSubscription as `toJSON()` gives it (expirationTime is ignored). */
export const PushSubscriptionBody = v.object({
  endpoint: v.pipe(v.string(refusal('push.endpoint')), v.maxLength(2048, refusal('push.endpoint')), v.url(refusal('push.endpoint')), v.regex(/^https:\/\//, refusal('push.endpoint'))),
  keys: v.object(
    {
      /** The browser's P-256 public key (65 bytes uncompressed, base64url). */
      p256dh: Base64Url(80, 100),
      /** The 16-byte auth secret, base64url. */
      auth: Base64Url(16, 32),
    },
    refusal('push.keys'),
  ),
});
export type PushSubscriptionBody = v.InferOutput<typeof PushSubscriptionBody>;

/** DELETE /api/push/subscriptions: the subscription this browser ends. */
export const PushUnsubscribeBody = v.object({ endpoint: PushSubscriptionBody.entries.endpoint });
export type PushUnsubscribeBody = v.InferOutput<typeof PushUnsubscribeBody>;

export const PushPublicKeyAnswer = v.object({ publicKey: v.string() });
export type PushPublicKeyAnswer = v.InferOutput<typeof PushPublicKeyAnswer>;

/** The alerts a person wants (GET answer and PUT body of /api/push/alerts). */
export const PushAlertsBody = v.object({
  alerts: v.pipe(v.array(v.picklist(PUSH_ALERT_KINDS, refusal('push.alerts')), refusal('push.alerts')), v.maxLength(PUSH_ALERT_KINDS.length, refusal('push.alerts'))),
});
export type PushAlertsBody = v.InferOutput<typeof PushAlertsBody>;
