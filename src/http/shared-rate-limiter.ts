/**
 * Rate limits shared by several instances without a round trip per request. Each instance decides
 * in memory; every `syncMs` it adds what it counted to the shared counters and reads the totals back
 * in one exchange (shared-counters.ts). Between two exchanges an instance admits at most its share of
 * what was left at the last one (what is left divided by the instances seen), so together they stay
 * near the limit although none waits for the others. docs/operations.md "Several instances" gives the
 * bound of the overshoot.
 *
 * When the shared counters fail or are late (Redis down or slow), each instance enforces the limit
 * on its own counts (its last known total plus what it counted since): requests never wait for Redis,
 * and the next successful exchange merges the counts again.
 */
import { randomUUID } from 'node:crypto';
import type { LimitDecision, RateLimiter } from './rate-limiter.ts';
import type { SharedCounters } from './shared-counters.ts';

interface Counter {
  limit: number;
  /** The shared total read at the last exchange (this instance's earlier hits included). */
  total: number;
  /** Hits admitted here and not yet added to the shared total, less those given back since (may be < 0). */
  pending: number;
  /** Hits admitted here since the last exchange, and how many this instance may admit until the next. */
  sinceExchange: number;
  share: number;
}

/** The counters of one window length, for its current window. */
interface Window {
  windowMs: number;
  windowStart: number;
  counters: Map<string, Counter>;
  /** Every key's shared total at the last exchange, those this instance has not seen yet included. */
  known: Map<string, number>;
}

export interface SharedRateLimiterOptions {
  counters: SharedCounters;
  now?: () => number;
  /** How often the counts are exchanged. */
  syncMs?: number;
  /** Without a successful exchange for this long, the limits are per instance. */
  staleMs?: number;
  /** Told once when the shared counters become unusable, and once when they are back. */
  onUnavailable?: (error: unknown) => void;
  onRecovered?: () => void;
  /** Window lengths whose totals are read from the first exchange on, before any request uses them. */
  windowsMs?: number[];
  /** No timer: the caller (a test) calls `exchange()` itself. */
  manual?: boolean;
}

export interface SharedRateLimiter extends RateLimiter {
  /** Adds the counts made so far to the shared ones and reads them back; never rejects. */
  exchange(): Promise<void>;
  /** Whether limits are currently shared (false: each instance counts alone). */
  isShared(): boolean;
  /** Exchanges that failed since start. */
  failures(): number;
  close(): void;
}

/** What is left of a counter's limit divided among the instances: its share until the next exchange. */
const shareOf = (counter: Counter, instances: number) =>
  Math.ceil(Math.max(0, counter.limit - counter.total - counter.pending) / instances);

/** The window of this length that holds `nowMs`: the kept one, or a new, empty one when it has ended. */
function windowIn(windows: Map<number, Window>, windowMs: number, nowMs: number): Window {
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  let window = windows.get(windowMs);
  if (!window || window.windowStart !== windowStart) {
    window = { windowMs, windowStart, counters: new Map(), known: new Map() };
    windows.set(windowMs, window);
  }
  return window;
}

interface Batch {
  window: Window;
  deltas: (readonly [string, number])[];
}

/** Every current window with the counts not yet added to the shared totals. */
function batchOf(windows: Map<number, Window>, nowMs: number): Batch[] {
  return [...windows.keys()].map((windowMs) => {
    const window = windowIn(windows, windowMs, nowMs);
    const deltas = [...window.counters].filter(([, c]) => c.pending !== 0).map(([key, c]) => [key, c.pending] as const);
    return { window, deltas };
  });
}

/** Takes in the totals an exchange read back: the counts it added are no longer pending. */
function applyTotals(
  windows: Map<number, Window>,
  batch: Batch[],
  totals: Map<string, number>[],
  instances: number,
): void {
  batch.forEach(({ window, deltas }, i) => {
    if (windows.get(window.windowMs) !== window) return; // a new window began meanwhile
    window.known = totals[i];
    for (const [key, delta] of deltas) window.counters.get(key)!.pending -= delta;
    for (const [key, counter] of window.counters) {
      counter.total = totals[i].get(key) ?? counter.total;
      counter.sinceExchange = 0;
      counter.share = shareOf(counter, instances);
    }
  });
}

interface CounterEntry {
  counter: Counter;
  window: Window;
}

/** The counter of `key` in `window`, created with the window's known total when it has none yet. */
function counterIn(window: Window, key: string, limit: number, instances: number): CounterEntry {
  let counter = window.counters.get(key);
  if (!counter) {
    counter = { limit, total: window.known.get(key) ?? 0, pending: 0, sinceExchange: 0, share: 0 };
    counter.share = shareOf(counter, instances);
    window.counters.set(key, counter);
  }
  counter.limit = limit;
  return { counter, window };
}

