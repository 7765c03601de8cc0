import { constants } from 'node:fs';
import { access, stat, statfs } from 'node:fs/promises';
import { basename } from 'node:path';

/**
 * What the disk under DATA_DIR allows now:
 * - ok: commands run;
 * - low: a file system holding a data file has less free space than the reserve (or a write just
 *   failed as full): commands that append are refused (503 storage_full), reads and staff work go on;
 * - read_only: DATA_DIR cannot be written (remounted read-only, or a write just failed so): every
 *   command is refused (503 storage_read_only) until it can;
 * - gone: a data file was deleted or replaced under the process; it can never write there again.
 */
export type StorageState = 'ok' | 'low' | 'read_only' | 'gone';

export interface StorageFile {
  /** The file's name in DATA_DIR (events.sqlite, read.sqlite, objects...), the metrics' label. */
  name: string;
  /** Free bytes of the file system holding it (for an unprivileged writer); null when unreadable. */
  freeBytes: number | null;
}

export interface StorageStatus {
  state: StorageState;
  /** Why the state is not ok, for /api/health and the log. */
  reason?: string;
  reserveBytes: number;
  files: StorageFile[];
}

export interface StorageGuardOptions {
  dataDir: string;
  /** Every file (or folder) the process writes under DATA_DIR, by absolute path. */
  files: string[];
  /** DISK_RESERVE_MB in bytes; 0: no reserve. */
  reserveBytes: number;
  log: (level: 'warn' | 'error' | 'info', line: string) => void;
  /** Called once when the data files are gone: the process should stop (main.ts does). */
  onGone?: (reason: string) => void;
  /** How often the disk is looked at between requests. */
  intervalMs?: number;
  /** How long a write that failed as full or read-only keeps the state, whatever the disk says. */
  holdMs?: number;
}

const MIB = 1024 * 1024;

/** Whether each path that exists may be written: EROFS for a read-only mount, EPERM for an immutable file (root too). */
async function writable(paths: string[]): Promise<boolean> {
  for (const path of paths) {
    const error = await access(path, constants.W_OK).then(() => null, (err: NodeJS.ErrnoException) => err.code);
    if (error !== null && error !== 'ENOENT') return false;
  }
  return true;
}

/**
 * Watches the file systems under DATA_DIR (fs.statfs every few seconds, and on each health check and
 * metrics scrape) and what the stores' writes report (noteFault), so the API refuses a command it
 * cannot keep before it starts one, with an answer that says so, rather than a 500 after it tried.
 */
export class StorageGuard {
  readonly #options: Required<Omit<StorageGuardOptions, 'onGone'>> & Pick<StorageGuardOptions, 'onGone'>;
  /** The inode each file had at start: another one (or none) at its path means DATA_DIR went away. */
  readonly #inodes = new Map<string, number>();
  #status: StorageStatus;
  /** A fault a write reported, kept until `until` (ms since epoch). */
  #fault: { kind: 'full' | 'read_only'; until: number } | null = null;
  #warned = false;
  #timer: NodeJS.Timeout | null = null;
  #checking: Promise<StorageStatus> | null = null;

  constructor(options: StorageGuardOptions) {
    this.#options = { intervalMs: 5000, holdMs: 5000, ...options };
    this.#status = { state: 'ok', reserveBytes: options.reserveBytes, files: [] };
  }

