import { describe, expect, it } from 'vitest';
import { allEvents } from './all.ts';
import { EVENT_FIELDS, PERSONAL_FIELDS, REASON_OTHER, reasonCodeOf } from './personal.ts';
import { LEDGER_TEXTS, NOTIFICATION_TEXTS } from '../recorded-texts.ts';

interface Node {
  type: string;
  entries?: Record<string, Node>;
  options?: readonly Node[];
  wrapped?: Node;
  item?: Node;
  value?: Node;
  getter?: () => Node;
}

/**
 * Every string leaf of a valibot schema, by path (`a.b`, `items[].id`, `params.*`). Picklists and
 * literals are codes by their schema; a JSON value (a lazy union) is one opaque leaf.
 */
function stringPaths(node: Node, path: string, out: Set<string>): void {
  const at = (name: string) => (path === '' ? name : `${path}.${name}`);
  switch (node.type) {
    case 'string':
      out.add(path);
      return;
    case 'object':
      for (const [name, entry] of Object.entries(node.entries ?? {})) stringPaths(entry, at(name), out);
      return;
    case 'variant':
    case 'union':
      for (const option of node.options ?? []) stringPaths(option, path, out);
      return;
    case 'optional':
    case 'nullable':
    case 'nullish':
      stringPaths(node.wrapped!, path, out);
      return;
    case 'array':
      stringPaths(node.item!, `${path}[]`, out);
      return;
    case 'record':
      stringPaths(node.value!, at('*'), out);
      return;
    case 'lazy':
      out.add(path);
      return;
    case 'picklist':
    case 'literal':
    case 'number':
    case 'boolean':
    case 'null':
      return;
    default:
      throw new Error(`${path}: a schema of type ${node.type} the walk does not know`);
  }
}

const classified = (type: keyof typeof EVENT_FIELDS) => {
  const c = EVENT_FIELDS[type];
  return [...(c.personal ?? []), ...(c.freeText ?? []), ...Object.keys(c.plain ?? {})];
};

describe('every string field of every event is classified', () => {
  const types = Object.keys(allEvents) as (keyof typeof allEvents)[];

  it.each(types)('%s', (type) => {
    const found = new Set<string>();
    stringPaths(allEvents[type] as unknown as Node, '', found);
    const listed = classified(type);
    // Nobody left out, and nothing classified that the schema does not have (a renamed field).
    expect([...found].filter((path) => !listed.includes(path)), 'unclassified string fields').toEqual([]);
    const known = (path: string) => found.has(path) || [...found].some((f) => f.endsWith('.*') && path.startsWith(f.slice(0, -1)));
    expect(listed.filter((path) => !known(path)), 'classified fields the schema does not have').toEqual([]);
    expect(new Set(listed).size, 'a field classified twice').toBe(listed.length);
  });

  it('classifies every message parameter the recorded texts use, where an event carries parameters', () => {
    const names = new Set<string>();
    for (const text of [...Object.values(NOTIFICATION_TEXTS).flatMap((t) => [t.title, t.message]), ...Object.values(LEDGER_TEXTS)]) {
      for (const [, name] of text.matchAll(/\{(\w+)\}/g)) names.add(name!);
    }
    for (const type of ['NotificationSent', 'WalletCredited', 'WalletDebited'] as const) {
      expect([...names].filter((name) => !classified(type).includes(`params.${name}`)), type).toEqual([]);
    }
  });

  it('seals the personal fields and the free text, under a subject, and nothing else', () => {
    for (const type of types) {
      const c = EVENT_FIELDS[type];
      const sealed = [...(c.personal ?? []), ...(c.freeText ?? [])];
      if (sealed.length === 0) expect(PERSONAL_FIELDS[type], type).toBeUndefined();
      else expect(PERSONAL_FIELDS[type], type).toEqual({ subject: c.subject, paths: sealed });
    }
    // The free text issue 34 found in the clear.
    for (const [type, path] of [
      ['ProofRejected', 'reason'],
      ['WithdrawalRejected', 'reason'],
      ['WithdrawalFailed', 'reason'],
      ['WithdrawalReversed', 'reason'],
      ['AdjustmentRequested', 'reason'],
      ['KycDocumentRejected', 'reason'],
      ['WalletCredited', 'params.reason'],
      ['IdempotentResponseRecorded', 'body'],
    ] as const) {
      expect(PERSONAL_FIELDS[type]?.paths, type).toContain(path);
    }
  });
});

describe('reason codes', () => {
  it('name the canned reason given in either language, and "other" for words of the reviewer’s own', () => {
    const canned = [{ en: 'The screenshot is blurry or cut off', hi: 'स्क्रीनशॉट धुंधला है या कटा हुआ है' }];
    expect(reasonCodeOf(' The screenshot is blurry or cut off ', canned)).toBe('the-screenshot-is-blurry-or-cut-off');
    expect(reasonCodeOf('स्क्रीनशॉट धुंधला है या कटा हुआ है', canned)).toBe('the-screenshot-is-blurry-or-cut-off');
    expect(reasonCodeOf('blurry screenshot of Zebulon', canned)).toBe(REASON_OTHER);
  });
});
