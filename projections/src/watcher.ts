import { sql } from 'kysely';
import type { ReadDbHandle } from './db.ts';
import type { Projection } from './projection.ts';
import { type ReadModelStatus, type ReadModels, Waiters, readModelStatus } from './runner.ts';
import { readCheckpoints, readParked } from './tables.ts';

export interface WatcherOptions {
  /** How often to look while a request waits for its write to show. */
  pollMs?: number;
  /** How often to look otherwise (for /api/health). */
  idleMs?: number;
}

/**
 * The read models of a process that does not run the projections (PROJECTIONS=off): a worker
 * process writes them, and this watches their checkpoints in the shared read database. While a
 * request waits, it checks SQLite's data_version (a counter that moves only when another connection
 * commits) every few milliseconds and reads the checkpoints only when it moved.
 */
export class CheckpointWatcher implements ReadModels {
  private reached = 0;
  private readonly waiters = new Waiters();
  private timer: NodeJS.Timeout | null = null;
  private lastDataVersion = -1;
  private lastLook = 0;
  private looking: Promise<void> | null = null;
  private readonly pollMs: number;
  private readonly idleMs: number;
  private stopped = false;

  constructor(
    private readonly db: ReadDbHandle,
    private readonly projections: readonly Projection[],
    options: WatcherOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 5;
    this.idleMs = options.idleMs ?? 500;
  }

  get position(): number {
    return this.reached;
  }

  /** A watcher cannot see a worker fail; /api/health shows each read model's position instead. */
  get failed(): Error | null {
    return null;
  }

  async start(): Promise<void> {
    await this.look(true);
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.waiters.stop();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.looking;
  }

  waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    if (this.reached >= position) return Promise.resolve(true);
    const waiting = this.waiters.add(position, timeoutMs);
    this.schedule(true);
    return waiting;
  }

  async status(): Promise<ReadModelStatus[]> {
    const [checkpoints, parked] = await Promise.all([readCheckpoints(this.db), readParked(this.db)]);
    return this.projections.map((p) => {
      const stored = checkpoints.get(p.name);
      const state: ReadModelStatus['state'] = !stored || stored.version < p.version ? 'stale' : stored.version > p.version ? 'newer' : 'live';
      return readModelStatus(p, stored, parked.get(p.name), state);
    });
  }

  private schedule(soon = false): void {
    if (this.stopped) return;
    const delay = soon || this.waiters.size > 0 ? this.pollMs : this.idleMs;
    if (this.timer && !soon) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.looking = this.look(false)
        .catch(() => {})
        .finally(() => {
          this.looking = null;
          if (this.timer === null) this.schedule();
        });
    }, delay);
    // Idle looks must not keep a process alive that is otherwise done.
    if (this.waiters.size === 0) this.timer.unref();
  }

  private async look(force: boolean): Promise<void> {
    const { rows } = await sql<{ data_version: number }>`PRAGMA data_version`.execute(this.db);
    const dataVersion = rows[0]?.data_version ?? 0;
    // Re-read at least every idle period even without a signal: data_version can miss nothing a
    // checkpoint needs, but a periodic read keeps the figures honest if it ever did.
    if (!force && dataVersion === this.lastDataVersion && Date.now() - this.lastLook < this.idleMs) return;
    this.lastDataVersion = dataVersion;
    this.lastLook = Date.now();
    const [checkpoints, parked] = await Promise.all([readCheckpoints(this.db), readParked(this.db)]);
    // A parked model stays behind until its rebuild: requests wait for the others only.
    const positions = this.projections.map((p) => {
      const stored = checkpoints.get(p.name);
      return stored && stored.version === p.version && parked.get(p.name)?.version !== p.version ? stored.position : null;
    });
    const current = positions.filter((p): p is number => p !== null);
    const position = current.length > 0 ? Math.min(...current) : 0;
    if (position > this.reached) {
      this.reached = position;
      this.waiters.advance(position);
    }
  }
}
