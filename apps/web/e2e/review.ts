// Helpers the review-screen specs share.
import { readFileSync } from 'node:fs';
import { type RunningServer, type TestAccount, grantRole } from './harness.ts';
import { registeredAccount, sessionCookie, waitForRole } from './helpers.ts';

type Texts = { [key: string]: string | Texts };

/** A text of the review screen as the locale files have it, with its {{placeholders}} filled in. */
export function reviewText(language: 'en' | 'hi', key: string, params: Record<string, string> = {}): string {
  const texts = JSON.parse(readFileSync(new URL(`../src/locales/${language}/review.json`, import.meta.url), 'utf8')) as Texts;
  const value = key.split('.').reduce<string | Texts | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), texts);
  if (typeof value !== 'string') throw new Error(`no text ${language}/${key}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
}

/** One API call as `account` (JSON, or raw bytes for an upload PUT); anything but 2xx throws. */
export async function apiAs(
  server: RunningServer,
  account: TestAccount,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { cookie: await sessionCookie(server, account), Origin: server.baseUrl, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : body instanceof Uint8Array ? Buffer.from(body) : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** An admin (who sets tasks) and a reviewer (who decides proofs), registered and with their roles. */
export async function reviewStaff(server: RunningServer): Promise<{ admin: TestAccount; reviewer: TestAccount }> {
  const admin = await registeredAccount(server, 'Anil', 'Verma');
  const reviewer = await registeredAccount(server, 'Rekha', 'Verma');
  grantRole(server, admin.mobile, 'admin');
  grantRole(server, reviewer.mobile, 'reviewer');
  await waitForRole(server, admin, 'admin');
  await waitForRole(server, reviewer, 'reviewer');
  return { admin, reviewer };
}

/** The worker's two upload steps and submit-proof, as the app makes them. */
export async function sendProof(server: RunningServer, worker: TestAccount, taskId: string, picture: Uint8Array, contentType = 'image/png'): Promise<void> {
  const { uploadURL, objectURL } = (await (await apiAs(server, worker, 'POST', '/api/objects/upload')).json()) as { uploadURL: string; objectURL: string };
  const target = new URL(uploadURL, server.baseUrl);
  await apiAs(server, worker, 'PUT', target.pathname + target.search, picture, { 'Content-Type': contentType });
  await apiAs(server, worker, 'POST', `/api/tasks/${taskId}/submit-proof`, { proofImageUrl: objectURL, proofDescription: 'Done' });
}
