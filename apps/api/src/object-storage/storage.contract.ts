// The one suite every ObjectStorage adapter passes; disk.int.spec.ts and s3.int.spec.ts run it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from './image.ts';
import { newFinalKey, newUploadKey, objectURLFor, parseObjectURL, type ObjectKey, type ObjectStorage } from './port.ts';
import { pngOfSize, TINY_PNG, type TestClock } from './testing.ts';
import { acceptUploadedImage, verifyUploadedImage } from './verify.ts';

export interface StorageHarness {
  storage: ObjectStorage;
  /** What a relative uploadURL resolves against (the API server for disk). */
  baseURL: string;
  clock: TestClock;
  /** Stores bytes under a key past every check, as a client holding a presigned S3 URL could. */
  writeRaw(key: ObjectKey, bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface ContractOptions {
  /**
   * Whether the service checks the signature itself. s3rver 3.7 does not check SigV4 signatures
   * (only expiry and the access key), so its run skips the tampering tests; S3 and MinIO check them.
   */
  verifiesSignatures: boolean;
}

/** Each test uploads as its own user, so tests never see each other's objects. */
const newUser = () => `user-${randomUUID().slice(0, 8)}`;
const HEAD = 12;

export function objectStorageContract(
  name: string,
  setup: () => Promise<StorageHarness>,
  { verifiesSignatures }: ContractOptions,
) {
  describe(`ObjectStorage contract: ${name}`, () => {
    let h: StorageHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(async () => {
      await h?.close();
    });

    const put = (uploadURL: string, body: Uint8Array, contentType = 'image/png') =>
      fetch(new URL(uploadURL, h.baseURL), { method: 'PUT', headers: { 'Content-Type': contentType }, body });

    async function uploadPng(userId = newUser()) {
      const key = newUploadKey(userId);
      const { uploadURL } = await h.storage.createUpload(key, { expiresInSeconds: 600 });
      const res = await put(uploadURL, TINY_PNG);
      expect(res.ok, `PUT answered ${res.status}: ${await res.clone().text()}`).toBe(true);
      return { key, userId };
    }

    function tamperedURL(uploadURL: string, change: (query: URLSearchParams) => void): URL {
      const url = new URL(uploadURL, h.baseURL);
      change(url.searchParams);
      return url;
    }
    const flipLast = (text: string) => text.slice(0, -1) + (text.endsWith('0') ? '1' : '0');
    const signatureParam = (q: URLSearchParams) => (q.has('signature') ? 'signature' : 'X-Amz-Signature');
    const expiryParam = (q: URLSearchParams) => (q.has('expires') ? 'expires' : 'X-Amz-Expires');

    it('put stores server-made bytes under a new key, readable like an upload', async () => {
      const key = newFinalKey(newUser(), 'kyc');
      await h.storage.put(key, TINY_PNG, 'image/png');
      expect(await h.storage.stat(key)).toEqual({ size: TINY_PNG.length });
      const object = await h.storage.read(key);
      expect(Buffer.from(await new Response(object!.body).arrayBuffer())).toEqual(TINY_PNG);
      await h.storage.delete(key);
      expect(await h.storage.stat(key)).toBeNull();
    });

    it('acceptUploadedImage keeps a re-encoded copy under a server-only key; commit removes the upload as sent', async () => {
      const userId = newUser();
      const key = newUploadKey(userId, 'kyc');
      const { uploadURL } = await h.storage.createUpload(key, { expiresInSeconds: 600 });
      expect((await put(uploadURL, TINY_PNG)).ok).toBe(true);
      const accepted = await acceptUploadedImage(h.storage, objectURLFor(key), userId, { purpose: 'kyc' });
      const copy = parseObjectURL(accepted.objectURL);
      expect(copy).toMatchObject({ ownerId: userId, purpose: 'kyc', stage: 'final' });
      expect(accepted.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(await h.storage.stat(copy!.key)).not.toBeNull();
      // A proof upload is not a KYC image, and the other way round.
      await expect(acceptUploadedImage(h.storage, objectURLFor(key), userId, { purpose: 'proof' })).rejects.toThrow(/not uploaded as proof/);
      await accepted.commit();
      expect(await h.storage.stat(key)).toBeNull();
      // The kept copy is accepted as it is, with the same hash.
      const again = await acceptUploadedImage(h.storage, accepted.objectURL, userId, { purpose: 'kyc' });
      expect(again).toMatchObject({ objectURL: accepted.objectURL, sha256: accepted.sha256 });
    });

    it('createUpload gives a PUT URL; the bytes PUT there can be stat-ed, read and deleted', async () => {
      const key = newUploadKey(newUser());
      const upload = await h.storage.createUpload(key, { expiresInSeconds: 600 });
      expect(upload.method).toBe('PUT');
      expect(upload.uploadURL).toContain(key);

      const res = await put(upload.uploadURL, TINY_PNG);
      expect(res.ok).toBe(true);

      expect(await h.storage.stat(key)).toEqual({ size: TINY_PNG.length });
      expect(Buffer.from((await h.storage.readHead(key, HEAD))!)).toEqual(TINY_PNG.subarray(0, HEAD));
      const object = await h.storage.read(key);
      expect(object?.size).toBe(TINY_PNG.length);
      expect(Buffer.from(await new Response(object!.body).arrayBuffer())).toEqual(TINY_PNG);

      await h.storage.delete(key);
      expect(await h.storage.stat(key)).toBeNull();
      expect(await h.storage.readHead(key, HEAD)).toBeNull();
      expect(await h.storage.read(key)).toBeNull();
      await h.storage.delete(key); // deleting twice is fine
    });

    it('answers null for an object that was never stored', async () => {
      const key = newUploadKey(newUser());
      expect(await h.storage.stat(key)).toBeNull();
      expect(await h.storage.readHead(key, HEAD)).toBeNull();
      expect(await h.storage.read(key)).toBeNull();
    });

    it('readHead of an object shorter than asked gives what there is', async () => {
      const short = newUploadKey(newUser());
      await h.writeRaw(short, Buffer.from('GIF89a'));
      expect(Buffer.from((await h.storage.readHead(short, HEAD))!).toString()).toBe('GIF89a');
      // (No readHead of an empty object here: s3rver answers a range on one with a broken response,
      // where S3 answers 416, which S3Storage handles. verifyUploadedImage never asks: size 0 is refused.)
    });

    it('stores and reads an empty object', async () => {
      const empty = newUploadKey(newUser());
      await h.writeRaw(empty, new Uint8Array());
      expect(await h.storage.stat(empty)).toEqual({ size: 0 });
      const object = await h.storage.read(empty);
      expect(object?.size).toBe(0);
      expect((await new Response(object!.body).arrayBuffer()).byteLength).toBe(0);
    });

    it('refuses an expired upload URL and stores nothing', async () => {
      const key = newUploadKey(newUser());
      h.clock.offsetMs = -3_600_000; // signed an hour ago, valid for ten minutes
      const { uploadURL } = await h.storage.createUpload(key, { expiresInSeconds: 600 }).finally(() => {
        h.clock.offsetMs = 0;
      });
      const res = await put(uploadURL, TINY_PNG);
      expect(res.status).toBe(403);
      expect(await h.storage.stat(key)).toBeNull();
    });

    it('refuses an upload URL without its signature', async () => {
      const key = newUploadKey(newUser());
      const { uploadURL } = await h.storage.createUpload(key, { expiresInSeconds: 600 });
      const res = await put(tamperedURL(uploadURL, (q) => q.delete(signatureParam(q))).href, TINY_PNG);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(await h.storage.stat(key)).toBeNull();
    });

    describe('tampering', () => {
      it.runIf(verifiesSignatures)('refuses a changed signature', async () => {
        const key = newUploadKey(newUser());
        const { uploadURL } = await h.storage.createUpload(key, { expiresInSeconds: 600 });
        const url = tamperedURL(uploadURL, (q) => q.set(signatureParam(q), flipLast(q.get(signatureParam(q))!)));
        expect((await put(url.href, TINY_PNG)).status).toBe(403);
        expect(await h.storage.stat(key)).toBeNull();
      });

      it.runIf(verifiesSignatures)('refuses a stretched expiry', async () => {
        const key = newUploadKey(newUser());
        const { uploadURL } = await h.storage.createUpload(key, { expiresInSeconds: 600 });
        const url = tamperedURL(uploadURL, (q) => q.set(expiryParam(q), String(Number(q.get(expiryParam(q))) + 3600)));
        expect((await put(url.href, TINY_PNG)).status).toBe(403);
      });

      it.runIf(verifiesSignatures)('refuses a URL signed for one key used for another', async () => {
        const key = newUploadKey(newUser());
        const other = newUploadKey(newUser());
        const { uploadURL } = await h.storage.createUpload(key, { expiresInSeconds: 600 });
        const url = new URL(uploadURL, h.baseURL);
        url.pathname = url.pathname.replace(key, other);
        expect((await put(url.href, TINY_PNG)).status).toBe(403);
        expect(await h.storage.stat(other)).toBeNull();
      });
    });

    describe('verifyUploadedImage', () => {
      it("accepts the user's own uploaded image and returns its key", async () => {
        const { key, userId } = await uploadPng();
        await expect(verifyUploadedImage(h.storage, objectURLFor(key), userId)).resolves.toBe(key);
      });

      it("refuses another user's image", async () => {
        const { key } = await uploadPng();
        await expect(verifyUploadedImage(h.storage, objectURLFor(key), newUser())).rejects.toMatchObject({
          status: 400,
          message: 'That image was not uploaded by you',
        });
      });

      it('refuses anything that is not an objectURL the API handed out', async () => {
        const { key, userId } = await uploadPng();
        for (const url of [
          '',
          key,
          `https://example.com/objects/${key}`,
          `/objects/${key}/`,
          `/objects/uploads/${userId}/../${key.split('/')[2]}`,
          `/objects/uploads/${userId}/%2e%2e`,
          `/objects//uploads/${userId}`,
        ]) {
          await expect(verifyUploadedImage(h.storage, url, userId), url).rejects.toMatchObject({
            status: 400,
            message: 'Upload the image first',
          });
        }
      });

      it('refuses an image that was never uploaded, naming the field', async () => {
        const userId = newUser();
        const key = newUploadKey(userId);
        await expect(
          verifyUploadedImage(h.storage, objectURLFor(key), userId, { field: 'proofImageUrl' }),
        ).rejects.toMatchObject({
          status: 400,
          code: 'validation_failed',
          fields: { proofImageUrl: { key: 'api.imageNotFound' } },
        });
      });

      it('refuses an object that is not an image, whatever its name or header', async () => {
        const userId = newUser();
        for (const bytes of [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), new Uint8Array()]) {
          const key = newUploadKey(userId);
          await h.writeRaw(key, bytes);
          await expect(verifyUploadedImage(h.storage, objectURLFor(key), userId)).rejects.toMatchObject({
            status: 400,
            message: 'Only PNG, JPEG, WebP or GIF images are allowed',
          });
        }
      });

      it('refuses an image over 5,242,880 bytes and accepts one of exactly that size', async () => {
        const userId = newUser();
        const big = newUploadKey(userId);
        await h.writeRaw(big, pngOfSize(MAX_UPLOAD_BYTES + 1));
        await expect(verifyUploadedImage(h.storage, objectURLFor(big), userId)).rejects.toMatchObject({
          status: 400,
          message: 'File size must be less than 5MB',
        });
        const limit = newUploadKey(userId);
        await h.writeRaw(limit, pngOfSize(MAX_UPLOAD_BYTES));
        await expect(verifyUploadedImage(h.storage, objectURLFor(limit), userId)).resolves.toBe(limit);
      });
    });
  });
}
