import { createHash } from 'node:crypto';
import { type MessageRef, type UploadPurpose, msg } from '@kamai/contracts';
import { badRequest } from '../http/errors.ts';
import { differenceHash } from './dhash.ts';
import { MAX_UPLOAD_BYTES, reencodeImage, sniffImageType, SNIFF_BYTES } from './image.ts';
import { newFinalKey, objectURLFor, parseObjectURL, type ObjectKey, type ObjectStorage } from './port.ts';

const NOT_AN_IMAGE = msg('api.notAnImage');
const NOT_FOUND = msg('api.imageNotFound');

/**
 * The one check a proof or KYC command runs on an image address from its payload: it must be an
 * object this same user uploaded through `POST /api/objects/upload`, present, at most 5 MB, and
 * really an image. Returns its key; throws a 400 ApiError naming `field` otherwise.
 *
 * S3 uploads bypass the server, so this is where their size and content are enforced.
 */
export async function verifyUploadedImage(
  storage: ObjectStorage,
  objectURL: string,
  userId: string,
  options: { field?: string; purpose?: UploadPurpose } = {},
): Promise<ObjectKey> {
  const refuse = refusal(options.field);
  const parsed = parseObjectURL(objectURL);
  if (!parsed) throw refuse(msg('api.uploadFirst'));
  if (parsed.ownerId !== userId) throw refuse(msg('api.imageNotYours'));
  const purpose = options.purpose ?? 'proof';
  if (parsed.purpose !== purpose) throw refuse(msg(purpose === 'kyc' ? 'kyc.notKycImage' : 'api.notProofImage'));

  const info = await storage.stat(parsed.key);
  if (!info) throw refuse(NOT_FOUND);
  if (info.size > MAX_UPLOAD_BYTES) throw refuse(msg('api.imageTooLarge'));

  // An empty object cannot be an image; S3 would also refuse the range read of one (416).
  if (info.size === 0) throw refuse(NOT_AN_IMAGE);
  const head = await storage.readHead(parsed.key, SNIFF_BYTES);
  if (!head) throw refuse(NOT_FOUND);
  if (!sniffImageType(head)) throw refuse(NOT_AN_IMAGE);
  return parsed.key;
}

export interface AcceptedImage {
  /** The lasting address of the re-encoded image, to record in the command's event. */
  objectURL: string;
  /** SHA-256 (hex) of the re-encoded bytes: identical pictures sent by two accounts match. */
  sha256: string;
  /** A proof picture's 64-bit difference hash (16 hex digits), near-duplicates match closely; null for KYC images. */
  dhash: string | null;
  /** After the command succeeded: removes the upload as sent (with its metadata). */
  commit(): Promise<void>;
  /** After the command was refused: removes the re-encoded copy, so the upload can be sent again. */
  abandon(): Promise<void>;
}

const nothing = async () => undefined;

/**
 * Runs a command with accepted images: on success their uploads as sent are removed, on failure
 * their re-encoded copies, so a refused command (409, say) leaves the upload usable for a retry.
 */
export async function withAcceptedImages<T>(images: readonly AcceptedImage[], run: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (err) {
    await Promise.all(images.map((image) => image.abandon().catch(() => undefined)));
    throw err;
  }
  await Promise.all(images.map((image) => image.commit().catch(() => undefined)));
  return result;
}

/**
 * What a command does with an uploaded image it references: the checks of verifyUploadedImage, then
 * the bytes are decoded and encoded again (metadata such as GPS stripped, undecodable files refused)
 * and stored under a new key no upload URL was ever signed for, and the upload as sent is deleted.
 *
 * Done here rather than when the bytes arrive because with S3 the browser PUTs straight to the
 * bucket: the server first sees the bytes when a command names them. One path serves both adapters.
 * An image already re-encoded (a `final` key, e.g. resent after a network error) is kept as it is.
 */
export async function acceptUploadedImage(
  storage: ObjectStorage,
  objectURL: string,
  userId: string,
  options: { field?: string; purpose: UploadPurpose },
): Promise<AcceptedImage> {
  const refuse = refusal(options.field);
  const key = await verifyUploadedImage(storage, objectURL, userId, options);
  const object = await storage.read(key);
  if (!object) throw refuse(NOT_FOUND);
  const bytes = new Uint8Array(await new Response(object.body).arrayBuffer());
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw refuse(msg('api.imageTooLarge'));
  const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
  // Only proofs are compared by likeness; identity documents match by their exact bytes.
  const proofHash = (data: Uint8Array) => (options.purpose === 'proof' ? differenceHash(data) : Promise.resolve(null));

  if (parseObjectURL(objectURL)?.stage === 'final') {
    return { objectURL, sha256: sha256(bytes), dhash: await proofHash(bytes), commit: nothing, abandon: nothing };
  }

  const clean = await reencodeImage(bytes);
  if (!clean) throw refuse(msg('api.unreadableImage'));
  const finalKey = newFinalKey(userId, options.purpose);
  await storage.put(finalKey, clean.bytes, clean.type);
  return {
    objectURL: objectURLFor(finalKey),
    sha256: sha256(clean.bytes),
    dhash: await proofHash(clean.bytes),
    // The upload as sent (with its metadata) is not kept once the command has recorded the copy.
    commit: () => storage.delete(key),
    abandon: () => storage.delete(finalKey),
  };
}

function refusal(field: string | undefined) {
  return (message: MessageRef) => badRequest(message, field ? { [field]: message } : undefined);
}
