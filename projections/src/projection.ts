import * as v from 'valibot';
import { allEvents, type KamaiEvent } from '@kamai/contracts';
import type { EventMetadata, RecordedEvent } from '@kamai/domain';
import type { Kysely } from 'kysely';
import type { ReadDb } from './schema.ts';

/** A recorded event whose payload has been checked against its contract. */
export type ProjectedEvent = KamaiEvent & {
  id: string;
  streamId: string;
  revision: number;
  position: number;
  metadata: EventMetadata;
  recordedAt: string;
};

/** Turns one event into row changes. Must be deterministic: a rebuild replays it. */
export interface Projection {
  name: string;
  apply(db: Kysely<ReadDb>, event: ProjectedEvent): Promise<void>;
}

/**
 * Checks a stored event against its payload schema. Unknown types (written by a newer version) are
 * skipped by returning null; a known type with a payload that breaks its contract is a bug and throws.
 */
export function toProjectedEvent(recorded: RecordedEvent): ProjectedEvent | null {
  if (!Object.hasOwn(allEvents, recorded.type)) return null;
  const schema = allEvents[recorded.type as keyof typeof allEvents];
  const data = v.parse(schema, recorded.data);
  return {
    type: recorded.type,
    data,
    id: recorded.id,
    streamId: recorded.streamId,
    revision: recorded.revision,
    position: recorded.position,
    metadata: recorded.metadata,
    recordedAt: recorded.recordedAt,
  } as ProjectedEvent;
}
