// Helpers the review-screen specs share.
import { type RunningServer, type TestAccount, grantRole } from './harness.ts';
import { apiAs, registeredAccount, tx, waitForRole } from './helpers.ts';

/** A text of the review screen as the locale files have it, with its {{placeholders}} filled in. */
export const reviewText = (language: 'en' | 'hi', key: string, params: Record<string, string> = {}): string => tx(language, `review:${key}`, params);

export { apiAs };

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
