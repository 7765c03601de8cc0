import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { retryDelay } from './outbox.ts';
import { signWebhook, verifyWebhookSignature, webhookUrlAllowed } from './signing.ts';

describe('webhook signatures', () => {
  const body = '{"id":"d1","type":"funding.booked","position":7,"occurredAt":"2026-11-21T10:00:00.000Z","data":{"fundingId":"f1","amount":"10.00"}}';

  it('is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>"> under the secret text', () => {
    const expected = createHmac('sha256', 'whsec_abc').update(`1764000000.${body}`).digest('hex');
    expect(signWebhook('whsec_abc', body, 1764000000)).toBe(`t=1764000000,v1=${expected}`);
  });

  it('verifies only the same body, secret and a recent time', () => {
    const header = signWebhook('whsec_abc', body, 1764000000);
    expect(verifyWebhookSignature('whsec_abc', body, header, 1764000100)).toBe(true);
    expect(verifyWebhookSignature('whsec_abd', body, header, 1764000100)).toBe(false);
    expect(verifyWebhookSignature('whsec_abc', body.replace('10.00', '100.00'), header, 1764000100)).toBe(false);
    expect(verifyWebhookSignature('whsec_abc', body, header, 1764000000 + 301)).toBe(false);
    expect(verifyWebhookSignature('whsec_abc', body, 'garbage', 1764000000)).toBe(false);
  });
});

describe('webhook endpoint URLs', () => {
  it('are https; http only on loopback and only when allowed; never with credentials', () => {
    expect(webhookUrlAllowed('https://books.example.com/kamai', false)).toBe(true);
    expect(webhookUrlAllowed('http://books.example.com/kamai', true)).toBe(false);
    expect(webhookUrlAllowed('http://127.0.0.1:4000/hooks', false)).toBe(false);
    for (const loopback of ['http://127.0.0.1:4000/hooks', 'http://localhost/hooks', 'http://[::1]:9/hooks']) expect(webhookUrlAllowed(loopback, true), loopback).toBe(true);
    expect(webhookUrlAllowed('https://user:pass@books.example.com/kamai', false)).toBe(false);
  });
});

describe('webhook retries', () => {
  it('wait twice as long each time, at most an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(10_000, n))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelay(10_000, 20)).toBe(60 * 60 * 1000);
  });
});
