import { msg } from '@kamai/contracts';
import { Hono } from 'hono';
import { loadLimits } from '../settings/limits.ts';
import type { AppEnv } from '../deps.ts';
import { MAX_UPLOAD_BYTES } from '../object-storage/index.ts';
import { parseObjectKey } from '../object-storage/port.ts';
import { DISK_PUT_PATH } from '../object-storage/disk.ts';
import { ApiError } from './errors.ts';

const DAY_MS = 24 * 60 * 60_000;
const quotaExceeded = () => new ApiError(429, 'upload_quota', msg('limit.uploadQuota'));
const uploadsKey = (userId: string) => `uploads:${userId}`;
const bytesKey = (userId: string) => `upload-bytes:${userId}`;

/**
 * The daily upload quota per user (settings: uploadsPerDay, uploadBytesPerDay), in the counters every
 * process shares. Uploads are counted when a signed URL is asked for; bytes when the disk store
 * receives them (its PUT path names the owner). Mounted before the object routes, so a refused
 * request never reaches the storage.
 */
export const uploadQuota = new Hono<AppEnv>()
  .post('/api/objects/upload', async (c, next) => {
    const user = c.var.user;
    if (!user) return next();
    const { attempts } = c.var.deps;
    const limits = await loadLimits(c.var.deps.store);
    if ((attempts.get(bytesKey(user.id))?.count ?? 0) >= limits.uploadBytesPerDay) throw quotaExceeded();
    if (attempts.count(uploadsKey(user.id), DAY_MS) > limits.uploadsPerDay) throw quotaExceeded();
    await next();
    // Remembered, so the sweep deletes it if no command uses it within a day.
    if (c.res.status === 200) {
      const objectURL = ((await c.res.clone().json()) as { objectURL?: string }).objectURL;
      if (objectURL?.startsWith('/objects/')) c.var.deps.uploads.record(objectURL.slice('/objects/'.length));
    }
  })
  .put(`${DISK_PUT_PATH}*`, async (c, next) => {
    // uploads/ or kyc-uploads/<owner id>/<object id>: the signature is checked by the store; the
    // quota by owner here, for proof and KYC images alike. The key is read as the route reads it,
    // undecoded: a malformed escape is the route's 400, not a URIError here.
    const parsed = parseObjectKey(new URL(c.req.url).pathname.slice(DISK_PUT_PATH.length));
    if (parsed?.stage !== 'upload') return next();
    const owner = parsed.ownerId;
    const declared = Number(c.req.header('content-length'));
    const size = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, MAX_UPLOAD_BYTES) : MAX_UPLOAD_BYTES;
    const limits = await loadLimits(c.var.deps.store);
    const { attempts } = c.var.deps;
    if ((attempts.get(bytesKey(owner))?.count ?? 0) + size > limits.uploadBytesPerDay) throw quotaExceeded();
    await next();
    if (c.res.status === 201) attempts.add(bytesKey(owner), size, DAY_MS);
  });
