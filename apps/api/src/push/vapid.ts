import { createECDH } from 'node:crypto';
import type { Config } from '../config.ts';
import { readOrCreateSecretFile } from '../secret-file.ts';

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url: what the browser's pushManager.subscribe needs. */
  publicKey: string;
  privateKey: string;
}

/**
 * The server's VAPID key pair: from the environment, or a private key created once in
 * DATA_DIR/vapid.key (like secret.key) and its public key derived from it, so every process on the
 * data directory signs as the same sender and browsers' subscriptions stay valid across restarts.
 * 32 random bytes are a valid P-256 private key but for a chance of about 2^-32.
 */
export function loadVapidKeys(push: Config['push']): VapidKeys {
  if (push.vapid) return push.vapid;
  const { secret } = readOrCreateSecretFile(push.vapidKeyFile, 32);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(secret);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: secret.toString('base64url') };
}
