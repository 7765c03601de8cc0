/**
 * A stream's decider: the state its events fold into. Commands are decided by pure functions
 * `(command, state) -> events` (throwing DomainError to refuse), kept beside each area's state.
 */
export interface Evolver<State, Event> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
}

export function fold<State, Event>(evolver: Evolver<State, Event>, events: Iterable<Event>): State {
  let state = evolver.initialState();
  for (const event of events) state = evolver.evolve(state, event);
  return state;
}
