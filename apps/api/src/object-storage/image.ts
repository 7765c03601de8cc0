import { MAX_IMAGE_BYTES, msg } from '@kamai/contracts';
import { ApiError } from '../http/errors.ts';

/** One proof or KYC image is at most 5 MB (contracts' MAX_IMAGE_BYTES). */
export const MAX_UPLOAD_BYTES = MAX_IMAGE_BYTES;
/** Enough leading bytes to recognise every accepted format (WebP needs 12). */
export const SNIFF_BYTES = 12;

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

/** The image type the bytes really are, whatever a header claimed; null for anything else. */
export function sniffImageType(head: Uint8Array): ImageType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  return null;
}

export const tooLarge = (message = msg('api.imageTooLarge')) => new ApiError(413, 'payload_too_large', message);
export const notAnImage = (message = msg('api.notAnImage')) => new ApiError(415, 'unsupported_media_type', message);

/**
 * Reads just enough of a stream to sniff it, and hands back a stream that still yields every byte,
 * so an object can be checked and served from one read.
 */
export async function sniffStream(
  body: ReadableStream<Uint8Array>,
): Promise<{ type: ImageType | null; body: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const seen: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length < SNIFF_BYTES) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    seen.push(next.value);
    length += next.value.byteLength;
  }
  const type = sniffImageType(Buffer.concat(seen));
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of seen) controller.enqueue(chunk);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { type, body: rest };
}

const importSharp = () => import('sharp');
let sharpModule: ReturnType<typeof importSharp> | undefined;
/** sharp (a native module, slow to load) loads with the first upload, not with every start. */
export const loadSharp = async () => (await (sharpModule ??= importSharp())).default;

const OUTPUT_FORMATS = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' } as const;

/**
 * Decodes an uploaded image and encodes it again, in its own format, upright. sharp writes no
 * metadata unless asked, so camera data (EXIF, GPS position, maker notes) does not survive, and
 * bytes that do not decode as a whole image are refused (null). The pixel limit stops
 * decompression bombs: a 5 MB file can claim billions of pixels.
 */
export async function reencodeImage(bytes: Uint8Array): Promise<{ bytes: Buffer; type: ImageType } | null> {
  const sharp = await loadSharp();
  try {
    const image = sharp(bytes, { limitInputPixels: 50_000_000, failOn: 'error' });
    const { format } = await image.metadata();
    if (!format || !Object.hasOwn(OUTPUT_FORMATS, format)) return null;
    const output = format as keyof typeof OUTPUT_FORMATS;
    // rotate() with no angle applies the EXIF orientation before that tag is dropped.
    const encoded = await image.rotate().toFormat(output, output === 'jpeg' ? { quality: 90 } : {}).toBuffer();
    return { bytes: encoded, type: OUTPUT_FORMATS[output] };
  } catch {
    return null;
  }
}
