import { afterAll, beforeAll, expect, it } from 'vitest';
import { submitDocument } from '../kyc/testing.ts';
import { type TestServer, startTestServer } from '../testing/index.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

it('the data export gives the person everything they gave, the PAN in full', async () => {
  const user = await server.signUp({ firstName: 'Ishaanvi', lastName: 'Bhardwaj' });
  const pan = 'ABCPB1234K';
  const document = await submitDocument(server.url, user, 'pan', 31, pan);
  // The screens show the PAN masked...
  expect(document.panNumber).not.toBe(pan);

  const data = await user.get('/api/profile/export');
  expect(data.status).toBe(200);
  // ...the person's own copy of their data does not.
  expect(data.body.kyc.submissions).toEqual([expect.objectContaining({ id: document.id, documentType: 'pan', panNumber: pan })]);
  expect(data.body.kyc.latest).toEqual([expect.objectContaining({ id: document.id, panNumber: pan })]);
  expect(data.body.profile).toMatchObject({ id: user.userId, mobile: user.mobile, firstName: 'Ishaanvi', lastName: 'Bhardwaj' });
  expect(JSON.stringify(data.body)).not.toMatch(/x{4,}/i);
});