interface DecideOptions {
  nowMs: number;
  /** Count the hit when it is admitted (a peek does not). */
  count: boolean;
  isShared: () => boolean;
  syncMs: number;
}

/** Whether one more hit fits the limit and, while limits are shared, this instance's share of it. */
function decide({ counter, window }: CounterEntry, { nowMs, count, isShared, syncMs }: DecideOptions): LimitDecision {
  const used = counter.total + counter.pending + 1;
  const windowLeftMs = window.windowStart + window.windowMs - nowMs;
  if (used > counter.limit) return { allowed: false, remaining: 0, resetMs: windowLeftMs };
  if (isShared() && counter.sinceExchange >= counter.share) {
    // Within the limit, but this instance's share until the next exchange is used up.
    return { allowed: false, remaining: counter.limit - used + 1, resetMs: Math.min(syncMs, windowLeftMs) };
  }
  if (count) {
    counter.pending += 1;
    counter.sinceExchange += 1;
  }
  return { allowed: true, remaining: counter.limit - used, resetMs: windowLeftMs };
}

/**
 * Gives back a hit (the token endpoint counts every attempt and releases it when the secret was
 * right). One not yet exchanged simply goes; one an exchange already added to the shared total,
 * because the exchange fell while its request ran, leaves a -1 that the next exchange adds.
 */
function release(counter: Counter | undefined): void {
  if (!counter || counter.total + counter.pending <= 0) return;
  counter.pending -= 1;
  // Its room goes back to this instance's share until the next exchange.
  if (counter.sinceExchange > 0) counter.sinceExchange -= 1;
  else counter.share += 1;
}

export function createSharedRateLimiter(options: SharedRateLimiterOptions): SharedRateLimiter {
  const now = options.now ?? Date.now;
  const syncMs = options.syncMs ?? 200;
  const staleMs = options.staleMs ?? Math.max(1_000, syncMs * 3);
  const instanceId = randomUUID();
  const windows = new Map<number, Window>();
  let instances = 1;
  let lastSuccessAt: number | undefined;
  let lastFailed = false;
  let failures = 0;
  let inFlight: Promise<void> | undefined;
  const windowOf = (windowMs: number, nowMs: number) => windowIn(windows, windowMs, nowMs);
  for (const windowMs of options.windowsMs ?? [60_000]) windowOf(windowMs, now());

  const isShared = () => !lastFailed && lastSuccessAt !== undefined && now() - lastSuccessAt <= staleMs;

  const counterOf = (key: string, limit: number, windowMs: number, nowMs: number) =>
    counterIn(windowOf(windowMs, nowMs), key, limit, instances);
  const decideNow = (key: string, limit: number, windowMs: number, count: boolean) => {
    const nowMs = now();
    return decide(counterOf(key, limit, windowMs, nowMs), { nowMs, count, isShared, syncMs });
  };
  const consumeNow = (key: string, limit: number, windowMs: number) => decideNow(key, limit, windowMs, true);

  async function runExchange(): Promise<void> {
    const nowMs = now();
    const batch = batchOf(windows, nowMs);
    try {
      const { totals, instances: seen } = await options.counters.exchange(
        instanceId,
        nowMs,
        batch.map(({ window, deltas }) => ({
          window: `${window.windowMs}:${window.windowStart}`,
          deltas,
          ttlMs: window.windowStart + window.windowMs - nowMs,
        })),
      );
      instances = seen;
      applyTotals(windows, batch, totals, instances);
      lastSuccessAt = nowMs;
      if (lastFailed) {
        lastFailed = false;
        options.onRecovered?.();
      }
    } catch (error) {
      failures += 1;
      if (!lastFailed) {
        lastFailed = true;
        options.onUnavailable?.(error);
      }
    }
  }

  function tick(): void {
    // One exchange at a time: a slow store delays the next one instead of piling them up.
    if (inFlight) return;
    inFlight = runExchange().finally(() => {
      inFlight = undefined;
    });
  }

  /** An exchange that starts after any one in flight, so it carries every count made before the call. */
  async function exchange(): Promise<void> {
    while (inFlight) await inFlight;
    tick();
    await inFlight;
  }

  const timer = options.manual ? undefined : setInterval(tick, syncMs);
  timer?.unref();

  return {
    consumeNow,
    consume: async (key, limit, windowMs) => consumeNow(key, limit, windowMs),
    peek: async (key, limit, windowMs) => decideNow(key, limit, windowMs, false),
    release: async (key, windowMs) => release(windowOf(windowMs, now()).counters.get(key)),
    exchange,
    isShared,
    failures: () => failures,
    close() {
      clearInterval(timer);
    },
  };
}
