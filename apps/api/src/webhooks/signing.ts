import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyStore } from '../privacy/key-store.ts';
import { gcmOpenPacked, gcmSealPacked } from '../privacy/aead.ts';

/** The key-store system key that seals every endpoint's signing secret. */
const SECRET_KEY = 'webhook-secrets';

const aad = (endpointId: string) => Buffer.from(`webhook-secret\n${endpointId}`);

/** A new signing secret: 32 random bytes, as the text an endpoint's owner keeps (the HMAC key is this text). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The secret as the endpoint's event keeps it: AES-256-GCM under a system key of the key store,
 * bound to the endpoint id (a sealed secret copied onto another endpoint does not open). It must be
 * opened again to sign, so it is encrypted rather than hashed.
 */
export function sealWebhookSecret(keys: KeyStore, endpointId: string, secret: string): string {
  return gcmSealPacked(keys.systemKey(SECRET_KEY), secret, aad(endpointId)).toString('base64url');
}

export function openWebhookSecret(keys: KeyStore, endpointId: string, sealed: string): string {
  return gcmOpenPacked(keys.systemKey(SECRET_KEY), Buffer.from(sealed, 'base64url'), aad(endpointId)).toString('utf8');
}

/** `Kamai-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the secret>` (as Stripe, Razorpay and Cashfree sign). */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/**
 * What a receiver does (docs/api.md shows it): the signature is valid for this body and secret, and
 * its time is within `toleranceSeconds` of now. Used by the tests as a receiver would.
 */
export function verifyWebhookSignature(secret: string, body: string, header: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds || !parts.v1) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether an endpoint URL may be registered: https, or http on loopback when the server allows it (WEBHOOK_HTTP_LOOPBACK). */
export function webhookUrlAllowed(url: string, httpLoopback: boolean): boolean {
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return false;
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && httpLoopback && LOOPBACK_HOSTS.has(parsed.hostname);
}
