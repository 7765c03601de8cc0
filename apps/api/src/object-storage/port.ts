import { randomUUID } from 'node:crypto';

/**
 * The object storage port: what proof and KYC uploads need from a store, whatever backs it.
 * Adapters: `DiskStorage` (disk.ts, the default) and `S3Storage` (s3.ts).
 */
export interface ObjectStorage {
  /** A signed, short-lived URL the client PUTs exactly one object's bytes to. */
  createUpload(key: ObjectKey, options: { expiresInSeconds: number }): Promise<SignedUpload>;
  /** Size of a stored object, or null when there is none. */
  stat(key: ObjectKey): Promise<ObjectInfo | null>;
  /** Up to `length` first bytes (fewer when the object is shorter), or null when there is none. */
  readHead(key: ObjectKey, length: number): Promise<Uint8Array | null>;
  /** The whole object as a stream, or null when there is none. */
  read(key: ObjectKey): Promise<StoredObject | null>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: ObjectKey): Promise<void>;
}

export interface SignedUpload {
  /** Absolute (S3) or same-origin relative (disk) URL. */
  uploadURL: string;
  method: 'PUT';
}

export interface ObjectInfo {
  size: number;
}

export interface StoredObject {
  body: ReadableStream<Uint8Array>;
  size: number;
}

/**
 * A key that passed `parseObjectKey`. Adapters take only this type, so every path into a store goes
 * through the one check below.
 */
export type ObjectKey = string & { readonly __objectKey: unique symbol };

const SEGMENT = '[A-Za-z0-9-]{1,64}';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/**
 * Every object key: `uploads/<userId>/<uuid>`. The character set leaves no room for `..`, `%`,
 * backslashes or a leading slash, so a key is always a plain relative path inside the store.
 */
const OBJECT_KEY = new RegExp(`^uploads/(${SEGMENT})/(${UUID})$`);
const USER_ID = new RegExp(`^${SEGMENT}$`);

/** Where the API serves an object; this is the lasting address clients keep (`objectURL`). */
export const OBJECT_URL_PREFIX = '/objects/';

export interface ParsedKey {
  key: ObjectKey;
  /** The user who uploaded it: only they and staff may read it. */
  ownerId: string;
}

export function parseObjectKey(raw: string): ParsedKey | null {
  const match = OBJECT_KEY.exec(raw);
  if (!match?.[1]) return null;
  return { key: raw as ObjectKey, ownerId: match[1] };
}

/** The key to the next upload of this user. */
export function newUploadKey(userId: string): ObjectKey {
  // User ids come from our own store, so a mismatch is a programming error, not bad input.
  if (!USER_ID.test(userId)) throw new Error(`User id cannot be used in an object key: ${JSON.stringify(userId)}`);
  return `uploads/${userId}/${randomUUID()}` as ObjectKey;
}

export function objectURLFor(key: ObjectKey): string {
  return OBJECT_URL_PREFIX + key;
}

/** The key behind an `objectURL` exactly as the API handed it out, or null for anything else. */
export function parseObjectURL(objectURL: string): ParsedKey | null {
  if (!objectURL.startsWith(OBJECT_URL_PREFIX)) return null;
  return parseObjectKey(objectURL.slice(OBJECT_URL_PREFIX.length));
}
