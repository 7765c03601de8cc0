import * as v from 'valibot';

/** Any JSON value (a recorded response body). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const Json: v.GenericSchema<JsonValue> = v.lazy(() =>
  v.union([v.string(), v.number(), v.boolean(), v.null(), v.array(Json), v.record(v.string(), Json)]),
);
