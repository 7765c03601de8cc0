import { randomUUID } from 'node:crypto';
import type { TaskBody, UserTaskBody } from '@kamai/contracts';
import { MAX_IMAGE_BYTES } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, TestServer } from '../testing/index.ts';
import {
  TINY_PNG,
  createTaskAs,
  deleteTaskAs,
  objectBehindTheServersBack,
  pngOfSize,
  startServerWithTask,
  submitProof,
  upload,
  uploadedImage,
} from './testing.ts';

describe('tasks and proof submission over HTTP', () => {
  let server: TestServer;
  let admin: TestClient;
  let task: TaskBody;

  beforeAll(async () => {
    ({ server, admin, task } = await startServerWithTask());
  });
  afterAll(() => server.close());

  it('answers 401 to a signed-out caller on every user task route', async () => {
    const anonymous = server.client();
    for (const res of [
      await anonymous.get('/api/tasks'),
      await anonymous.get('/api/user-tasks'),
      await anonymous.post(`/api/tasks/${task.id}/submit-proof`, { proofImageUrl: 5 }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
  });

  it('a user sees the active tasks and, before any submission, no statuses', async () => {
    const user = await server.signUp();
    const tasks = await user.get<TaskBody[]>('/api/tasks');
    expect(tasks.status).toBe(200);
    expect(tasks.body).toContainEqual(task);
    expect((await user.get('/api/user-tasks')).body).toEqual([]);
  });

  it('submits proof: 201 with the user task, and GET /api/user-tasks shows it Under Review', async () => {
    const user = await server.signUp();
    const image = await uploadedImage(server, user);
    const res = await submitProof(user, task.id, image, '  Rated 5 stars  ');
    expect(res.status).toBe(201);
    const expected: UserTaskBody = {
      id: expect.any(String),
      userId: user.userId,
      taskId: task.id,
      status: 'submitted',
      submissionId: res.body.id,
      taskTitle: task.title,
      rupeeReward: task.rupeeReward,
      // The server keeps a re-encoded copy under a key of its own; the upload as sent is removed.
      proofImageUrl: expect.stringMatching(new RegExp(`^/objects/proofs/${user.userId}/`)),
      proofDescription: 'Rated 5 stars',
      submittedAt: expect.any(String),
      completedAt: null,
      rupeesEarned: null,
      rejectionReason: null,
      reviewedAt: null,
      // Decided by then at the latest: the default auto-approval delay after it came in.
      decideBy: new Date(Date.parse(res.body.submittedAt) + 72 * 60 * 60 * 1000).toISOString(),
    };
    expect(res.body).toEqual(expected);
    expect((await user.get(res.body.proofImageUrl)).status).toBe(200);
    expect((await user.get(image)).status).toBe(404);
    expect((await user.get('/api/user-tasks')).body).toEqual([res.body]);
    // Another user's list is their own.
    const other = await server.signUp();
    expect((await other.get('/api/user-tasks')).body).toEqual([]);
  });

  it('refuses a second submission while the first is under review (409)', async () => {
    const user = await server.signUp();
    expect((await submitProof(user, task.id, await uploadedImage(server, user))).status).toBe(201);
    const again = await submitProof(user, task.id, await uploadedImage(server, user));
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Your proof for this task is already under review');
  });

  it('refuses missing fields, wrong types, a blank or over-long description (400)', async () => {
    const user = await server.signUp();
    const image = await uploadedImage(server, user);
    const url = `/api/tasks/${task.id}/submit-proof`;
    const cases: [unknown, string, RegExp][] = [
      [{}, 'proofImageUrl', /Please upload proof image and provide description/],
      [{ proofImageUrl: image }, 'proofDescription', /Please upload proof image and provide description/],
      [{ proofImageUrl: image, proofDescription: '  \n ' }, 'proofDescription', /Please upload proof image/],
      [{ proofImageUrl: image, proofDescription: 42 }, 'proofDescription', /Please upload proof image/],
      [{ proofImageUrl: ['x'], proofDescription: 'ok' }, 'proofImageUrl', /Please upload proof image/],
      [{ proofImageUrl: image, proofDescription: 'x'.repeat(501) }, 'proofDescription', /at most 500 characters/],
    ];
    for (const [body, field, message] of cases) {
      const res = await user.post(url, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.fields[field]).toMatch(message);
    }
    expect((await user.request('POST', url, 'not json', { 'content-type': 'application/json' })).status).toBe(400);
    // Nothing was recorded by the refusals; exactly 500 characters is fine.
    expect((await user.get('/api/user-tasks')).body).toEqual([]);
    const ok = await submitProof(user, task.id, image, 'y'.repeat(500));
    expect(ok.status).toBe(201);
    expect(ok.body.proofDescription).toHaveLength(500);
  });

  it('accepts only an image this same user uploaded', async () => {
    const user = await server.signUp();
    const other = await server.signUp();
    const refuse = async (image: string, message: RegExp) => {
      const res = await submitProof(user, task.id, image);
      expect(res.status, image).toBe(400);
      expect(res.body.error.fields.proofImageUrl).toMatch(message);
    };
    // Someone else's upload, even a good one.
    await refuse(await uploadedImage(server, other), /not uploaded by you/);
    // Not an address the upload step hands out.
    await refuse('https://evil.example/cat.png', /Upload the image first/);
    await refuse(`/objects/uploads/${user.userId}/../../secret`, /Upload the image first/);
    // An upload URL asked for but never used.
    await refuse((await user.post('/api/objects/upload')).body.objectURL, /not found/);
  });

  it('refuses oversized and non-image uploads, both at upload and at submission', async () => {
    const user = await server.signUp();
    // Through the signed upload the server refuses them on arrival, so nothing is stored.
    const big = await upload(server, user, pngOfSize(MAX_IMAGE_BYTES + 1));
    expect(big.putStatus).toBe(413);
    const text = await upload(server, user, new TextEncoder().encode('<svg onload=alert(1)>'), 'image/svg+xml');
    expect(text.putStatus).toBe(415);
    for (const { objectURL } of [big, text]) {
      const res = await submitProof(user, task.id, objectURL);
      expect(res.status).toBe(400);
      expect(res.body.error.fields.proofImageUrl).toMatch(/not found/);
    }
    // Objects that reached storage without the server's checks (as S3 uploads do) are refused here.
    const bigStored = await objectBehindTheServersBack(server, user.userId, pngOfSize(MAX_IMAGE_BYTES + 1));
    const bigRes = await submitProof(user, task.id, bigStored);
    expect(bigRes.status).toBe(400);
    expect(bigRes.body.error.fields.proofImageUrl).toBe('File size must be less than 5MB');
    const pdfStored = await objectBehindTheServersBack(server, user.userId, new TextEncoder().encode('%PDF-1.7 not an image'));
    const pdfRes = await submitProof(user, task.id, pdfStored);
    expect(pdfRes.status).toBe(400);
    expect(pdfRes.body.error.fields.proofImageUrl).toMatch(/Only PNG, JPEG, WebP or GIF/);
    // Exactly 5 MB is allowed.
    const limit = await objectBehindTheServersBack(server, user.userId, pngOfSize(MAX_IMAGE_BYTES));
    expect((await submitProof(user, task.id, limit)).status).toBe(201);
  });

  it('answers 404 for an unknown, malformed or deleted task', async () => {
    const user = await server.signUp();
    const image = await uploadedImage(server, user);
    for (const id of [randomUUID(), 'abc', '..%2F..%2Fadmin']) {
      const res = await submitProof(user, id, image);
      expect(res.status, id).toBe(404);
    }
    const doomed = await createTaskAs(admin);
    expect((await deleteTaskAs(admin, doomed.id)).status).toBe(200);
    const res = await submitProof(user, doomed.id, image);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Task not found');
  });

  it('refuses an inactive task (409) and a task that does not require proof (400)', async () => {
    const user = await server.signUp();
    const image = await uploadedImage(server, user);
    const inactive = await createTaskAs(admin, { isActive: false });
    const inactiveRes = await submitProof(user, inactive.id, image);
    expect(inactiveRes.status).toBe(409);
    expect(inactiveRes.body.error.message).toBe('This task is not available right now');
    const noProof = await createTaskAs(admin, { requiresProof: false });
    const noProofRes = await submitProof(user, noProof.id, image);
    expect(noProofRes.status).toBe(400);
    expect(noProofRes.body.error.message).toBe('This task does not need proof');
  });

  it('the owner can view their proof image; other users cannot', async () => {
    const user = await server.signUp();
    const image = await uploadedImage(server, user);
    const mine = await user.get(image);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/png');
    expect(mine.headers.get('content-length')).toBe(String(TINY_PNG.length));
    const other = await server.signUp();
    expect((await other.get(image)).status).toBe(403);
  });
});
