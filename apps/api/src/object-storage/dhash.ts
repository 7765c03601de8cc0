import { loadSharp } from './image.ts';

/**
 * The 64-bit difference hash of a picture: grey, squeezed to 9×8 pixels, and one bit per pair of
 * horizontal neighbours (1 where the left one is brighter), as 16 hex digits. It follows the
 * picture's coarse light and dark structure, so a resized, re-encoded or lightly cropped copy keeps
 * nearly every bit, and a different picture does not. Null for bytes that do not decode.
 */
export async function differenceHash(bytes: Uint8Array): Promise<string | null> {
  const sharp = await loadSharp();
  try {
    const pixels = await sharp(bytes, { limitInputPixels: 50_000_000, failOn: 'error' })
      .rotate()
      // Flattened on white: a transparent PNG hashes as it shows.
      .flatten({ background: '#ffffff' })
      .grayscale()
      .resize(9, 8, { fit: 'fill', kernel: 'linear' })
      .raw()
      .toBuffer();
    let hash = 0n;
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const left = pixels[row * 9 + col] ?? 0;
        const right = pixels[row * 9 + col + 1] ?? 0;
        hash = (hash << 1n) | (left > right ? 1n : 0n);
      }
    }
    return hash.toString(16).padStart(16, '0');
  } catch {
    return null;
  }
}
