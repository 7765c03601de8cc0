import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { messageOf } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '../../../..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    // Tests and test helpers send nothing of their own.
    return entry.name.endsWith('.ts') && !/\.spec\.|\.contract\.ts$|^testing\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** A line that builds an error a person reads, or names a text for one. */
const ERROR_LINE = /(DomainError|ApiError|badRequest|forbidden|notFound|conflict|tooMany|tooLarge|notAnImage|refuse)\(|^\s*(export )?const [A-Z_]+ = /;
/** A sentence in quotes or backticks: starts with a capitalised word (not SQL) and has a space. */
const SENTENCE = /'([A-Z][a-z-][^']* [^']*)'|`([A-Z][a-z-][^`]* [^`]*)`/g;

describe('the messages the server sends', () => {
  it('are all in the catalogue (SERVER_MESSAGES), so each has an English and a Hindi text', () => {
    const missing: string[] = [];
    for (const file of [...sourcesUnder(join(repoRoot, 'apps/api/src')), ...sourcesUnder(join(repoRoot, 'domain/src'))]) {
      for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        if (!ERROR_LINE.test(line)) continue;
        for (const match of line.matchAll(SENTENCE)) {
          // A template's interpolations stand for a parameter's value.
          const text = (match[1] ?? match[2] ?? '').replace(/\$\{[^}]*\}/g, 'X');
          if (!messageOf(text)) missing.push(`${file.slice(repoRoot.length + 1)}:${i + 1}: ${text}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('finds a text with parameters back to its key', () => {
    expect(messageOf('This withdrawal request has already been paid')).toEqual({ key: 'api.withdrawalDecided', params: { status: 'paid' } });
    expect(messageOf('You are not signed in')).toEqual({ key: 'api.notSignedIn' });
    expect(messageOf('Some text nobody sends')).toBeNull();
  });
});
