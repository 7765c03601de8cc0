import type { Json } from './event-store.ts';

/**
 * A stream's state as its events make it. `evolve` may update the state it is given in place and
 * returns the state to continue with: whoever folds owns that state (a fresh `initialState()` per
 * fold, or the command handler's cache, which never hands it to two decisions at once). This keeps
 * an event O(1) on streams with tens of thousands of events, where copying maps per event was O(n).
 */
export interface Evolver<State, Event> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** How the state is kept as a snapshot, for streams long enough to need one on a cold start. */
  snapshot?: SnapshotCodec<State>;
}

/**
 * A state as JSON and back. `version` names the shape and the evolve logic it was folded with: bump
 * it whenever either changes, and older snapshots are ignored (the stream is folded from its events).
 */
export interface SnapshotCodec<State> {
  version: number;
  save: (state: State) => Json;
  /**
   * How many records the state holds (its maps' entries), when that can grow: a snapshot is then
   * kept no more often than once per that many events, so writing snapshots costs about one record
   * per event however large the state grows, and a cold start folds no more events than the
   * snapshot it read holds records.
   */
  records?: (state: State) => number;
  /** Throws on anything it does not recognise; the caller then folds from the events. */
  load: (json: Json) => State;
}

/**
 * Emmett's decider: one per stream kind, with one exhaustive `decide` over the stream's commands.
 * `decide` is pure and synchronous: it reads the state, never changes it, and returns the new events
 * (or throws a DomainError to refuse).
 */
export interface Decider<State, Command, Event> extends Evolver<State, Event> {
  decide: (command: Command, state: State) => Event[];
}

export function fold<State, Event>(evolver: Evolver<State, Event>, events: Iterable<Event>): State {
  let state = evolver.initialState();
  for (const event of events) state = evolver.evolve(state, event);
  return state;
}
