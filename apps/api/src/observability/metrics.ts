import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics, served by `GET /metrics`. One registry per process: every app
 * created in it (tests create many) feeds the same series.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'kamai_' });

const httpRequests = new Counter({
  name: 'kamai_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: 'kamai_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route template',
  labelNames: ['method', 'route'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

const commandDuration = new Histogram({
  name: 'kamai_command_duration_seconds',
  help: 'Time a command takes from request to answer (decision, append, read-your-writes wait), by command',
  labelNames: ['command'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const appendBatchSize = new Histogram({
  name: 'kamai_append_batch_events',
  help: 'Events written by one append to the event store',
  buckets: [1, 2, 3, 4, 5, 8, 16, 32, 64, 128],
  registers: [registry],
});

export const appendFailures = new Counter({
  name: 'kamai_append_failures_total',
  help: 'Appends the event store refused or failed (revision conflicts included)',
  registers: [registry],
});

export const sealedUnreadable = new Counter({
  name: 'kamai_sealed_unreadable_total',
  help: "Events whose sealed personal data did not open although the subject's key is there (tampered bytes), each counted once per process",
  registers: [registry],
});

/** How far one projection is behind the store's head. */
export interface ProjectionLag {
  projection: string;
  /** Events in the store the projection has not applied yet. */
  events: number;
  /** Age of the oldest event it has not applied, in ms; 0 when caught up. */
  ms: number;
  /** Stopped at an event it could not apply (the others go on). */
  parked?: boolean;
}

type LagSource = () => Promise<ProjectionLag[]>;
const lagSources = new Set<LagSource>();

const lagEvents = new Gauge({
  name: 'kamai_projection_lag_events',
  help: 'Events appended to the store that a projection has not applied yet',
  labelNames: ['projection'] as const,
  registers: [registry],
  async collect() {
    await collectLag();
  },
});
const lagMs = new Gauge({
  name: 'kamai_projection_lag_ms',
  help: 'Age in ms of the oldest event a projection has not applied yet (0 when caught up)',
  labelNames: ['projection'] as const,
  registers: [registry],
  async collect() {
    await collectLag();
  },
});

const parked = new Gauge({
  name: 'kamai_read_model_parked',
  help: 'A read model stopped at an event it could not apply (1), while the others go on; rebuild it after the fix',
  labelNames: ['projection'] as const,
  registers: [registry],
  async collect() {
    await collectLag();
  },
});

let collecting: Promise<void> | null = null;
/** The gauges come from one read of every source, once per scrape. */
function collectLag(): Promise<void> {
  collecting ??= (async () => {
    try {
      lagEvents.reset();
      lagMs.reset();
      parked.reset();
      for (const source of lagSources) {
        for (const lag of await source().catch(() => [])) {
          lagEvents.set({ projection: lag.projection }, lag.events);
          lagMs.set({ projection: lag.projection }, lag.ms);
          parked.set({ projection: lag.projection }, lag.parked ? 1 : 0);
        }
      }
    } finally {
      collecting = null;
    }
  })();
  return collecting;
}

/**
 * Feeds the projection-lag gauges: the runner (or a worker process) registers a function that
 * tells, per projection, how far behind the head it is. Returns the unregister function.
 */
export function registerProjectionLag(source: LagSource): () => void {
  lagSources.add(source);
  return () => lagSources.delete(source);
}

/** The text `GET /metrics` answers, and its content type. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}

/**
 * One answered HTTP request: counted, timed, and, for a command (a mutating /api request that did
 * not fail), timed as that command.
 */
export function observeHttp(method: string, route: string, status: number, seconds: number): void {
  httpRequests.inc({ method, route, status: String(status) });
  httpDuration.observe({ method, route }, seconds);
  if (method !== 'GET' && method !== 'HEAD' && status < 500 && route.startsWith('/api/')) {
    commandDuration.observe({ command: `${method} ${route}` }, seconds);
  }
}

/** What the storage guard (storage/guard.ts) saw of the disk, for the storage gauges. */
export interface StorageReading {
  state: string;
  reserveBytes: number;
  files: Array<{ name: string; freeBytes: number | null }>;
}
let storageSource: (() => Promise<StorageReading>) | null = null;
let storageReading: Promise<StorageReading | null> | null = null;
/** The storage gauges come from one look at the disk per scrape. */
function readStorage(): Promise<StorageReading | null> {
  storageReading ??= (storageSource ? storageSource().catch(() => null) : Promise.resolve(null)).finally(() => setImmediate(() => (storageReading = null)));
  return storageReading;
}

const STORAGE_STATES = ['ok', 'low', 'read_only', 'gone'] as const;
new Gauge({
  name: 'kamai_storage_free_bytes',
  help: 'Free bytes of the file system holding each data file (what an unprivileged writer may use)',
  labelNames: ['file'] as const,
  registers: [registry],
  async collect() {
    const reading = await readStorage();
    this.reset();
    for (const f of reading?.files ?? []) if (f.freeBytes !== null) this.set({ file: f.name }, f.freeBytes);
  },
});
new Gauge({
  name: 'kamai_storage_reserve_bytes',
  help: 'Free space kept in reserve (DISK_RESERVE_MB): below it commands that append are refused',
  registers: [registry],
  async collect() {
    const reading = await readStorage();
    if (reading) this.set(reading.reserveBytes);
  },
});
new Gauge({
  name: 'kamai_storage_state',
  help: 'The data directory as the API sees it: 1 for the current state (ok, low, read_only, gone), 0 for the others',
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    const reading = await readStorage();
    if (!reading) return;
    for (const state of STORAGE_STATES) this.set({ state }, reading.state === state ? 1 : 0);
  },
});

/** Feeds the storage gauges; the newest app's guard replaces an older one's (tests make many). */
export function registerStorage(source: () => Promise<StorageReading>): () => void {
  storageSource = source;
  return () => {
    if (storageSource === source) storageSource = null;
  };
}
