import { describe, expect, it } from 'vitest';
import { LANGUAGES, resources } from './index.ts';

type Texts = { [key: string]: string | Texts };

/** Every leaf key of a namespace, dotted: { a: { b: 'x' } } -> ['a.b']. */
function keysOf(texts: Texts, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

describe('translations', () => {
  const namespaces = new Set(LANGUAGES.flatMap((language) => Object.keys(resources[language] ?? {})));

  it('has the common namespace in every language', () => {
    for (const language of LANGUAGES) expect(Object.keys(resources[language] ?? {})).toContain('common');
  });

  for (const namespace of namespaces) {
    it(`has every key of "${namespace}" in every language, none empty`, () => {
      const english = keysOf(resources.en?.[namespace] ?? {}).sort();
      for (const language of LANGUAGES) {
        const texts = resources[language]?.[namespace];
        expect(texts, `${language}/${namespace}.json is missing`).toBeDefined();
        expect(keysOf(texts ?? {}).sort(), `${language}/${namespace}.json`).toEqual(english);
        for (const key of keysOf(texts ?? {})) {
          const value = key.split('.').reduce<string | Texts | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), texts);
          expect(typeof value === 'string' && value.trim().length > 0, `${language}/${namespace}: ${key} is empty`).toBe(true);
        }
      }
    });
  }
});
