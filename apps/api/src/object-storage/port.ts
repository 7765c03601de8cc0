import { randomUUID } from 'node:crypto';
import type { UploadPurpose } from '@kamai/contracts';

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
  /**
   * Stores bytes the server produced (a re-encoded image) under a new key; never signed for upload,
   * so no client can overwrite it.
   */
  put(key: ObjectKey, bytes: Uint8Array, contentType: string): Promise<void>;
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
 * Every object key: `<prefix>/<userId>/<uuid>`. The character set leaves no room for `..`, `%`,
 * backslashes or a leading slash, so a key is always a plain relative path inside the store.
 *
 * Prefixes: what the browser uploads (`uploads/` for proof, `kyc-uploads/` for KYC) and what the
 * server stores once it has re-encoded an upload a command referenced (`proofs/`, `kyc/`).
 */
const PREFIXES = {
  uploads: { purpose: 'proof', stage: 'upload' },
  'kyc-uploads': { purpose: 'kyc', stage: 'upload' },
  proofs: { purpose: 'proof', stage: 'final' },
  kyc: { purpose: 'kyc', stage: 'final' },
} as const satisfies Record<string, { purpose: UploadPurpose; stage: 'upload' | 'final' }>;
type Prefix = keyof typeof PREFIXES;
const OBJECT_KEY = new RegExp(`^(${Object.keys(PREFIXES).join('|')})/(${SEGMENT})/(${UUID})$`);
const USER_ID = new RegExp(`^${SEGMENT}$`);

/** Where the API serves an object; this is the lasting address clients keep (`objectURL`). */
export const OBJECT_URL_PREFIX = '/objects/';

export interface ParsedKey {
  key: ObjectKey;
  /** The user who uploaded it: only they and staff (reviewers, for KYC) may read it. */
  ownerId: string;
  /** Proof images and KYC images are kept and guarded apart. */
  purpose: UploadPurpose;
  /** `upload`: bytes as the browser sent them; `final`: re-encoded by the server. */
  stage: 'upload' | 'final';
}

export function parseObjectKey(raw: string): ParsedKey | null {
  const match = OBJECT_KEY.exec(raw);
  if (!match?.[1] || !match[2]) return null;
  const { purpose, stage } = PREFIXES[match[1] as Prefix];
  return { key: raw as ObjectKey, ownerId: match[2], purpose, stage };
}

function keyFor(prefix: Prefix, userId: string): ObjectKey {
  // User ids come from our own store, so a mismatch is a programming error, not bad input.
  if (!USER_ID.test(userId)) throw new Error(`User id cannot be used in an object key: ${JSON.stringify(userId)}`);
  return `${prefix}/${userId}/${randomUUID()}` as ObjectKey;
}

/** The key to the next upload of this user. */
export function newUploadKey(userId: string, purpose: UploadPurpose = 'proof'): ObjectKey {
  return keyFor(purpose === 'kyc' ? 'kyc-uploads' : 'uploads', userId);
}

/** A fresh key for the re-encoded copy of an upload: one no upload URL was ever signed for. */
export function newFinalKey(userId: string, purpose: UploadPurpose): ObjectKey {
  return keyFor(purpose === 'kyc' ? 'kyc' : 'proofs', userId);
}

export function objectURLFor(key: ObjectKey): string {
  return OBJECT_URL_PREFIX + key;
}

/** The key behind an `objectURL` exactly as the API handed it out, or null for anything else. */
export function parseObjectURL(objectURL: string): ParsedKey | null {
  if (!objectURL.startsWith(OBJECT_URL_PREFIX)) return null;
  return parseObjectKey(objectURL.slice(OBJECT_URL_PREFIX.length));
}
