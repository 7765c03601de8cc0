import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_DELIVERY_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, type WebhookPayload } from '@kamai/contracts';
import { verifyWebhookSignature } from './signing.ts';

export interface ReceivedDelivery {
  id: string;
  body: string;
  payload: WebhookPayload;
  headers: IncomingHttpHeaders;
  /** The answer the receiver gave. */
  status: number;
  at: number;
}

/**
 * A finance tool's receiver, on loopback: answers 500 to its first `failFirst` requests, 200 after,
 * and keeps every request it got (the raw body as sent, for checking the signature).
 */
export async function startReceiver(options: { failFirst?: number } = {}) {
  const got: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = got.length < (options.failFirst ?? 0) ? 500 : 200;
      got.push({ id: String(req.headers[WEBHOOK_DELIVERY_ID_HEADER.toLowerCase()]), body, payload: JSON.parse(body) as WebhookPayload, headers: req.headers, status, at: Date.now() });
      res.writeHead(status).end();
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    got,
    /** The deliveries accepted (answered 200). */
    accepted: () => got.filter((d) => d.status === 200),
    /** Resolves once `done()` holds, checked at each request; fails after `ms`. */
    async until(done: () => boolean, ms = 30_000): Promise<void> {
      if (done()) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: not done after ${ms} ms; got ${got.length} requests`));
        }, ms);
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    /** Whether a delivery's signature is valid under the secret, as a receiver checks it. */
    signedBy: (delivery: ReceivedDelivery, secret: string) => verifyWebhookSignature(secret, delivery.body, String(delivery.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]), Math.floor(delivery.at / 1000)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
