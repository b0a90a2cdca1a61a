/**
 * One load measurement with autocannon. The load runs in a worker thread (`workers: 1`), so the
 * main thread's event loop is left to the server under test in this same process.
 */
import { performance } from 'node:perf_hooks';
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
  /** Time the main thread (the server under test) was busy, per request, in microseconds. */
  serverMicrosPerRequest: number;
  /** Answers that were not 2xx (a 429 or 401 here means the figure measures the wrong thing). */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

export const defaults = { connections: 10, durationSeconds: 2, warmupSeconds: 0.5 };

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
  const before = performance.eventLoopUtilization();
  const result = await run(url, options, options.durationSeconds ?? defaults.durationSeconds);
  const busy = performance.eventLoopUtilization(before);
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    serverMicrosPerRequest: (busy.active * 1000) / Math.max(1, result.requests.total),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The round whose figure is the median of the rounds: its latencies stay those of one real run. */
export function medianOf(runs: Measurement[], name = runs[0].name): Measurement {
  const m = median(runs.map((r) => r.requestsPerSecond));
  const closest = runs.reduce((a, b) =>
    Math.abs(b.requestsPerSecond - m) < Math.abs(a.requestsPerSecond - m) ? b : a,
  );
  return {
    ...closest,
    name,
    requestsPerSecond: m,
    serverMicrosPerRequest: median(runs.map((r) => r.serverMicrosPerRequest)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/**
 * Two targets measured in alternating rounds (a, b, a, b, …), so that a slow moment of a shared
 * machine weighs on both alike; answers the median of each and the median of the rounds' ratios a / b.
 */
export async function compareInRounds(
  rounds: number,
  a: () => Promise<Measurement>,
  b: () => Promise<Measurement>,
): Promise<{ a: Measurement; b: Measurement; ratio: number; ratios: number[] }> {
  const as: Measurement[] = [];
  const bs: Measurement[] = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await a());
    bs.push(await b());
  }
  const ratios = as.map((m, i) => m.requestsPerSecond / bs[i].requestsPerSecond);
  return { a: medianOf(as), b: medianOf(bs), ratio: median(ratios), ratios };
}
