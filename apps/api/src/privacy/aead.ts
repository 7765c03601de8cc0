import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM with a fresh 96-bit nonce: the nonce, and the ciphertext followed by its tag. */
export function gcmSeal(key: Buffer, plaintext: Buffer | string, aad: Buffer): { nonce: Buffer; body: Buffer } {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { nonce, body };
}

/** The plaintext of gcmSeal's output; throws when the key, the associated data or a byte differs. */
export function gcmOpen(key: Buffer, nonce: Buffer, body: Buffer, aad: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(aad);
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
}

/** gcmSeal as one buffer: nonce, ciphertext, tag. */
export function gcmSealPacked(key: Buffer, plaintext: Buffer | string, aad: Buffer): Buffer {
  const { nonce, body } = gcmSeal(key, plaintext, aad);
  return Buffer.concat([nonce, body]);
}

export function gcmOpenPacked(key: Buffer, packed: Buffer, aad: Buffer): Buffer {
  return gcmOpen(key, packed.subarray(0, NONCE_BYTES), packed.subarray(NONCE_BYTES), aad);
}
