import { type KamaiEvent, eventCodec } from '@kamai/contracts';
import type { EventMetadata, RecordedEvent } from '@kamai/domain';
import type { Rows } from './rows.ts';

/** A recorded event whose payload has been checked against its contract. */
export type ProjectedEvent = KamaiEvent & {
  id: string;
  streamId: string;
  revision: number;
  position: number;
  metadata: EventMetadata;
  recordedAt: string;
};

/** The shape of one read-model table: its columns and constraints, and its indexes. */
export interface TableSpec {
  /** The body of CREATE TABLE: columns and table constraints, as SQL. */
  columns: string;
  /** Index name (unique within the table) -> its column list, e.g. `{ listed: 'deleted_at, is_active, position' }`. */
  indexes?: Record<string, string>;
}

/**
 * A read model: the tables it owns, the events it reads, and how an event turns into row changes.
 * Each projection keeps its own checkpoint. Bump `version` whenever the tables or what `apply` writes
 * for past events change: the runner then builds the new version aside from position zero and swaps
 * it in, while the old rows keep serving.
 */
export interface Projection {
  /** Unique and stable: the checkpoint's key and what `rebuild-read-models <name>` takes. */
  name: string;
  version: number;
  /** Table name -> shape. Only this projection writes these tables; queries may read any. */
  tables: Readonly<Record<string, TableSpec>>;
  /** Tables earlier versions had and this one does not: the swap of a build of this version drops them. */
  retired?: readonly string[];
  /** The event types `apply` does something with; others are never passed to it. */
  handles: readonly ProjectedEvent['type'][];
  /**
   * The sealed personal fields (PERSONAL_FIELDS) `apply` reads: a type of `handles` (all its sealed
   * fields) or one field of one, as `Type:path`; absent, every type of `handles`. A build reading on
   * a thread of its own opens an event's blob only if some of its projections reads a field the blob
   * holds (opening is an AES-GCM decryption per event); in the others the sealed fields read
   * NOT_OPENED. projectionSpec fails a projection whose rows change when they do.
   */
  opens?: readonly OpenedField[];
  /**
   * Turns one event into row changes, written (and read, when it needs to) through `rows`,
   * synchronously, inside the caller's transaction. Must be deterministic: a rebuild replays it.
   * `rows` names tables by their ReadDb name; a rebuild's writer points them at its shadow tables.
   */
  apply(rows: Rows, event: ProjectedEvent): void;
}

/** Gives a projection definition its types checked, nothing more. */
export function defineProjection(projection: Projection): Projection {
  return projection;
}

/**
 * A stored event as its current shape: lifted by the upcasters from the schema version it was written
 * at, then checked against its contract (eventCodec). Unknown types (written by a newer version) are
 * skipped by returning null; a payload that breaks its contract is a bug and throws.
 */
export function toProjectedEvent(recorded: RecordedEvent): ProjectedEvent | null {
  const event = eventCodec.decode(recorded);
  if (!event) return null;
  // One object literal of one shape for every event (the cast: TypeScript does not follow the
  // union's type and data into it): a rebuild makes one per event, and assigning these onto the
  // decoded object cost more, then more again in the JSON of a reader thread's page.
  return {
    type: event.type,
    data: event.data,
    id: recorded.id,
    streamId: recorded.streamId,
    revision: recorded.revision,
    position: recorded.position,
    metadata: recorded.metadata,
    recordedAt: recorded.recordedAt,
  } as ProjectedEvent;
}

/** A type whose sealed fields `apply` reads, all of them, or one of its sealed fields as `Type:path`. */
export type OpenedField = ProjectedEvent['type'] | `${ProjectedEvent['type']}:${string}`;

/** The sealed fields some of `projections` reads (Projection.opens): types, and `Type:path` entries. */
export function openedFields(projections: readonly Projection[]): Set<string> {
  return new Set(projections.flatMap((p) => p.opens ?? p.handles));
}

/** Whether a build opens an event of `type` whose blob seals `paths`, given openedFields' entries. */
export function opensSealed(opened: ReadonlySet<string>, type: string, paths: readonly string[]): boolean {
  if (opened.has(type)) return true;
  for (const path of paths) if (opened.has(`${type}:${path}`)) return true;
  return false;
}

/** Keeps the events of `types`, decoded (an unknown type is left out, as the runner leaves it). */
export function decodePage(page: readonly RecordedEvent[], types: ReadonlySet<string>): ProjectedEvent[] {
  const events: ProjectedEvent[] = [];
  for (const recorded of page) {
    if (!types.has(recorded.type)) continue;
    const event = toProjectedEvent(recorded);
    if (event) events.push(event);
  }
  return events;
}
