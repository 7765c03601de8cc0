import { badRequest } from '../http/errors.ts';
import { IMAGE_TOO_LARGE } from '@kamai/contracts';
import { MAX_UPLOAD_BYTES, sniffImageType, SNIFF_BYTES } from './image.ts';
import { parseObjectURL, type ObjectKey, type ObjectStorage } from './port.ts';

const NOT_AN_IMAGE = 'Only PNG, JPEG, WebP or GIF images are allowed';

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
  options: { field?: string } = {},
): Promise<ObjectKey> {
  const refuse = (message: string) => badRequest(message, options.field ? { [options.field]: message } : undefined);

  const parsed = parseObjectURL(objectURL);
  if (!parsed) throw refuse('Upload the image first');
  if (parsed.ownerId !== userId) throw refuse('That image was not uploaded by you');

  const info = await storage.stat(parsed.key);
  if (!info) throw refuse('That image was not found. Please upload it again.');
  if (info.size > MAX_UPLOAD_BYTES) throw refuse(IMAGE_TOO_LARGE);

  // An empty object cannot be an image; S3 would also refuse the range read of one (416).
  if (info.size === 0) throw refuse(NOT_AN_IMAGE);
  const head = await storage.readHead(parsed.key, SNIFF_BYTES);
  if (!head) throw refuse('That image was not found. Please upload it again.');
  if (!sniffImageType(head)) throw refuse(NOT_AN_IMAGE);
  return parsed.key;
}
