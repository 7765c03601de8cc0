import { describe, expect, it } from 'vitest';
import { resources } from './allTexts.ts';
import { LANGUAGES } from './index.ts';

type Texts = { [key: string]: string | Texts };

/** Every leaf of a namespace with its dotted key: { a: { b: 'x' } } -> [['a.b', 'x']]. */
function leavesOf(texts: Texts, prefix = ''): [string, string][] {
  return Object.entries(texts).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : leavesOf(value, `${prefix}${key}.`),
  );
}
const keysOf = (texts: Texts) => leavesOf(texts).map(([key]) => key);

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
        for (const [key, value] of leavesOf(texts ?? {})) {
          expect(value.trim().length > 0, `${language}/${namespace}: ${key} is empty`).toBe(true);
          // A placeholder of the English text must be in the translation too.
          const placeholders = (text: string) => [...text.matchAll(/\{\{?\s*(\w+)/g)].map((m) => m[1]).sort();
          const englishText = leavesOf(resources.en?.[namespace] ?? {}).find(([k]) => k === key)?.[1] ?? '';
          expect(placeholders(value), `${language}/${namespace}: ${key} placeholders`).toEqual(placeholders(englishText));
        }
      }
    });
  }
});
