import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { STAFF_ROLES, UploadRequest, type Role, msg } from '@kamai/contracts';
import { badRequest, forbidden, notFound, respondWithError, unauthenticated } from '../http/errors.ts';
import { schemaMessage } from '../http/validate.ts';
import { DISK_PUT_PATH, DiskStorage } from './disk.ts';
import { MAX_UPLOAD_BYTES, notAnImage, sniffStream, tooLarge } from './image.ts';
import { newUploadKey, OBJECT_URL_PREFIX, objectURLFor, parseObjectKey, type ObjectStorage } from './port.ts';

export interface ObjectRoutesDeps {
  storage: ObjectStorage;
  /** The signed-in user of a request, or null; the app passes its session lookup. */
  currentUser: (c: Context) => Promise<{ id: string; roles: readonly Role[] } | null>;
  /** How long an upload URL stays valid; 10 minutes unless given. */
  uploadExpiresInSeconds?: number;
}

export interface UploadAnswer {
  uploadURL: string;
  method: 'PUT';
  objectURL: string;
}

/**
 * `POST /api/objects/upload`, `GET /objects/*` and, with disk storage, `PUT /api/objects/put/*`.
 * Paths are absolute: mount with `app.route('/', objectRoutes(deps))`.
 */
export function objectRoutes(deps: ObjectRoutesDeps) {
  const { storage, currentUser } = deps;
  const expiresInSeconds = deps.uploadExpiresInSeconds ?? 600;
  const app = new Hono();
  app.onError((err, c) => respondWithError(c, err));

  app.post('/api/objects/upload', async (c) => {
    const user = await currentUser(c);
    if (!user) throw unauthenticated();
    const { purpose } = await uploadRequest(c);
    const key = newUploadKey(user.id, purpose);
    const { uploadURL, method } = await storage.createUpload(key, { expiresInSeconds });
    return c.json({ uploadURL, method, objectURL: objectURLFor(key) } satisfies UploadAnswer);
  });

  if (storage instanceof DiskStorage) {
    app.put(`${DISK_PUT_PATH}*`, async (c) => {
      const url = new URL(c.req.url);
      // The raw, still percent-encoded path: an encoded `..` or slash never matches a key.
      const parsed = parseObjectKey(url.pathname.slice(DISK_PUT_PATH.length));
      if (!parsed) throw badRequest(msg('api.invalidObjectKey'));
      await storage.receiveUpload({
        key: parsed.key,
        expires: url.searchParams.get('expires') ?? undefined,
        signature: url.searchParams.get('signature') ?? undefined,
        contentLength: c.req.header('content-length'),
        body: c.req.raw.body,
      });
      return c.body(null, 201);
    });
  }

  app.get(`${OBJECT_URL_PREFIX}*`, async (c) => {
    const user = await currentUser(c);
    if (!user) throw unauthenticated();
    const parsed = parseObjectKey(new URL(c.req.url).pathname.slice(OBJECT_URL_PREFIX.length));
    if (!parsed) throw notFound();
    const isOwner = parsed.ownerId === user.id;
    if (parsed.purpose === 'kyc') {
      // Identity documents: the owner and reviewers only; to anyone else they do not exist.
      if (!isOwner && !user.roles.includes('reviewer')) throw notFound();
    } else {
      const isStaff = user.roles.some((role) => STAFF_ROLES.includes(role));
      if (!isOwner && !isStaff) throw forbidden(msg('api.imageNotViewable'));
    }

    const object = await storage.read(parsed.key);
    if (!object) throw notFound();
    // Disk uploads were checked on arrival; S3 ones were not, so never serve what we would refuse.
    if (object.size > MAX_UPLOAD_BYTES) {
      await object.body.cancel().catch(() => undefined);
      throw tooLarge(msg('api.fileTooLarge', { megabytes: MAX_UPLOAD_BYTES / 1024 / 1024 }));
    }
    const { type, body } = await sniffStream(object.body);
    if (!type) {
      await body.cancel().catch(() => undefined);
      throw notAnImage(msg('api.notImageFile'));
    }
    return c.body(body, 200, {
      'Content-Type': type,
      'Content-Length': String(object.size),
      // Identity documents stay out of every cache, the browser's included.
      'Cache-Control': parsed.purpose === 'kyc' ? 'private, no-store' : 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
  });

  return app;
}

/** The optional body of `POST /api/objects/upload`: none, `{}` or `{"purpose": "proof" | "kyc"}`. */
async function uploadRequest(c: Context): Promise<UploadRequest> {
  const text = await c.req.text();
  if (!text.trim()) return { purpose: 'proof' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest(msg('api.bodyNotJson'));
  }
  const result = v.safeParse(UploadRequest, json);
  if (!result.success || Array.isArray(json)) {
    const named = result.success ? null : schemaMessage(result.issues[0]?.message);
    const message = named && named.key !== 'api.badRequest' ? named : msg('api.uploadPurpose');
    throw badRequest(message, { purpose: message });
  }
  return result.output;
}
