// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  /** One connection; setupClient gets it before its first request. */
  export interface Client {
    /**
     * Replaces this connection's requests, encoded once here. (setRequest replaces only the current
     * one: with a single request, the next request reverts to the original.)
     */
    setRequests(requests: Request[]): void;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests to make in all, then stop (duration is then ignored). */
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
    /** Requests per second over all connections (default: as fast as answers come). */
    overallRate?: number;
    /** Called once per connection, in order, as the connections are made. */
    setupClient?: (client: Client) => void;
  }
  export interface Histogram { average: number; mean: number; p50: number; p99: number; max: number; total: number }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }
  /** A run under way: a promise of its result that also reports each answer as it comes. */
  export interface Instance extends Promise<Result> {
    on(event: 'response', listener: () => void): this;
  }
  export default function autocannon(options: Options): Instance;
}
