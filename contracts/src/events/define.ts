import type * as v from 'valibot';

/** A map from event type to the valibot schema of its payload. */
export type EventSchemas = Record<string, v.GenericSchema>;

/** The `{ type, data }` union of an event-schema map, discriminated on `type`. */
export type EventsOf<S extends EventSchemas> = {
  [K in keyof S & string]: { type: K; data: v.InferOutput<S[K]> };
}[keyof S & string];
