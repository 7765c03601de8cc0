import { expect } from 'vitest';
import { type Evolver, fold } from '../decider.ts';
import { DomainError, type DomainErrorKind } from '../errors.ts';

/**
 * Decider specs read as the rule they check:
 *   spec.given([...events]).when(command).then([...events])
 *   spec.given([...events]).when(command).thenFails('conflict', /already/)
 */
export function deciderSpec<State, Event, Command>(
  evolver: Evolver<State, Event>,
  decide: (command: Command, state: State) => Event[],
) {
  return {
    given: (events: Event[]) => ({
      when: (command: Command) => {
        const run = () => {
          const state = fold(evolver, events);
          // Deciding never changes the state: the command handler decides on its cached state.
          const before = structuredClone(state);
          try {
            return decide(command, state);
          } finally {
            expect(state, 'decide changed the state it was given').toEqual(before);
          }
        };
        return {
          then: (expected: Event[]) => expect(run()).toEqual(expected),
          thenFails: (kind: DomainErrorKind, message?: RegExp) => {
            let caught: unknown;
            try {
              run();
            } catch (err) {
              caught = err;
            }
            expect(caught).toBeInstanceOf(DomainError);
            expect((caught as DomainError).kind).toBe(kind);
            if (message) expect((caught as DomainError).message).toMatch(message);
          },
        };
      },
    }),
  };
}
