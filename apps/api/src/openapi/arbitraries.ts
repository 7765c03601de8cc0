import fc from 'fast-check';

/**
 * fast-check arbitraries from the document's JSON Schemas, for the fuzz test: values the schema
 * takes, and values it may refuse. Only what the document uses is read (types, enum, const,
 * anyOf/oneOf, pattern, format, lengths, ranges, required); the libraries that do this for any
 * schema are built on fast-check 1 or on Node 22.
 */
export type JsonSchema = Record<string, unknown>;

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  uri: fc.webUrl(),
  'date-time': fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
};

const anyJson = fc.jsonValue({ maxDepth: 2 });
const validCache = new WeakMap<JsonSchema, fc.Arbitrary<unknown>>();

/** Values the schema takes. */
export function valid(schema: JsonSchema): fc.Arbitrary<unknown> {
  let arbitrary = validCache.get(schema);
  if (!arbitrary) validCache.set(schema, (arbitrary = validOf(schema)));
  return arbitrary;
}

function validOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map(valid));
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
    case 'number': {
      // Exclusive bounds are moved in by one (no filter, see stringOf).
      const exclusiveMin = schema.exclusiveMinimum as number | undefined;
      const exclusiveMax = schema.exclusiveMaximum as number | undefined;
      const min = (schema.minimum as number | undefined) ?? (exclusiveMin === undefined ? undefined : Math.floor(exclusiveMin) + 1);
      const max = (schema.maximum as number | undefined) ?? (exclusiveMax === undefined ? undefined : Math.ceil(exclusiveMax) - 1);
      const ints = fc.integer({ min: Math.ceil(min ?? -1_000_000_000), max: Math.max(Math.ceil(min ?? -1_000_000_000), Math.floor(max ?? 1_000_000_000)) });
      return schema.type === 'integer' ? ints : fc.oneof(ints, ints.map((n) => n / 100));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = (schema.minItems as number | undefined) ?? 0;
      return fc.array(valid((schema.items as JsonSchema | undefined) ?? {}), { minLength, maxLength: Math.min((schema.maxItems as number | undefined) ?? 4, minLength + 4) });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const model = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valid(property)]));
      return fc.record(model, { requiredKeys: ((schema.required as string[] | undefined) ?? []).filter((key) => key in model) });
    }
    default:
      return anyJson;
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const format = FORMATS[schema.format as string];
  if (format) return format;
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = (schema.maxLength as number | undefined) ?? Math.max(minLength, 40);
  if (typeof schema.pattern === 'string') {
    // A pattern usually bounds the length itself; a value that does not fit is cut, or padded with
    // itself. Never a filter: one that rarely passes spins fast-check's generation for good (and
    // synchronously, so no test timeout stops it).
    return fc.stringMatching(new RegExp(schema.pattern)).map((s) => fitted(s, minLength, maxLength));
  }
  return fc.string({ minLength, maxLength, unit: fc.oneof(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 '), fc.constantFrom('क', 'ा', '₹', '.', '-', '"', "'", '\\', '<', '%', '\u0000', '😀')) });
}

/** `s` cut to `max`, or repeated (or padded with `a`) up to `min`. */
function fitted(s: string, min: number, max: number): string {
  if (s.length > max) return s.slice(0, max);
  return s.length >= min ? s : s.padEnd(min, s === '' ? 'a' : s);
}

/** Values the schema may refuse: another type, a required property left out, one of its properties wrong, or any JSON. */
export function invalid(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const required = (schema.required as string[] | undefined) ?? [];
  const object = schema.type === 'object' ? (valid(schema) as fc.Arbitrary<Record<string, unknown>>) : undefined;
  return fc.oneof(
    anyJson,
    fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(''), fc.constant(-1), fc.constant(1e308), fc.constant([])),
    ...(object && required.length > 0 ? [fc.tuple(object, fc.constantFrom(...required)).map(([value, key]) => omit(value, key))] : []),
    ...(object && properties.length > 0
      ? [fc.tuple(object, fc.constantFrom(...properties), anyJson).map(([value, [key, property], wrong]) => ({ ...value, [key]: wrongFor(property, wrong) }))]
      : []),
  );
}

const omit = (value: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(value).filter(([name]) => name !== key));
/** A value of another type than the property's (a string where it takes a number, and so on). */
const wrongFor = (property: JsonSchema, wrong: unknown) => (property.type === 'string' && typeof wrong === 'string' ? 12345 : wrong);
