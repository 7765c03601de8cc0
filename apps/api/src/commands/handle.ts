import { randomUUID } from 'node:crypto';
import {
  type Evolver,
  type EventMetadata,
  type EventStore,
  type Json,
  WrongExpectedRevisionError,
  fold,
} from '@kamai/domain';

export interface Decided<State, Event> {
  /** State of the stream after the new events. */
  state: State;
  events: Event[];
  /** Global position of the last appended event, or of nothing (0) when the decision added none. */
  position: number;
}

/** A stream folded into its state, with the revision to expect when appending after it. */
export async function loadStream<State, Event>(
  store: EventStore,
  streamId: string,
  evolver: Evolver<State, Event>,
): Promise<{ state: State; revision: number | 'no_stream' }> {
  const recorded = await store.readStream(streamId);
  // Stored events were written by deciders from these same contracts; projections validate them.
  const state = fold(evolver, recorded.map((e) => ({ type: e.type, data: e.data }) as unknown as Event));
  const last = recorded.at(-1);
  return { state, revision: last ? last.revision : 'no_stream' };
}

/**
 * The one way a command changes the system: load the stream, fold it into state, let the pure
 * `decide` turn the command into events (or throw a DomainError), and append them expecting the
 * revision that was read. When another writer got there first the whole cycle runs again on the
 * new state, so every decision is made on the latest facts of its stream.
 */
export async function handleCommand<State, Event extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  evolver: Evolver<State, Event>,
  decide: (state: State) => Event[],
  metadata: EventMetadata = {},
  maxAttempts = 20,
): Promise<Decided<State, Event>> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadStream(store, streamId, evolver);
    const events = decide(state);
    if (events.length === 0) return { state, events, position: 0 };
    try {
      const result = await store.append(
        streamId,
        events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data as Json, metadata })),
        revision,
      );
      let next = state;
      for (const event of events) next = evolver.evolve(next, event);
      return { state: next, events, position: result.position };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw err;
      // Back off a little, with jitter, so writers racing on one stream stop colliding.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
    }
  }
}
