import type { Texts } from './index.ts';

/**
 * Every locale file of both languages, read at once: for tests that compare the languages
 * (locales.unit.spec.ts). The app itself fetches one namespace of one language at a time (index.ts).
 */
const files = import.meta.glob<{ default: Texts }>('../locales/*/*.json', { eager: true });

/** language -> namespace -> texts. */
export const resources: Record<string, Record<string, Texts>> = {};
for (const [path, module] of Object.entries(files)) {
  const match = /locales\/([\w-]+)\/([\w-]+)\.json$/.exec(path);
  if (!match) continue;
  const [, language = '', namespace = ''] = match;
  (resources[language] ??= {})[namespace] = module.default;
}
