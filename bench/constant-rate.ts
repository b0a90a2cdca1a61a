/**
 * A constant-rate (open-loop) load generator: request i is sent at start + i / rate whether or not
 * earlier ones were answered, and its latency counts from that scheduled moment, so a stall of the
 * server shows in the percentiles instead of slowing the generator down (no coordinated omission).
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { typescriptWorker } from '../src/shared/worker-threads.ts';

export interface Operation {
  name: string;
  /** Share of the requests (weights are normalised). */
  weight: number;
  /** The request to send (the base picks the instance). */
  request(i: number): {
    base: string;
    method: 'GET' | 'POST' | 'PUT';
    path: string;
    headers: Record<string, string>;
    body?: string;
  };
  /** Called with the answer of a 2xx, e.g. to remember a created lead. */
  onAnswer?(body: string): void;
}

export interface OperationStats {
  name: string;
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  failures: number;
  /** Every answered request's latency, in ascending order (for percentiles over several runs). */
  sortedMs: number[];
}

export interface RunResult {
  targetRate: number;
  achievedRate: number;
  /** How far behind schedule the generator itself fell at worst (its own limit, not the server's). */
  maxLagMs: number;
  operations: OperationStats[];
  failures: string[];
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

export async function runConstantRate(
  operations: Operation[],
  rate: number,
  seconds: number,
  events: { atMs: number; run: () => Promise<void> }[] = [],
): Promise<RunResult> {
  const pools = new Map<string, Pool>();
  const poolOf = (base: string) => {
    let pool = pools.get(base);
    if (!pool) pools.set(base, (pool = new Pool(base, { connections: 64, pipelining: 1 })));
    return pool;
  };
  const total = Math.round(rate * seconds);
  const weights = operations.map((o) => o.weight);
  const sum = weights.reduce((a, b) => a + b, 0);
  // A fixed, interleaved order of operations: the same for every run at this rate.
  const order: number[] = [];
  const credit = weights.map(() => 0);
  for (let i = 0; i < total; i++) {
    weights.forEach((w, k) => (credit[k] += w / sum));
    const k = credit.indexOf(Math.max(...credit));
    credit[k] -= 1;
    order.push(k);
  }
  const latencies = operations.map(() => [] as number[]);
  const failed = operations.map(() => 0);
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let maxLagMs = 0;
  const start = performance.now();
  const pendingEvents = events.map((e) => ({ ...e, done: false }));
  const eventRuns: Promise<void>[] = [];

  for (let i = 0; i < total; i++) {
    const scheduled = start + (i * 1000) / rate;
    for (const e of pendingEvents) {
      if (!e.done && scheduled - start >= e.atMs) {
        e.done = true;
        eventRuns.push(e.run());
      }
    }
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    maxLagMs = Math.max(maxLagMs, performance.now() - scheduled);
    const k = order[i];
    const op = operations[k];
    const { base, method, path, headers, body } = op.request(i);
    const sent = (async () => {
      try {
        const res = await poolOf(base).request({ method, path, headers, body });
        const text = await res.body.text();
        latencies[k].push(performance.now() - scheduled);
        if (res.statusCode >= 300) {
          failed[k] += 1;
          if (failures.length < 20) failures.push(`${op.name}: ${res.statusCode} ${text.slice(0, 120)}`);
        } else op.onAnswer?.(text);
      } catch (error) {
        latencies[k].push(performance.now() - scheduled);
        failed[k] += 1;
        if (failures.length < 20) failures.push(`${op.name}: ${(error as Error).message}`);
      }
    })();
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  await Promise.all(eventRuns);
  await Promise.all([...pools.values()].map((p) => p.close()));
  return {
    targetRate: rate,
    achievedRate: total / elapsed,
    maxLagMs,
    failures,
    operations: operations.map((op, k) => {
      const sorted = latencies[k].sort((a, b) => a - b);
      return {
        name: op.name,
        count: sorted.length,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        maxMs: sorted.at(-1) ?? 0,
        failures: failed[k],
        sortedMs: sorted,
      };
    }),
  };
}

/** A request that is the same every time, so that it can be handed to a worker thread. */
export interface FixedRequest {
  name: string;
  weight: number;
  base: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * `runConstantRate` of fixed requests in a worker thread, so that a server in this process has the
 * main thread to itself and the generator's own work does not delay its answers.
 */
export function runConstantRateInWorker(requests: FixedRequest[], rate: number, seconds: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(typescriptWorker, {
      argv: [import.meta.url],
      workerData: { constantRate: { requests, rate, seconds } },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

if (!isMainThread && workerData?.constantRate) {
  const { requests, rate, seconds } = workerData.constantRate as {
    requests: FixedRequest[];
    rate: number;
    seconds: number;
  };
  const operations: Operation[] = requests.map(({ name, weight, ...request }) => ({
    name,
    weight,
    request: () => request,
  }));
  parentPort!.postMessage(await runConstantRate(operations, rate, seconds));
}
