import { PutObjectCommand } from '@aws-sdk/client-s3';
import { S3Storage } from './s3.ts';
import { objectStorageContract } from './storage.contract.ts';
import { describe, expect, it } from 'vitest';
import { S3RVER_CREDENTIALS, TINY_PNG, startS3rver, testClock } from './testing.ts';

objectStorageContract(
  's3 against s3rver',
  async () => {
    const s3 = await startS3rver();
    const clock = testClock();
    const storage = new S3Storage({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      ...S3RVER_CREDENTIALS,
      forcePathStyle: true,
      now: clock.now,
    });
    return {
      storage,
      baseURL: s3.endpoint,
      clock,
      async writeRaw(key, bytes) {
        await storage.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: bytes }));
      },
      async close() {
        storage.client.destroy();
        await s3.close();
      },
    };
  },
  { verifiesSignatures: false },
);

describe('s3 with a public endpoint', () => {
  it('signs upload URLs for where browsers reach the service, and works there', async () => {
    const s3 = await startS3rver();
    // Two spellings of the same loopback server: one for this server, one for browsers.
    const publicEndpoint = s3.endpoint;
    const internal = s3.endpoint.replace('127.0.0.1', 'localhost');
    const storage = new S3Storage({ endpoint: internal, publicEndpoint, region: 'us-east-1', bucket: s3.bucket, ...S3RVER_CREDENTIALS, forcePathStyle: true });
    const key = 'uploads/u1/0b6a1c52-5d8e-4f8e-9a4c-6f2e8c1d2b3a' as Parameters<S3Storage['stat']>[0];
    try {
      const { uploadURL } = await storage.createUpload(key, { expiresInSeconds: 60 });
      expect(new URL(uploadURL).host).toBe(new URL(publicEndpoint).host);
      expect(new URL(uploadURL).host).not.toBe(new URL(internal).host);
      const put = await fetch(uploadURL, { method: 'PUT', body: TINY_PNG, headers: { 'content-type': 'image/png' } });
      expect(put.status).toBe(200);
      expect(await storage.stat(key)).toEqual({ size: TINY_PNG.length });
    } finally {
      storage.client.destroy();
      storage.presignClient.destroy();
      await s3.close();
    }
  });
});
