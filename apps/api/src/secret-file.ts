import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * A random secret kept in a file, created once when missing and shared by every process on the
 * data directory. The secret is written to a file of its own and then hard-linked into place: the
 * link appears with its whole content and fails if another process linked first, so two first starts
 * agree and neither ever reads a half-written key (an exclusive create followed by a write let the
 * second process read an empty file). Returns the bytes and whether this call created the file.
 */
export function readOrCreateSecretFile(file: string, bytes = 32): { secret: Buffer; created: boolean } {
  let created = false;
  if (!existsSync(file)) {
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, randomBytes(bytes).toString('hex'), { mode: 0o600 });
    try {
      linkSync(draft, file);
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(draft);
    }
  }
  return { secret: Buffer.from(readFileSync(file, 'utf8').trim(), 'hex'), created };
}
