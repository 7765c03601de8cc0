/**
 * How many durable appends per second the embedded event store acknowledges, next to what plain
 * better-sqlite3 manages writing the same rows one transaction each (the ceiling: one WAL fsync per
 * row). Every run uses a fresh file in WAL mode with synchronous=FULL, and single-event commands
 * to many streams, each with the exact expected revision a command handler would send.
 *
 *   node_modules/.bin/tsx scripts/src/bench/appends.ts [--seconds 3] [--concurrency 64] [--streams 1024] [--dir /dev/shm]
 *
 * `--dir` on a tmpfs (/dev/shm) makes fsync free: the runs are then CPU alone, which compares two
 * versions of the code on a loaded machine better than the disk's swings allow.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { EVENTS_TABLE_SQL, openSqliteEventStore } from '@kamai/api';

export interface BenchAppendsOptions {
  /** How long each measured run lasts, in seconds. Default 3 (five runs: about 16 s in all). */
  seconds?: number;
  /** Appends in flight at once in the concurrent runs. Default 64. */
  concurrency?: number;
  /** Streams the commands are spread over. Default 1024. */
  streams?: number;
  /** Where the temporary database files go. Default: a new folder in the OS temp dir, removed after. */
  dir?: string;
  /** Where the figures are printed. Default console.log; pass () => {} for silence. */
  log?: (line: string) => void;
}

interface BenchFigure {
  appends: number;
  seconds: number;
  perSecond: number;
  /**
   * CPU time (user + system) of this process per append, in µs: steadier than appends/s on a machine
   * others share (the disk's fsyncs wait without it), for comparing two versions of the code.
   */
  cpuMicros: number;
}

export interface BenchAppendsResult {
  settings: { seconds: number; concurrency: number; streams: number };
  /** Plain better-sqlite3 INSERT, autocommit: one transaction and one fsync per row. */
  ceiling: BenchFigure;
  /** Plain better-sqlite3 INSERT, `concurrency` rows per transaction: the group commit's peer. */
  batchedCeiling: BenchFigure;
  /** One append awaited at a time. */
  sequential: { groupCommit: BenchFigure; transactionPerAppend: BenchFigure };
  /** `concurrency` appends in flight. */
  concurrent: { groupCommit: BenchFigure; transactionPerAppend: BenchFigure };
  /** Each store figure divided by the ceiling. */
  ratioToCeiling: {
    sequentialGroupCommit: number;
    sequentialTransactionPerAppend: number;
    concurrentGroupCommit: number;
    concurrentTransactionPerAppend: number;
    /** The group commit over plain inserts batched as many per transaction. */
    concurrentGroupCommitToBatched: number;
  };
}

export async function benchAppends(options: BenchAppendsOptions = {}): Promise<BenchAppendsResult> {
  const seconds = options.seconds ?? 3;
  const concurrency = options.concurrency ?? 64;
  const streams = options.streams ?? 1024;
  const log = options.log ?? console.log;
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'kamai-bench-appends-'));
  let files = 0;
  const newFile = () => join(dir, `run-${++files}.db`);

  const ceiling = plainInserts(newFile(), streams, 1);
  const runs = [
    ceiling,
    // The group commit's fair peer: the same rows, `concurrency` per transaction, one fsync each.
    plainInserts(newFile(), streams, concurrency),
    storeAppends(newFile(), streams, 1, true),
    storeAppends(newFile(), streams, 1, false),
    storeAppends(newFile(), streams, concurrency, true),
    storeAppends(newFile(), streams, concurrency, false),
  ];
  try {
    log(`durable appends per second: WAL, synchronous=FULL, single-event commands over ${streams} streams, ${seconds} s per run`);
    // The disk is shared with whatever else the machine does, and fsync time swings with it. Running
    // the five in short interleaved slices, in a rotating order, spreads that noise over all of them.
    const sliceMs = 200;
    const rounds = Math.max(1, Math.round((seconds * 1000) / sliceMs));
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < runs.length; i++) await runs[(round + i) % runs.length]!.runFor(sliceMs);
    }
    for (const run of runs) await run.verify();
    const [plain, plainBatched, sequentialGroup, sequentialSingle, concurrentGroup, concurrentSingle] = runs.map((run) => run.figure()) as [
      BenchFigure, BenchFigure, BenchFigure, BenchFigure, BenchFigure, BenchFigure,
    ];
    log(line('ceiling: plain better-sqlite3 INSERT, one transaction each', plain));
    log(line(`plain better-sqlite3 INSERT, ${concurrency} per transaction`, plainBatched, plain));
    log(line('store, sequential, group commit', sequentialGroup, plain));
    log(line('store, sequential, one transaction per append', sequentialSingle, plain));
    log(line(`store, ${concurrency} in flight, group commit`, concurrentGroup, plain));
    log(line(`store, ${concurrency} in flight, one transaction per append`, concurrentSingle, plain));
    const ratio = (figure: BenchFigure) => round2(figure.perSecond / plain.perSecond);
    return {
      settings: { seconds, concurrency, streams },
      ceiling: plain,
      batchedCeiling: plainBatched,
      sequential: { groupCommit: sequentialGroup, transactionPerAppend: sequentialSingle },
      concurrent: { groupCommit: concurrentGroup, transactionPerAppend: concurrentSingle },
      ratioToCeiling: {
        sequentialGroupCommit: ratio(sequentialGroup),
        sequentialTransactionPerAppend: ratio(sequentialSingle),
        concurrentGroupCommit: ratio(concurrentGroup),
        concurrentGroupCommitToBatched: round2(concurrentGroup.perSecond / plainBatched.perSecond),
        concurrentTransactionPerAppend: ratio(concurrentSingle),
      },
    };
  } finally {
    for (const run of runs) await run.close();
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  }
}

