import type { MessageParams } from './messages.ts';

/**
 * A schema's refusal as valibot carries it (an issue's `message` is a string): the catalogue key of
 * the message (SERVER_MESSAGES), its parameters as JSON after the key when it has any, e.g.
 * `api.textTooLong{"what":"title","max":100}`. The API sends it as `fieldKeys` (and the English text
 * in `fields`), the web shows the key's text in the reader's language: no sentence is ever looked up
 * to find its key. A module of its own without the catalogue's texts, so a form carries no English.
 * The key is a plain string here (the catalogue imports the rules that use this: typing it by the
 * catalogue would be an import cycle); apps/api/src/http/catalogue.unit.spec.ts fails on a key the
 * catalogue lacks.
 */
/**
 * The fields a refusal names in its `what` parameter (`api.textTooLong`): a key, whose English is
 * catalogue.ts's FIELD_NAMES and whose reader's text is the web's `messages` `fieldNames.<key>`.
 */
export type FieldName = 'title' | 'description' | 'proofInstructions' | 'taskUrl' | 'estimatedTime';

export function refusal(key: string, params?: MessageParams): string {
  return params ? `${key}${JSON.stringify(params)}` : key;
}

const REFUSAL = /^([a-zA-Z]+\.[a-zA-Z0-9]+)(\{.*\})?$/;

/** The key and parameters of a schema's refusal; null for any other text (valibot's own defaults). */
export function refusalOf(message: string | undefined): { key: string; params?: MessageParams } | null {
  const match = message === undefined ? null : REFUSAL.exec(message);
  if (!match) return null;
  if (match[2] === undefined) return { key: match[1]! };
  try {
    const params: unknown = JSON.parse(match[2]);
    if (!params || typeof params !== 'object' || Array.isArray(params)) return null;
    return { key: match[1]!, params: params as MessageParams };
  } catch {
    return null;
  }
}
