import { PutObjectCommand } from '@aws-sdk/client-s3';
import { S3Storage } from './s3.ts';
import { objectStorageContract } from './storage.contract.ts';
import { S3RVER_CREDENTIALS, startS3rver, testClock } from './testing.ts';

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
