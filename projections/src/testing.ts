import type { KamaiEvent } from '@kamai/contracts';
import type { EventStore, RecordedEvent } from '@kamai/domain';

/**
 * Recorded events made from plain `{ type, data }` pairs with their streams, numbered as a store
 * would number them. For read-model specs: given these events, then these rows.
 */
export function recordEvents(events: ReadonlyArray<{ stream: string; event: KamaiEvent }>): RecordedEvent[] {
  const revisions = new Map<string, number>();
  return events.map(({ stream, event }, index) => {
    const revision = (revisions.get(stream) ?? -1) + 1;
    revisions.set(stream, revision);
    return {
      id: `evt-${index + 1}`,
      streamId: stream,
      revision,
      position: index + 1,
      type: event.type,
      data: event.data as RecordedEvent['data'],
      metadata: {},
      recordedAt: '2026-11-21T10:00:00.000Z',
    };
  });
}

/** The read side of a store over a fixed list: enough for rebuildReadModels in specs and benchmarks. */
export function listAsEventSource(events: readonly RecordedEvent[]): Pick<EventStore, 'readAll'> {
  return {
    async readAll({ after, limit }) {
      // Positions are 1-based and dense here, so the index is the position.
      return events.slice(after, after + limit);
    },
  };
}
