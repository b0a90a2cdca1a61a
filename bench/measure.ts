/**
 * One load measurement with autocannon. The load runs in a worker thread (`workers: 1`), so the
 * main thread's event loop is left to the server under test in this same process.
 */
import autocannon from 'autocannon';

export interface MeasureOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** A first run whose figures are thrown away (JIT, caches, connection set-up). */
  warmupSeconds?: number;
}

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers that were not 2xx (a 429 or 401 here means the figure measures the wrong thing). */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

export const defaults = { connections: 10, durationSeconds: 5, warmupSeconds: 1 };

function run(url: string, options: MeasureOptions, durationSeconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? defaults.connections,
    duration: durationSeconds,
    workers: 1,
  });
}

export async function measure(name: string, url: string, options: MeasureOptions = {}): Promise<Measurement> {
  const warmup = options.warmupSeconds ?? defaults.warmupSeconds;
  if (warmup > 0) await run(url, options, warmup);
  const result = await run(url, options, options.durationSeconds ?? defaults.durationSeconds);
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
