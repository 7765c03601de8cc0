import { msg } from '@kamai/contracts';
import { randomUUID } from 'node:crypto';
import { access, link, mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { hmac } from '@oslojs/crypto/hmac';
import { SHA256 } from '@oslojs/crypto/sha2';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { encodeHexLowerCase } from '@oslojs/encoding';
import { badRequest, conflict, forbidden } from '../http/errors.ts';
import { MAX_UPLOAD_BYTES, notAnImage, sniffImageType, SNIFF_BYTES, tooLarge } from './image.ts';
import type { ObjectInfo, ObjectKey, ObjectStorage, SignedUpload, StoredObject } from './port.ts';

/** The route that receives disk uploads; the signed URLs point here, on this same server. */
export const DISK_PUT_PATH = '/api/objects/put/';

export interface DiskStorageOptions {
  /** Folder holding every object, e.g. `<DATA_DIR>/objects`. */
  root: string;
  /** Key for the upload URL signatures; at least 32 random bytes. */
  secret: Uint8Array;
  /** Injected so tests can move time; defaults to the system clock. */
  now?: () => Date;
}

/** What the PUT route hands over: the raw key and query exactly as they arrived. */
export interface IncomingUpload {
  key: ObjectKey;
  expires: string | undefined;
  signature: string | undefined;
  contentLength: string | undefined;
  body: ReadableStream<Uint8Array> | null;
}

const linkExpired = () => forbidden(msg('api.uploadLinkExpired'));
const linkInvalid = () => forbidden(msg('api.uploadLinkInvalid'));

/**
 * Objects as files under one root folder. Uploads come back to this server through a URL signed
 * with HMAC-SHA256, so the server sees every byte and enforces type and size while receiving.
 */
export class DiskStorage implements ObjectStorage {
  readonly root: string;
  readonly #secret: Uint8Array;
  readonly #now: () => Date;

  constructor(options: DiskStorageOptions) {
    if (options.secret.byteLength < 32) throw new Error('DiskStorage secret must be at least 32 bytes');
    this.root = path.resolve(options.root);
    this.#secret = options.secret;
    this.#now = options.now ?? (() => new Date());
  }

  async createUpload(key: ObjectKey, options: { expiresInSeconds: number }): Promise<SignedUpload> {
    const expires = Math.floor(this.#now().getTime() / 1000) + options.expiresInSeconds;
    const query = new URLSearchParams({ expires: String(expires), signature: this.#sign(key, String(expires)) });
    return { uploadURL: `${DISK_PUT_PATH}${key}?${query}`, method: 'PUT' };
  }

  async stat(key: ObjectKey): Promise<ObjectInfo | null> {
    const file = await this.#openExisting(key);
    if (!file) return null;
    try {
      return { size: (await file.stat()).size };
    } finally {
      await file.close();
    }
  }

  async readHead(key: ObjectKey, length: number): Promise<Uint8Array | null> {
    const file = await this.#openExisting(key);
    if (!file) return null;
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  async read(key: ObjectKey): Promise<StoredObject | null> {
    const file = await this.#openExisting(key);
    if (!file) return null;
    try {
      const { size } = await file.stat();
      // The stream owns the handle from here and closes it when done or cancelled.
      const body = Readable.toWeb(file.createReadStream()) as ReadableStream<Uint8Array>;
      return { body, size };
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  async delete(key: ObjectKey): Promise<void> {
    await unlink(this.#pathOf(key)).catch((err: unknown) => {
      if (!isMissing(err)) throw err;
    });
  }

  async put(key: ObjectKey, bytes: Uint8Array, _contentType: string): Promise<void> {
    const target = this.#pathOf(key);
    const tmpDir = path.join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
    try {
      const file = await open(tmp, 'wx');
      try {
        await file.write(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await mkdir(path.dirname(target), { recursive: true });
      // Linking fails when the key exists: a stored object never changes.
      await link(tmp, target);
    } finally {
      await unlink(tmp).catch(() => undefined);
    }
  }

  /**
   * Receives one PUT to a signed URL: checks signature and expiry, streams the body to a temporary
   * file while counting (413 past the limit) and sniffing (415 unless an image), then links it into
   * place. Linking fails when the key exists, so an object never changes once uploaded (409).
   */
  async receiveUpload(upload: IncomingUpload): Promise<void> {
    this.#verifySignature(upload);
    if (upload.contentLength !== undefined && Number(upload.contentLength) > MAX_UPLOAD_BYTES) throw tooLarge();
    const target = this.#pathOf(upload.key);
    if (await this.#exists(target)) throw conflict(msg('api.imageAlreadyUploaded'));

    const tmpDir = path.join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
    const file = await open(tmp, 'wx');
    let closed = false;
    try {
      await receiveImage(upload.body, file);
      await file.sync();
      await file.close();
      closed = true;
      await mkdir(path.dirname(target), { recursive: true });
      await link(tmp, target).catch((err: unknown) => {
        if (isErrno(err, 'EEXIST')) throw conflict(msg('api.imageAlreadyUploaded'));
        throw err;
      });
    } finally {
      if (!closed) await file.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
    }
  }

  #verifySignature(upload: IncomingUpload) {
    const { expires, signature } = upload;
    if (!expires || !/^\d{1,12}$/.test(expires) || !signature) throw linkInvalid();
    const expected = new TextEncoder().encode(this.#sign(upload.key, expires));
    if (!constantTimeEqual(expected, new TextEncoder().encode(signature))) throw linkInvalid();
    // Checked after the signature so a forged expiry is reported as forged, not as expired.
    if (Math.floor(this.#now().getTime() / 1000) > Number(expires)) throw linkExpired();
  }

  #sign(key: ObjectKey, expires: string): string {
    const message = new TextEncoder().encode(`PUT\n${key}\n${expires}`);
    return encodeHexLowerCase(hmac(SHA256, this.#secret, message));
  }

  #pathOf(key: ObjectKey): string {
    // The key type already rules out `..`; this re-check keeps the invariant local to the disk code.
    const full = path.resolve(this.root, ...key.split('/'));
    if (!full.startsWith(this.root + path.sep)) throw badRequest(msg('api.invalidObjectKey'));
    return full;
  }

  async #openExisting(key: ObjectKey): Promise<FileHandle | null> {
    try {
      const file = await open(this.#pathOf(key), 'r');
      if ((await file.stat()).isFile()) return file;
      await file.close();
      return null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async #exists(file: string): Promise<boolean> {
    try {
      await access(file);
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }
}

/** Copies the body into `file`, refusing it as soon as it is too large or clearly not an image. */
async function receiveImage(body: ReadableStream<Uint8Array> | null, file: FileHandle): Promise<void> {
  if (!body) throw notAnImage();
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  let sniffed = false;
  try {
    for (;;) {
      const next = await reader.read().catch(() => {
        throw badRequest(msg('api.uploadIncomplete'));
      });
      if (next.done) break;
      size += next.value.byteLength;
      if (size > MAX_UPLOAD_BYTES) throw tooLarge();
      if (!sniffed) {
        head.push(next.value);
        if (size >= SNIFF_BYTES) {
          if (!sniffImageType(Buffer.concat(head))) throw notAnImage();
          sniffed = true;
        }
      }
      await file.write(next.value);
    }
    if (!sniffed && !sniffImageType(Buffer.concat(head))) throw notAnImage();
  } catch (err) {
    // Stop reading; the HTTP server drains or closes the rest of the request.
    await reader.cancel().catch(() => undefined);
    throw err;
  }
}

function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}

function isMissing(err: unknown): boolean {
  return isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR');
}
