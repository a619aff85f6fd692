/** The slice of autocannon 8's programmatic API that the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  export interface Request {
    method?: 'GET' | 'POST' | 'PATCH';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  export interface RequestSpec extends Request {
    /** Called before every request; returns the request to send. */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: RequestSpec[];
  }

  export interface Histogram {
    average: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p99: number;
  }

  export interface Result {
    /** Completed requests per second, sampled once a second. */
    requests: Histogram;
    /** Milliseconds. */
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** Without a callback the returned instance is also a promise of the result. */
  export default function autocannon(options: Options): Promise<Result>;
}
