// Helpers for the privacy specs only; nothing in the app imports this.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under a folder, recursively: a data directory's whole contents. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Which markers occur anywhere in the raw bytes of the files (a SQLite file's free pages included):
 * for a SQLite file, its WAL's and shared memory's too.
 */
export function markersIn(files: readonly string[], markers: readonly string[]): string[] {
  const all = files.flatMap((file) => (file.endsWith('.sqlite') ? [file, `${file}-wal`, `${file}-shm`] : [file]));
  const bytes = [...new Set(all)].filter((file) => existsSync(file)).map((file) => readFileSync(file));
  return markers.filter((marker) => bytes.some((b) => b.includes(Buffer.from(marker))));
}
