/**
 * A latch that opens once per turn of the event loop: `first()` is true for its first call in a turn
 * and false for the others until the turn ends. For looks at what other processes committed (SQLite's
 * `data_version`, a statement each) that a request or a read would otherwise repeat many times in
 * one turn: what another process commits is then seen from the next turn on.
 */
export class OncePerTurn {
  #taken = false;

  first(): boolean {
    if (this.#taken) return false;
    this.#taken = true;
    setImmediate(() => {
      this.#taken = false;
    }).unref();
    return true;
  }

  /**
   * Runs `look` on the turn's first call, and returns true then; false on the others. A look that
   * throws reopens the latch (and the error goes on): a failed look is never taken for this turn's.
   */
  lookFirst(look: () => void): boolean {
    if (!this.first()) return false;
    try {
      look();
    } catch (error) {
      this.#taken = false;
      throw error;
    }
    return true;
  }
}
