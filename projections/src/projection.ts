import { type KamaiEvent, eventCodec } from '@kamai/contracts';
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
 * A stored event as its current shape: lifted by the upcasters from the schema version it was written
 * at, then checked against its contract (eventCodec). Unknown types (written by a newer version) are
 * skipped by returning null; a payload that breaks its contract is a bug and throws.
 */
export function toProjectedEvent(recorded: RecordedEvent): ProjectedEvent | null {
  const event = eventCodec.decode(recorded);
  if (!event) return null;
  return {
    ...event,
    id: recorded.id,
    streamId: recorded.streamId,
    revision: recorded.revision,
    position: recorded.position,
    metadata: recorded.metadata,
    recordedAt: recorded.recordedAt,
  };
}
