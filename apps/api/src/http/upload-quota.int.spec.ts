import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngOfSize, upload } from '../tasks/testing.ts';
import { type TestServer, startTestServer } from '../testing/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('daily upload quota', () => {
  it('refuses the upload after the daily count (a setting) with 429 upload_quota; others are unaffected', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    expect((await admin.put('/api/admin/settings', { uploadsPerDay: 3 })).status).toBe(200);
    const user = await server.signUp();
    for (let i = 0; i < 3; i++) expect((await user.post('/api/objects/upload')).status).toBe(200);
    const refused = await user.post('/api/objects/upload');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'upload_quota', message: 'You have uploaded too much today. Please try again tomorrow.' });
    expect((await (await server.signUp()).post('/api/objects/upload')).status).toBe(200);
    expect((await admin.put('/api/admin/settings', { uploadsPerDay: 30 })).status).toBe(200);
  });

  it('refuses bytes beyond the daily size (a setting) at the upload itself', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    expect((await admin.put('/api/admin/settings', { uploadMegabytesPerDay: 2 })).status).toBe(200);
    const user = await server.signUp();
    const image = pngOfSize(900 * 1024);
    expect((await upload(server, user, image)).putStatus).toBe(201);
    expect((await upload(server, user, image)).putStatus).toBe(201);
    // A third 900 KB image would pass 2 MB.
    expect((await upload(server, user, image)).putStatus).toBe(429);
    expect((await admin.put('/api/admin/settings', { uploadMegabytesPerDay: 60 })).status).toBe(200);
  });

  it('counts KYC images towards the same daily bytes as proof images', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    expect((await admin.put('/api/admin/settings', { uploadMegabytesPerDay: 2 })).status).toBe(200);
    const user = await server.signUp();
    const image = pngOfSize(900 * 1024);
    const kycUpload = async () => {
      const slot = await user.post('/api/objects/upload', { purpose: 'kyc' });
      expect(slot.status).toBe(200);
      return (await fetch(new URL(slot.body.uploadURL, server.url), { method: 'PUT', headers: { 'content-type': 'image/png' }, body: image })).status;
    };
    expect(await kycUpload()).toBe(201);
    expect((await upload(server, user, image)).putStatus).toBe(201);
    expect(await kycUpload()).toBe(429);
    expect((await admin.put('/api/admin/settings', { uploadMegabytesPerDay: 60 })).status).toBe(200);
  });
});
