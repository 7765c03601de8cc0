import * as v from 'valibot';

/**
 * `GET /api/health`: the read models, the disk and the ledger's signed checkpoints. `status` is
 * `failing` (answered 503) when DATA_DIR cannot be written, `degraded` with a `reason` when the app
 * still serves; the same body is answered with 503 when the read models stop following the store.
 */
export const HealthBody = v.strictObject({
  status: v.picklist(['ok', 'degraded', 'failing']),
  /** Where this process runs the read models (PROJECTIONS). */
  projections: v.picklist(['inline', 'thread', 'off']),
  /** Log position the read models reflect, and the store's head. */
  position: v.number(),
  head: v.number(),
  /** The read models parked at an event they could not apply. */
  parked: v.optional(v.array(v.string())),
  ledger: v.optional(
    v.strictObject({
      state: v.picklist(['off', 'signing', 'refused']),
      witness: v.boolean(),
      latestPosition: v.nullable(v.number()),
      reason: v.optional(v.string()),
    }),
  ),
  reason: v.optional(v.string()),
  readModels: v.array(
    v.strictObject({
      name: v.string(),
      version: v.number(),
      storedVersion: v.nullable(v.number()),
      position: v.number(),
      state: v.picklist(['live', 'building', 'stale', 'newer', 'parked', 'failed']),
      parked: v.optional(v.strictObject({ position: v.number(), eventType: v.string(), error: v.string(), since: v.string() })),
      /** How many events it is behind the store's head. */
      lag: v.number(),
    }),
  ),
  storage: v.optional(
    v.strictObject({
      state: v.picklist(['ok', 'low', 'read_only', 'gone']),
      reason: v.optional(v.string()),
      reserveBytes: v.number(),
      files: v.array(v.strictObject({ name: v.string(), freeBytes: v.nullable(v.number()) })),
    }),
  ),
});
export type HealthBody = v.InferOutput<typeof HealthBody>;
