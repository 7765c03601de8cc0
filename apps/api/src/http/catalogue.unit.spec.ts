import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as contracts from '@kamai/contracts';
import { SERVER_MESSAGES, refusal, refusalOf } from '@kamai/contracts';
import { schemaMessage } from './validate.ts';
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

/** A line that raises an error a person reads. */
const ERROR_LINE = /(DomainError|ApiError|badRequest|forbidden|notFound|conflict|tooMany|tooLarge|notAnImage|refuse|idParam)\(/;
/** A sentence in quotes or backticks: starts with a capitalised word (not SQL) and has a space. */
const SENTENCE = /'([A-Z][a-z-][^']* [^']*)'|`([A-Z][a-z-][^`]* [^`]*)`/g;

/** Every string a valibot schema (and its pipes, entries, options) names as its message. */
function schemaMessages(schema: unknown, seen = new Set<unknown>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const node = schema as Record<string, unknown>;
  const own = typeof node.message === 'string' && 'kind' in node ? [node.message] : [];
  const children = [node.pipe, node.entries, node.options, node.wrapped, node.item, node.items, node.key, node.value].flatMap((child) =>
    Array.isArray(child) ? child : child && typeof child === 'object' && !('kind' in child) ? Object.values(child) : [child],
  );
  return [...own, ...children.flatMap((child) => schemaMessages(child, seen))];
}

describe('the messages the server sends', () => {
  it('are raised by catalogue key, never as an English sentence', () => {
    const sentences: string[] = [];
    for (const file of [...sourcesUnder(join(repoRoot, 'apps/api/src')), ...sourcesUnder(join(repoRoot, 'domain/src')), ...sourcesUnder(join(repoRoot, 'projections/src'))]) {
      for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        if (!ERROR_LINE.test(line)) continue;
        for (const match of line.matchAll(SENTENCE)) sentences.push(`${file.slice(repoRoot.length + 1)}:${i + 1}: ${match[1] ?? match[2]}`);
      }
    }
    expect(sentences).toEqual([]);
  });

  it('include every message a contract schema refuses with, named by its catalogue key (never a sentence)', () => {
    const messages = Object.values(contracts).flatMap((value) => schemaMessages(value));
    expect(messages.length).toBeGreaterThan(50);
    const notKeys = [...new Set(messages)].filter((text) => {
      const ref = refusalOf(text);
      return !ref || !Object.hasOwn(SERVER_MESSAGES, ref.key);
    });
    expect(notKeys).toEqual([]);
  });

  it('turn a schema refusal into the key and parameters the error body carries; anything else is a bad request', () => {
    expect(schemaMessage(refusal('auth.mobile'))).toEqual({ key: 'auth.mobile' });
    expect(schemaMessage(refusal('api.textTooLong', { what: 'title', max: 120 }))).toEqual({ key: 'api.textTooLong', params: { what: 'title', max: 120 } });
    // An English sentence, even one the catalogue has, is not looked up.
    expect(schemaMessage(SERVER_MESSAGES['auth.mobile'])).toEqual({ key: 'api.badRequest' });
    expect(schemaMessage('auth.noSuchKey')).toEqual({ key: 'api.badRequest' });
    expect(schemaMessage('Invalid type: Expected string but received 5')).toEqual({ key: 'api.badRequest' });
  });
});
