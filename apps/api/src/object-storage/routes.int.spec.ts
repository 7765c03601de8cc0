import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStorage } from './disk.ts';
import { MAX_UPLOAD_BYTES } from './image.ts';
import { parseObjectURL } from './port.ts';
import { objectRoutes, type UploadAnswer } from './routes.ts';
import { S3Storage } from './s3.ts';
import {
  pngOfSize,
  rawRequest,
  S3RVER_CREDENTIALS,
  serveApp,
  startS3rver,
  tempDir,
  testCurrentUser,
  TINY_PNG,
} from './testing.ts';

const OWNER = { 'x-test-user': 'user-1:' };
const OTHER = { 'x-test-user': 'user-2:' };
const as = (id: string, roles = '') => ({ 'x-test-user': `${id}:${roles}` });

const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0, 0, 0])]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), Buffer.from('JFIF\0rest')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x20, 0, 0, 0]), Buffer.from('WEBPVP8 rest')]);

/** Every file under a folder, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

async function errorCode(res: Response) {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describe('object routes with disk storage, over real HTTP', () => {
  let dir: string;
  let storage: DiskStorage;
  let baseURL: string;
  let close: () => Promise<void>;
  const SECRET_OUTSIDE = 'secret outside the object root';

  beforeAll(async () => {
    dir = await tempDir('routes');
    // A file next to the root that path tricks would aim for.
    await writeFile(path.join(dir, 'secret.txt'), SECRET_OUTSIDE);
    storage = new DiskStorage({ root: path.join(dir, 'objects'), secret: randomBytes(32) });
    // Mounted the way the app mounts it, so the sub-app's own error handler is what answers.
    const app = new Hono().route('/', objectRoutes({ storage, currentUser: testCurrentUser }));
    ({ baseURL, close } = await serveApp(app));
  });
  afterAll(async () => {
    await close();
    await rm(dir, { recursive: true, force: true });
  });

  const url = (p: string) => new URL(p, baseURL);
  const requestUpload = (headers: Record<string, string> = OWNER) =>
    fetch(url('/api/objects/upload'), { method: 'POST', headers });

  async function newUpload(headers: Record<string, string> = OWNER): Promise<UploadAnswer> {
    const res = await requestUpload(headers);
    expect(res.status).toBe(200);
    return (await res.json()) as UploadAnswer;
  }

  const put = (uploadURL: string, body: Uint8Array, contentType = 'image/png') =>
    fetch(url(uploadURL), { method: 'PUT', headers: { 'Content-Type': contentType }, body });

  const get = (objectURL: string, headers: Record<string, string> = OWNER) => fetch(url(objectURL), { headers });

  async function expectNothingStored(objectURL: string) {
    expect(await storage.stat(parseObjectURL(objectURL)!.key)).toBeNull();
    expect(await filesUnder(path.join(storage.root, '.tmp'))).toEqual([]);
  }

  describe('POST /api/objects/upload', () => {
    it('answers 401 with the error body when signed out', async () => {
      const res = await requestUpload({});
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'unauthenticated', message: 'You are not signed in', key: 'api.notSignedIn' } });
    });

    it("answers a signed same-origin PUT URL and the object's lasting address under the user", async () => {
      const answer = await newUpload();
      expect(answer.method).toBe('PUT');
      expect(answer.objectURL).toMatch(/^\/objects\/uploads\/user-1\/[0-9a-f-]{36}$/);
      const key = parseObjectURL(answer.objectURL)!.key;
      expect(answer.uploadURL).toMatch(new RegExp(`^/api/objects/put/${key}\\?expires=\\d+&signature=[0-9a-f]{64}$`));
      expect((await newUpload()).objectURL).not.toBe(answer.objectURL);
    });
  });

  describe('PUT then GET', () => {
    it('stores a real PNG that the uploader and staff can read, and no one else', async () => {
      const { uploadURL, objectURL } = await newUpload();
      expect((await put(uploadURL, TINY_PNG)).status).toBe(201);

      const res = await get(objectURL);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('content-length')).toBe(String(TINY_PNG.length));
      expect(res.headers.get('cache-control')).toMatch(/^private\b/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(TINY_PNG);

      for (const role of ['reviewer', 'finance', 'admin']) {
        const staff = await get(objectURL, as('staff-1', role));
        expect(staff.status, role).toBe(200);
        expect(Buffer.from(await staff.arrayBuffer())).toEqual(TINY_PNG);
      }

      const other = await get(objectURL, OTHER);
      expect(other.status).toBe(403);
      expect(await errorCode(other)).toBe('forbidden');
      const signedOut = await get(objectURL, {});
      expect(signedOut.status).toBe(401);
      expect(await errorCode(signedOut)).toBe('unauthenticated');
    });

    it('serves the type the bytes are, not the type the upload claimed', async () => {
      for (const [bytes, type] of [
        [GIF, 'image/gif'],
        [JPEG, 'image/jpeg'],
        [WEBP, 'image/webp'],
      ] as const) {
        const { uploadURL, objectURL } = await newUpload();
        expect((await put(uploadURL, bytes, 'application/octet-stream')).status).toBe(201);
        const res = await get(objectURL);
        expect(res.headers.get('content-type')).toBe(type);
        expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
      }
    });

    it('answers 404 for an object that was never uploaded', async () => {
      const { objectURL } = await newUpload();
      const res = await get(objectURL);
      expect(res.status).toBe(404);
      expect(await errorCode(res)).toBe('not_found');
    });

    it('refuses a second PUT to the same key, so an object never changes', async () => {
      const { uploadURL, objectURL } = await newUpload();
      expect((await put(uploadURL, TINY_PNG)).status).toBe(201);
      const again = await put(uploadURL, GIF);
      expect(again.status).toBe(409);
      expect(await errorCode(again)).toBe('conflict');
      expect(Buffer.from(await (await get(objectURL)).arrayBuffer())).toEqual(TINY_PNG);
    });

    it('lets exactly one of two racing PUTs to the same key win', async () => {
      const { uploadURL, objectURL } = await newUpload();
      const statuses = (await Promise.all([put(uploadURL, pngOfSize(1_000_000)), put(uploadURL, GIF)])).map((r) => r.status);
      expect(statuses.sort()).toEqual([201, 409]);
      const stored = Buffer.from(await (await get(objectURL)).arrayBuffer());
      expect([1_000_000, GIF.length]).toContain(stored.length);
      expect(await filesUnder(path.join(storage.root, '.tmp'))).toEqual([]);
    });
  });

  describe('what PUT refuses', () => {
    it('non-image bytes sent as image/png: 415, nothing stored', async () => {
      for (const body of [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'), Buffer.from('GIF'), Buffer.alloc(0)]) {
        const { uploadURL, objectURL } = await newUpload();
        const res = await put(uploadURL, body, 'image/png');
        expect(res.status).toBe(415);
        expect(await errorCode(res)).toBe('unsupported_media_type');
        await expectNothingStored(objectURL);
      }
    });

    it('5,242,881 bytes: 413, nothing stored; exactly 5,242,880 is accepted', async () => {
      const big = await newUpload();
      const res = await put(big.uploadURL, pngOfSize(MAX_UPLOAD_BYTES + 1));
      expect(res.status).toBe(413);
      expect(await errorCode(res)).toBe('payload_too_large');
      await expectNothingStored(big.objectURL);

      const limit = await newUpload();
      expect((await put(limit.uploadURL, pngOfSize(MAX_UPLOAD_BYTES))).status).toBe(201);
      expect(await storage.stat(parseObjectURL(limit.objectURL)!.key)).toEqual({ size: MAX_UPLOAD_BYTES });
    });

    it('a chunked body with no length that runs past the limit: 413 while streaming, nothing stored', async () => {
      const { uploadURL, objectURL } = await newUpload();
      const res = await rawRequest(baseURL, 'PUT', uploadURL, {
        headers: { 'content-type': 'image/png' },
        body: pngOfSize(MAX_UPLOAD_BYTES + 100_000),
        chunked: true,
      });
      expect(res.status).toBe(413);
      await expectNothingStored(objectURL);
    });

    it('a tampered, expired-looking or missing signature: 403, nothing stored', async () => {
      const { uploadURL, objectURL } = await newUpload();
      const signed = url(uploadURL);
      const variants = [
        (q: URLSearchParams) => q.set('signature', q.get('signature')!.replace(/.$/, (c) => (c === '0' ? '1' : '0'))),
        (q: URLSearchParams) => q.set('expires', String(Number(q.get('expires')) + 60)),
        (q: URLSearchParams) => q.set('expires', '1'),
        (q: URLSearchParams) => q.delete('signature'),
        (q: URLSearchParams) => q.set('signature', 'x'.repeat(10_000)),
      ];
      for (const change of variants) {
        const tampered = new URL(signed);
        change(tampered.searchParams);
        const res = await put(tampered.pathname + tampered.search, TINY_PNG);
        expect(res.status).toBe(403);
        expect(await errorCode(res)).toBe('forbidden');
      }
      await expectNothingStored(objectURL);
    });
  });

  describe('path tricks never reach a file outside the root', () => {
    const tricks = [
      'uploads/user-1/../../../secret.txt',
      'uploads/user-1/%2e%2e/%2e%2e/%2e%2e/secret.txt',
      'uploads/user-1/..%2f..%2f..%2fsecret.txt',
      '%2e%2e/secret.txt',
      '..%5c..%5csecret.txt',
      '/etc/passwd',
      '%2Fetc%2Fpasswd',
      `${'x'.repeat(300)}`,
      'uploads/user-1/00000000-0000-0000-0000-000000000000%00',
    ];

    it('GET answers 400 or 404 and never the file', async () => {
      for (const trick of tricks) {
        const res = await rawRequest(baseURL, 'GET', `/objects/${trick}`, { headers: as('admin-1', 'admin') });
        expect([400, 404], trick).toContain(res.status);
        expect(res.body.toString()).not.toContain(SECRET_OUTSIDE);
      }
    });

    it('PUT, even with a valid signature for a real key, answers 400 or 404 and writes nothing', async () => {
      const before = await filesUnder(dir);
      const { uploadURL } = await newUpload();
      const query = uploadURL.slice(uploadURL.indexOf('?'));
      for (const trick of tricks) {
        const res = await rawRequest(baseURL, 'PUT', `/api/objects/put/${trick}${query}`, {
          headers: { 'content-type': 'image/png' },
          body: TINY_PNG,
        });
        expect([400, 404], trick).toContain(res.status);
      }
      expect(await filesUnder(dir)).toEqual(before);
      expect(await readFile(path.join(dir, 'secret.txt'), 'utf8')).toBe(SECRET_OUTSIDE);
    });
  });
});

describe('object routes with S3 storage (s3rver), over real HTTP', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let storage: S3Storage;
  let baseURL: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    s3 = await startS3rver();
    storage = new S3Storage({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      ...S3RVER_CREDENTIALS,
      forcePathStyle: true,
    });
    const app = new Hono().route('/', objectRoutes({ storage, currentUser: testCurrentUser }));
    ({ baseURL, close } = await serveApp(app));
  });
  afterAll(async () => {
    await close();
    storage.client.destroy();
    await s3.close();
  });

  async function newUpload(): Promise<UploadAnswer> {
    const res = await fetch(new URL('/api/objects/upload', baseURL), { method: 'POST', headers: OWNER });
    expect(res.status).toBe(200);
    return (await res.json()) as UploadAnswer;
  }
  const get = (objectURL: string, headers: Record<string, string> = OWNER) =>
    fetch(new URL(objectURL, baseURL), { headers });

  it('hands out a presigned S3 URL; the PNG PUT there is served to its uploader only', async () => {
    const { uploadURL, objectURL, method } = await newUpload();
    expect(method).toBe('PUT');
    expect(uploadURL.startsWith(`${s3.endpoint}/${s3.bucket}/uploads/user-1/`)).toBe(true);
    const put = await fetch(uploadURL, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: TINY_PNG });
    expect(put.ok).toBe(true);

    const res = await get(objectURL);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(TINY_PNG);
    expect((await get(objectURL, as('rev', 'reviewer'))).status).toBe(200);
    expect((await get(objectURL, OTHER)).status).toBe(403);
  });

  it('never serves what went around the checks: a non-image (415) or an oversized file (413)', async () => {
    const html = await newUpload();
    await storage.client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: parseObjectURL(html.objectURL)!.key, Body: '<html><script>alert(1)</script>', ContentType: 'image/png' }),
    );
    const res = await get(html.objectURL);
    expect(res.status).toBe(415);
    expect(await errorCode(res)).toBe('unsupported_media_type');

    const big = await newUpload();
    await storage.client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: parseObjectURL(big.objectURL)!.key, Body: pngOfSize(MAX_UPLOAD_BYTES + 1) }),
    );
    const tooBig = await get(big.objectURL);
    expect(tooBig.status).toBe(413);
    expect(await errorCode(tooBig)).toBe('payload_too_large');
  });

  it('has no disk PUT route', async () => {
    const { objectURL } = await newUpload();
    const res = await fetch(new URL(`/api/objects/put/${parseObjectURL(objectURL)!.key}`, baseURL), {
      method: 'PUT',
      body: TINY_PNG,
    });
    expect(res.status).toBe(404);
  });
});