  /** Notes each file's identity and takes the first look; then looks again every intervalMs. */
  async start(): Promise<void> {
    for (const file of this.#options.files) {
      const found = await stat(file).catch(() => null);
      if (found) this.#inodes.set(file, found.ino);
    }
    await this.check();
    this.#timer = setInterval(() => void this.check().catch(() => {}), this.#options.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** The state as last seen (cheap: for every command). */
  get state(): StorageState {
    const fault = this.#activeFault();
    if (this.#status.state === 'gone' || this.#status.state === 'read_only') return this.#status.state;
    if (fault) return fault === 'full' ? 'low' : 'read_only';
    return this.#status.state;
  }

  status(): StorageStatus {
    const fault = this.#activeFault();
    const state = this.state;
    if (state === this.#status.state || !fault) return { ...this.#status, state };
    return { ...this.#status, state, reason: fault === 'full' ? 'a write failed: the disk is full' : 'a write failed: the data directory is read-only' };
  }

  /** A store's write failed as full or read-only: refuse commands for a while, and look again soon. */
  noteFault(kind: 'full' | 'read_only'): void {
    const first = this.#activeFault() === null;
    this.#fault = { kind, until: Date.now() + this.#options.holdMs };
    if (first) this.#options.log('error', kind === 'full' ? 'storage: a write failed, the disk is full; commands are refused for now' : 'storage: a write failed, the data directory is read-only; commands are refused for now');
    void this.check().catch(() => {});
  }

  /** Looks at the disk now (one look at a time: callers during one share it). */
  check(): Promise<StorageStatus> {
    this.#checking ??= this.#look().finally(() => (this.#checking = null));
    return this.#checking;
  }

  #activeFault(): 'full' | 'read_only' | null {
    if (this.#fault && this.#fault.until > Date.now()) return this.#fault.kind;
    this.#fault = null;
    return null;
  }

  async #look(): Promise<StorageStatus> {
    const { dataDir, files, reserveBytes } = this.#options;
    const previous = this.#status.state;
    const seen: StorageFile[] = [];
    let gone: string | null = null;
    for (const file of files) {
      const known = this.#inodes.get(file);
      const found = await stat(file).catch(() => null);
      if (known !== undefined && found?.ino !== known) gone ??= basename(file);
      const fs = found ? await statfs(file).catch(() => null) : null;
      seen.push({ name: basename(file), freeBytes: fs ? fs.bavail * fs.bsize : null });
    }
    let status: StorageStatus;
    if (previous === 'gone' || gone) {
      const reason = previous === 'gone' ? this.#status.reason : `${gone} is gone from ${dataDir} (deleted or replaced under the running process)`;
      status = { state: 'gone', ...(reason ? { reason } : {}), reserveBytes, files: seen };
    } else if (!(await writable([dataDir, ...files]))) {
      status = { state: 'read_only', reason: `${dataDir} cannot be written (a read-only file system, or files made immutable)`, reserveBytes, files: seen };
    } else {
      const free = seen.map((f) => f.freeBytes).filter((n): n is number => n !== null);
      const least = free.length > 0 ? Math.min(...free) : Infinity;
      status =
        least < reserveBytes
          ? { state: 'low', reason: `${Math.floor(least / MIB)} MiB free, below the reserve of ${reserveBytes / MIB} MiB (DISK_RESERVE_MB)`, reserveBytes, files: seen }
          : { state: 'ok', reserveBytes, files: seen };
      this.#warnNearReserve(least);
    }
    this.#status = status;
    if (status.state !== previous) this.#reportChange(previous, status);
    return this.status();
  }

  /** One warning when free space falls below twice the reserve, another once it is back above. */
  #warnNearReserve(least: number): void {
    const { reserveBytes, log } = this.#options;
    const near = reserveBytes > 0 && least < 2 * reserveBytes;
    if (near && !this.#warned) log('warn', `storage: ${Math.floor(least / MIB)} MiB free under DATA_DIR, below twice the reserve (${(2 * reserveBytes) / MIB} MiB); free space or commands will be refused below ${reserveBytes / MIB} MiB`);
    if (!near && this.#warned) log('info', `storage: free space is back above twice the reserve (${Math.floor(least / MIB)} MiB free)`);
    this.#warned = near;
  }

  #reportChange(previous: StorageState, status: StorageStatus): void {
    const { log, onGone } = this.#options;
    if (status.state === 'ok') log('info', `storage: ${previous} -> ok; commands are accepted again`);
    else log('error', `storage: ${status.state}: ${status.reason}`);
    if (status.state === 'gone') onGone?.(status.reason ?? 'the data files are gone');
  }
}

/**
 * Requests that still run while free space is below the reserve: sign-in and sign-out (a session's
 * few bytes), and anything a staff member does, so finance can act on a full machine.
 */
const ALLOWED_WHEN_LOW = new Set(['POST /api/auth/login', 'POST /api/auth/login/form', 'POST /api/auth/logout', 'POST /api/auth/logout-all']);

/**
 * Whether a command may start: null, or why not ('full': below the reserve or just failed full;
 * 'read_only': DATA_DIR cannot be written, or is gone). `staff`: the caller holds a role.
 */
export function commandRefusal(guard: StorageGuard, method: string, routeKey: string, staff: boolean): 'full' | 'read_only' | null {
  const state = guard.state;
  if (state === 'ok') return null;
  if (state === 'read_only' || state === 'gone') return 'read_only';
  if (staff || ALLOWED_WHEN_LOW.has(`${method} ${routeKey}`) || (method === 'DELETE' && routeKey.startsWith('/api/auth/sessions/'))) return null;
  return 'full';
}
