import { randomUUID } from 'node:crypto';
import type { KycDocumentBody, KycQueueItem, NotificationBody, TransactionBody } from '@kamai/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from '../object-storage/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';
import { kycUpload, photo, submitDocument } from './testing.ts';

type Client = TestClient & { mobile: string; userId: string };

let server: TestServer;
let reviewer: Client;
let seed = 0;
const nextSeed = () => (seed += 2);

beforeAll(async () => {
  server = await startTestServer();
  reviewer = await server.signUp({ roles: ['reviewer'], firstName: 'Kavya' });
});
afterAll(async () => {
  await server.close();
});

const submit = (client: TestClient, documentType: 'pan' | 'voter_id') => submitDocument(server.url, client, documentType, nextSeed());
const approve = (id: string, by: TestClient = reviewer) => by.post(`/api/admin/kyc/${id}/approve`);
const reject = (id: string, reason: unknown, by: TestClient = reviewer) => by.post(`/api/admin/kyc/${id}/reject`, { reason });

describe('KYC over HTTP', () => {
  it('answers 401 signed out, and reviewer routes 403 to users, admins and finance (roles do not imply each other)', async () => {
    const anonymous = server.client();
    for (const [method, path] of [
      ['GET', '/api/kyc/documents'],
      ['POST', '/api/kyc/documents'],
      ['POST', '/api/kyc/complete'],
      ['GET', '/api/admin/kyc'],
      ['POST', `/api/admin/kyc/${randomUUID()}/approve`],
      ['POST', `/api/admin/kyc/${randomUUID()}/reject`],
    ] as const) {
      const res = await anonymous.request(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, path).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
    for (const roles of [[], ['admin'], ['finance']] as const) {
      const staff = await server.signUp({ roles: [...roles] });
      expect((await staff.get('/api/admin/kyc')).status).toBe(403);
      expect((await staff.post(`/api/admin/kyc/${randomUUID()}/approve`)).status).toBe(403);
      expect((await staff.post(`/api/admin/kyc/${randomUUID()}/reject`, { reason: 'x' })).status).toBe(403);
    }
    expect((await reviewer.get('/api/admin/kyc')).status).toBe(200);
  });

  it('a new user has no documents and kycStatus pending', async () => {
    const user = await server.signUp();
    expect((await user.get('/api/kyc/documents')).body).toEqual([]);
    expect((await user.get('/api/auth/user')).body.kycStatus).toBe('pending');
  });

  it('uploads take an optional purpose: kyc images go apart, a bad purpose is a 400', async () => {
    const user = await server.signUp();
    expect((await user.post('/api/objects/upload')).body.objectURL).toMatch(new RegExp(`^/objects/uploads/${user.userId}/`));
    expect((await user.post('/api/objects/upload', { purpose: 'proof' })).body.objectURL).toMatch(/^\/objects\/uploads\//);
    expect((await user.post('/api/objects/upload', { purpose: 'kyc' })).body.objectURL).toMatch(new RegExp(`^/objects/kyc-uploads/${user.userId}/`));
    for (const body of [{ purpose: 'passport' }, { purpose: 5 }, '[]', '{"purpose":']) {
      const res = await user.request('POST', '/api/objects/upload', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('submits a document: 201, re-encoded images without camera metadata, readable only by the owner and reviewers', async () => {
    const user = await server.signUp();
    const original = await photo(nextSeed());
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const front = await kycUpload(server.url, user, original);
    const back = await kycUpload(server.url, user, await photo(nextSeed()));
    const res = await user.post<KycDocumentBody>('/api/kyc/documents', { documentType: 'pan', frontImageUrl: front, backImageUrl: back });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      documentType: 'pan',
      frontImageUrl: expect.stringMatching(new RegExp(`^/objects/kyc/${user.userId}/`)),
      backImageUrl: expect.stringMatching(new RegExp(`^/objects/kyc/${user.userId}/`)),
      status: 'pending',
      rejectionReason: null,
      uploadedAt: expect.any(String),
      reviewedAt: null,
      panNumber: null,
    });
    expect((await user.get('/api/kyc/documents')).body).toEqual([res.body]);

    const image = await user.get(res.body.frontImageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('cache-control')).toBe('private, no-store');
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    const stored = await fetchBytes(user, res.body.frontImageUrl);
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([64, 40]);
    // The upload as sent (with its GPS position) is gone.
    expect((await user.get(front)).status).toBe(404);

    expect((await reviewer.get(res.body.backImageUrl)).status).toBe(200);
    for (const roles of [[], ['admin'], ['finance']] as const) {
      const other = await server.signUp({ roles: [...roles] });
      const refused = await other.get(res.body.frontImageUrl);
      expect(refused.status, roles.join()).toBe(404);
      expect(refused.body.error.code).toBe('not_found');
    }
  });

  it('refuses a bad type, a missing image, a proof upload, another user\'s upload and undecodable bytes (400)', async () => {
    const user = await server.signUp();
    const good = await kycUpload(server.url, user, await photo(nextSeed()));
    const cases: Array<[unknown, string, RegExp]> = [
      [{ documentType: 'aadhaar', frontImageUrl: good, backImageUrl: good }, 'documentType', /pan or voter_id/],
      [{ documentType: 'pan', frontImageUrl: good }, 'backImageUrl', /front and the back/],
      [{ documentType: 'pan', frontImageUrl: '  ', backImageUrl: good }, 'frontImageUrl', /front and the back/],
      [{ documentType: 'pan', frontImageUrl: 7, backImageUrl: good }, 'frontImageUrl', /front and the back/],
    ];
    for (const [body, field, message] of cases) {
      const res = await user.post('/api/kyc/documents', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.fields[field]).toMatch(message);
    }
    const proof = await kycUpload(server.url, user, await photo(nextSeed()), 'proof');
    const proofRes = await user.post('/api/kyc/documents', { documentType: 'pan', frontImageUrl: proof, backImageUrl: good });
    expect(proofRes.status).toBe(400);
    expect(proofRes.body.error.fields.frontImageUrl).toBe('That image was not uploaded for KYC');

    const stranger = await server.signUp();
    const theirs = await kycUpload(server.url, stranger, await photo(nextSeed()));
    const theirsRes = await user.post('/api/kyc/documents', { documentType: 'pan', frontImageUrl: good, backImageUrl: theirs });
    expect(theirsRes.status).toBe(400);
    expect(theirsRes.body.error.fields.backImageUrl).toBe('That image was not uploaded by you');

    // Sniffs as a PNG but does not decode: the server keeps only real images.
    const fake = Buffer.concat([TINY_PNG.subarray(0, 16), Buffer.from('not really an image at all, just bytes')]);
    const fakeURL = await kycUpload(server.url, user, fake);
    const fakeRes = await user.post('/api/kyc/documents', { documentType: 'pan', frontImageUrl: good, backImageUrl: fakeURL });
    expect(fakeRes.status).toBe(400);
    expect(fakeRes.body.error.fields.backImageUrl).toMatch(/not a readable image/);

    // Nothing was recorded, and the good upload is still usable.
    expect((await user.get('/api/kyc/documents')).body).toEqual([]);
    const second = await kycUpload(server.url, user, await photo(nextSeed()));
    expect((await user.post('/api/kyc/documents', { documentType: 'pan', frontImageUrl: good, backImageUrl: second })).status).toBe(201);
  });

  it('locks a document while pending and once approved (409 kyc_document_locked); a rejected one can be sent again', async () => {
    const user = await server.signUp();
    const pan = await submit(user, 'pan');
    const again = async () => {
      const front = await kycUpload(server.url, user, await photo(nextSeed()));
      const back = await kycUpload(server.url, user, await photo(nextSeed()));
      return user.post('/api/kyc/documents', { documentType: 'pan', frontImageUrl: front, backImageUrl: back });
    };
    const pending = await again();
    expect(pending.status).toBe(409);
    expect(pending.body.error).toMatchObject({ code: 'kyc_document_locked', message: 'This document is already under review' });

    expect((await reject(pan.id, 'Photo is blurry')).status).toBe(200);
    expect((await user.get('/api/kyc/documents')).body).toEqual([
      expect.objectContaining({ id: pan.id, status: 'rejected', rejectionReason: 'Photo is blurry', reviewedAt: expect.any(String) }),
    ]);
    const resent = await again();
    expect(resent.status).toBe(201);
    expect((await user.get('/api/kyc/documents')).body).toEqual([resent.body]);

    expect((await approve(resent.body.id)).status).toBe(200);
    const approved = await again();
    expect(approved.status).toBe(409);
    expect(approved.body.error).toMatchObject({ code: 'kyc_document_locked', message: 'This document is already approved' });
  });

  it('the reviewer queue: oldest first, name, mobile, both images, and who else sent the same picture', async () => {
    const asha = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
    const ravi = await server.signUp({ firstName: 'Ravi', lastName: 'Kumar' });
    const shared = await photo(nextSeed());
    const ashaDoc = await asha.post<KycDocumentBody>('/api/kyc/documents', {
      documentType: 'voter_id',
      frontImageUrl: await kycUpload(server.url, asha, shared),
      backImageUrl: await kycUpload(server.url, asha, await photo(nextSeed())),
    });
    const raviDoc = await ravi.post<KycDocumentBody>('/api/kyc/documents', {
      documentType: 'pan',
      frontImageUrl: await kycUpload(server.url, ravi, await photo(nextSeed())),
      backImageUrl: await kycUpload(server.url, ravi, shared),
    });
    const queue = (await reviewer.get<KycQueueItem[]>('/api/admin/kyc?status=pending')).body;
    const ids = queue.map((item) => item.id);
    expect(ids.indexOf(ashaDoc.body.id)).toBeLessThan(ids.indexOf(raviDoc.body.id));
    const mask = (mobile: string) => `+91 ${mobile.slice(0, 2)}xxxxxx${mobile.slice(-2)}`;
    expect(queue.find((item) => item.id === ashaDoc.body.id)).toEqual({
      ...ashaDoc.body,
      userId: asha.userId,
      userName: 'Asha Rao',
      userMobile: asha.mobile,
      reviewedBy: null,
      alsoSubmittedBy: [mask(ravi.mobile)],
    });
    expect(queue.find((item) => item.id === raviDoc.body.id)?.alsoSubmittedBy).toEqual([mask(asha.mobile)]);
    expect((await reviewer.get('/api/admin/kyc')).body).toEqual(queue);
    expect((await reviewer.get('/api/admin/kyc?status=nope')).status).toBe(400);
  });

  it('review rules: a reason of 1-500 characters, one decision per submission, not your own, 404 for unknown ids', async () => {
    const user = await server.signUp();
    const doc = await submit(user, 'pan');
    for (const reason of ['', '   ', 'x'.repeat(501), 5]) {
      const res = await reject(doc.id, reason);
      expect(res.status, String(reason)).toBe(400);
      expect(res.body.error.fields.reason).toBeDefined();
    }
    const approved = await approve(doc.id);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: doc.id, status: 'approved', reviewedBy: reviewer.userId, reviewedAt: expect.any(String) });
    for (const second of [await approve(doc.id), await reject(doc.id, 'Changed my mind')]) {
      expect(second.status).toBe(409);
      expect(second.body.error.message).toBe('This document has already been reviewed');
    }
    for (const id of [randomUUID(), 'abc', '..%2F..%2Fx']) expect((await approve(id)).status, id).toBe(404);

    const ownDoc = await submit(reviewer, 'pan');
    const own = await approve(ownDoc.id);
    expect(own.status).toBe(403);
    expect(own.body.error.message).toBe('You cannot review your own documents');
    expect((await reject(ownDoc.id, 'x')).status).toBe(403);
  });

  it('claims the ₹200 bonus once both are approved: kycStatus pending -> verified -> bonus_claimed, one credit, a second claim refused', async () => {
    const user = await server.signUp();
    const incomplete = await user.post('/api/kyc/complete');
    expect(incomplete.status).toBe(409);
    expect(incomplete.body.error).toMatchObject({ code: 'kyc_incomplete', message: 'Please upload all required documents' });

    const pan = await submit(user, 'pan');
    const voter = await submit(user, 'voter_id');
    expect((await approve(pan.id)).status).toBe(200);
    expect((await user.get('/api/auth/user')).body.kycStatus).toBe('pending');
    expect((await user.post('/api/kyc/complete')).body.error.code).toBe('kyc_incomplete');
    expect((await approve(voter.id)).status).toBe(200);
    expect((await user.get('/api/auth/user')).body.kycStatus).toBe('verified');

    const claimed = await user.post('/api/kyc/complete');
    expect(claimed.status).toBe(200);
    expect(claimed.body).toEqual({ rupees: '200.00', balance: '200.00' });
    expect((await user.get('/api/auth/user')).body).toMatchObject({ kycStatus: 'bonus_claimed', totalRupees: '200.00', totalEarned: '200.00' });
    const transactions = (await user.get<TransactionBody[]>('/api/transactions')).body;
    expect(transactions).toEqual([expect.objectContaining({ kind: 'kyc_bonus', type: 'earned', amount: '200.00', description: 'KYC verification bonus' })]);
    const notifications = (await user.get<NotificationBody[]>('/api/notifications')).body;
    expect(notifications.map((n) => n.title)).toEqual(['KYC Completed!', 'Document Approved', 'Document Approved']);

    const second = await user.post('/api/kyc/complete');
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'kyc_bonus_already_claimed', message: 'You have already claimed the KYC bonus' });
    expect((await user.get('/api/auth/user')).body.totalRupees).toBe('200.00');
  });

  it('tells the user about a rejection in notifications, with the reason', async () => {
    const user = await server.signUp();
    const doc = await submit(user, 'voter_id');
    expect((await reject(doc.id, 'Back side is cut off')).status).toBe(200);
    const [latest] = (await user.get<NotificationBody[]>('/api/notifications')).body;
    expect(latest).toMatchObject({ title: 'Document Rejected', message: 'Your Voter ID was not accepted: Back side is cut off. Please upload it again.', type: 'warning' });
  });
});

/** The raw bytes of a response, with the client's session cookie (TestClient reads bodies as text). */
async function fetchBytes(client: TestClient, path: string): Promise<Buffer> {
  // The cookie jar is private to TestClient; a test may look inside it.
  const jar = (client as unknown as { cookies: Map<string, string> }).cookies;
  const res = await fetch(client.baseUrl + path, { headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
  return Buffer.from(await res.arrayBuffer());
}
