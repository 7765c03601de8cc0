// Helpers for the task and review API specs only; nothing in the app imports this file.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskBody, TaskInputRequest } from '@kamai/contracts';
import { expect } from 'vitest';
import type { UploadAnswer } from '../object-storage/index.ts';
import { TINY_PNG } from '../object-storage/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';

export { TINY_PNG, pngOfSize } from '../object-storage/testing.ts';

export const taskInput = (overrides: Partial<TaskInputRequest> = {}): TaskInputRequest => ({
  title: 'Rate PhonePe on Google Play',
  description: 'Give an honest rating and a one-line review.',
  rupeeReward: '25',
  estimatedTime: '3 min',
  taskType: 'rating',
  taskUrl: 'https://play.google.com/store/apps/details?id=com.phonepe.app',
  requiresProof: true,
  proofInstructions: 'Screenshot of your review',
  isActive: true,
  iconColor: '#3B82F6',
  ...overrides,
});

/** Creates a task through the admin API and returns its body. */
export async function createTaskAs(admin: TestClient, overrides: Partial<TaskInputRequest> = {}): Promise<TaskBody> {
  const res = await admin.post<TaskBody>('/api/admin/tasks', taskInput(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A test server with an admin and one task of theirs: what the task and suspension specs start from. */
export async function startServerWithTask(): Promise<{ server: TestServer; admin: TestClient & { userId: string }; task: TaskBody }> {
  const server = await startTestServer();
  const admin = await server.signUp({ roles: ['admin'] });
  return { server, admin, task: await createTaskAs(admin) };
}

/** The task's ETag as the admin read answers it (`"<stream revision>"`). */
export async function etagAs(admin: TestClient, taskId: string): Promise<string> {
  const res = await admin.get<TaskBody>(`/api/admin/tasks/${taskId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const etag = res.headers.get('etag');
  expect(etag).toMatch(/^"\d+"$/);
  return etag!;
}

/** An admin edit as the admin form makes it: read the task's ETag, then PUT with If-Match. */
export async function updateTaskAs(admin: TestClient, taskId: string, body: unknown) {
  return admin.request<any>('PUT', `/api/admin/tasks/${taskId}`, body, { 'if-match': await etagAs(admin, taskId) });
}

/** An admin delete as the admin screen makes it: read the task's ETag, then DELETE with If-Match. */
export async function deleteTaskAs(admin: TestClient, taskId: string) {
  return admin.request<any>('DELETE', `/api/admin/tasks/${taskId}`, undefined, { 'if-match': await etagAs(admin, taskId) });
}

/** The client's two upload steps: ask for a signed URL, PUT the bytes. Returns the answer and the PUT's status. */
export async function upload(server: Pick<TestServer, 'url'>, client: TestClient, bytes: Uint8Array = TINY_PNG, contentType = 'image/png') {
  const res = await client.post<UploadAnswer>('/api/objects/upload');
  expect(res.status).toBe(200);
  const put = await fetch(new URL(res.body.uploadURL, server.url), {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: bytes,
  });
  return { ...res.body, putStatus: put.status };
}

/** An uploaded proof image's address, ready for submit-proof. */
export async function uploadedImage(server: Pick<TestServer, 'url'>, client: TestClient): Promise<string> {
  const answer = await upload(server, client);
  expect(answer.putStatus).toBe(201);
  return answer.objectURL;
}

/**
 * Puts bytes straight into the disk store under a user's key, the way an S3 upload lands without
 * passing the server's checks: for what submit-proof itself must refuse.
 */
export async function objectBehindTheServersBack(server: TestServer, userId: string, bytes: Uint8Array): Promise<string> {
  const key = `uploads/${userId}/${randomUUID()}`;
  const file = join(server.dataDir, 'objects', ...key.split('/'));
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, bytes);
  return `/objects/${key}`;
}

export function submitProof(client: TestClient, taskId: string, proofImageUrl: string, proofDescription = 'Rated 5 stars and wrote a review') {
  return client.post(`/api/tasks/${taskId}/submit-proof`, { proofImageUrl, proofDescription });
}