/** One measured configuration, run in slices; it adds up the appends and time of every slice. */
interface Run {
  runFor(ms: number): Promise<void>;
  /** Checks the file holds exactly the acknowledged appends. */
  verify(): Promise<void>;
  figure(): BenchFigure;
  close(): Promise<void>;
}

/** The rows an append of command `n` writes, so both sides store the same bytes (and the ladder, appends-ladder.ts). */
export function commandEvent(n: number) {
  return {
    id: randomUUID(),
    type: 'TaskRewarded',
    data: { taskId: `task-${n % 97}`, paise: 2_500 + (n % 7) * 100, at: new Date(1_790_000_000_000 + n).toISOString() },
  };
}

/** Plain better-sqlite3 inserts, `batch` rows per transaction (1: autocommit, one WAL fsync each). */
function plainInserts(file: string, streams: number, batch: number): Run {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(EVENTS_TABLE_SQL);
  const insert = db.prepare(
    `INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const count = db.prepare<[], number>('SELECT COUNT(*) FROM events').pluck();
  const revisions = new Array<number>(streams).fill(-1);
  let n = 0;
  let ms = 0;
  let cpu = 0;
  const insertOne = () => {
    const stream = n % streams;
    const event = commandEvent(n);
    revisions[stream] = (revisions[stream] ?? -1) + 1;
    insert.run(event.id, `bench-${stream}`, revisions[stream], event.type, JSON.stringify(event.data), '{}', new Date().toISOString());
    n++;
  };
  const insertBatch = db.transaction(() => {
    for (let i = 0; i < batch; i++) insertOne();
  });
  return {
    async runFor(sliceMs) {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      while (performance.now() - started < sliceMs) {
        // Autocommit: each INSERT is its own transaction, committed with one WAL fsync.
        if (batch === 1) insertOne();
        else insertBatch();
      }
      cpu += cpuOf(cpuBefore);
      ms += performance.now() - started;
    },
    async verify() {
      if (count.get() !== n) throw new Error(`plain inserts: ${count.get()} rows on disk, ${n} inserted`);
    },
    figure: () => figure(n, ms, cpu),
    async close() {
      if (db.open) db.close();
    },
  };
}

function storeAppends(file: string, streams: number, workers: number, groupCommit: boolean): Run {
  const store = openSqliteEventStore(file, { groupCommit });
  // Kept as plainInserts keeps its own: an array, so the harness's bookkeeping costs both sides alike.
  const revisions = new Array<number>(streams).fill(-1);
  const cursors = new Array<number>(workers).fill(0);
  let n = 0;
  let acknowledged = 0;
  let ms = 0;
  let cpu = 0;
  // Worker w owns streams w, w + workers, ...: no conflicts, so every append is one command's write.
  const worker = async (w: number, deadline: number) => {
    while (performance.now() < deadline) {
      const owned = Math.max(1, Math.ceil((streams - w) / workers));
      const stream = w + ((cursors[w] = (cursors[w] ?? 0) + 1) % owned) * workers;
      const last = revisions[stream] ?? -1;
      const result = await store.append(`bench-${stream}`, [commandEvent(n++)], last === -1 ? 'no_stream' : last);
      revisions[stream] = result.nextExpectedRevision;
      acknowledged++;
    }
  };
  return {
    async runFor(sliceMs) {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      await Promise.all(Array.from({ length: workers }, (_, w) => worker(w, started + sliceMs)));
      cpu += cpuOf(cpuBefore);
      ms += performance.now() - started;
    },
    async verify() {
      const onDisk = await store.headPosition();
      if (onDisk !== acknowledged) throw new Error(`store: ${onDisk} events on disk, ${acknowledged} acknowledged`);
    },
    figure: () => figure(acknowledged, ms, cpu),
    close: () => store.close(),
  };
}

function figure(appends: number, ms: number, cpuMicros: number): BenchFigure {
  return { appends, seconds: round2(ms / 1000), perSecond: Math.round(appends / (ms / 1000)), cpuMicros: round2(cpuMicros / Math.max(1, appends)) };
}

/** CPU µs (user + system) of this process since `before`. */
export function cpuOf(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function line(label: string, f: BenchFigure, ceiling?: BenchFigure): string {
  const ratio = ceiling ? `  ${(f.perSecond / ceiling.perSecond).toFixed(2)} x ceiling` : '';
  return `  ${label.padEnd(58)} ${String(f.perSecond).padStart(7)}/s  (${f.appends} in ${f.seconds} s, ${f.cpuMicros} µs CPU each)${ratio}`;
}

export function numberArg(args: string[], name: string): number | undefined {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = Number(args[i + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

export function dirArg(args: string[]): string | undefined {
  const i = args.indexOf('--dir');
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (!value) throw new Error('--dir needs a folder');
  return value;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const base = dirArg(args);
  const dir = base === undefined ? undefined : mkdtempSync(join(base, 'kamai-bench-appends-'));
  try {
    await benchAppends({
      seconds: numberArg(args, 'seconds'),
      concurrency: numberArg(args, 'concurrency'),
      streams: numberArg(args, 'streams'),
      ...(dir !== undefined && { dir }),
    });
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}
