/**
 * The delivery worker, one per service process. It leases due deliveries (several instances share
 * one PostgreSQL safely, see webhooks.repository.ts `claimDue`), signs and sends each, and records
 * the attempt: a 2xx succeeds, a 410 disables the endpoint, anything else is retried on the
 * schedule of retry-schedule.ts. Deliveries left pending by a stop or a crash are picked up again
 * once their lease ends. A stop finishes attempts in flight for a short grace, then aborts and
 * releases the rest untried.
 *
 * It looks for due deliveries when woken (`listen`: the database announces every delivery written,
 * at commit), when one of its attempts ends (the lead's next event may now go), and every `pollMs`
 * as the fallback (retries coming due, a notification missed while the listener reconnected).
 * Attempts run in parallel, at most `concurrency` in this process and `perEndpoint` to one endpoint.
 */
import type { Clock, FieldEncryption } from '../shared/index.ts';
import { disableAfterFailingMs, nextAttemptAt } from './retry-schedule.ts';
import { signedHeaders } from './signing.ts';
import type { SendOutcome, WebhookSender } from './webhook-sender.ts';
import type { DueDelivery, WebhooksRepository } from './webhooks.repository.ts';
import { secretContext } from './webhooks.service.ts';

/**
 * Runs one delivery attempt inside a span of its own (src/tracing), in the trace of the change that
 * wrote the event (`traceparent` stored with it); absent when tracing is off.
 */
export type DeliveryTracer = (
  target: { traceparent: string | null; url: string; eventType: string },
  send: () => Promise<SendOutcome>,
) => Promise<SendOutcome>;

export interface DeliveryWorkerDeps {
  repository: Pick<WebhooksRepository, 'claimDue' | 'recordAttempt' | 'release'>;
  sender: Pick<WebhookSender, 'send'>;
  encryption: FieldEncryption;
  clock: Clock;
  timeoutMs: number;
  /** The fallback look for due deliveries when nothing wakes the worker. */
  pollMs?: number;
  /** Attempts in flight at once in this process, and to one endpoint. */
  concurrency?: number;
  perEndpoint?: number;
  /** Calls `wake` whenever a delivery is written; resolves to a function that stops listening. */
  listen?: (wake: () => void) => Promise<() => Promise<void>>;
  /** Called with each attempt's outcome (metrics). */
  onAttempt?: (outcome: 'succeeded' | 'retrying' | 'failed' | 'disabled') => void;
  warn?: (message: string, error?: unknown) => void;
  tracer?: DeliveryTracer;
}

/** The body a receiver gets (docs/webhooks.md): type, timestamp and the thin data. */
export const bodyOf = (d: Pick<DueDelivery, 'type' | 'occurred_at' | 'data'>) =>
  JSON.stringify({ type: d.type, timestamp: new Date(d.occurred_at).toISOString(), data: d.data });

function secretsOf(d: DueDelivery, now: Date, encryption: FieldEncryption): string[] {
  const context = secretContext(d.endpoint_id);
  const secrets = [encryption.decrypt<string>(d.secret_enc, context)];
  if (d.previous_secret_enc && d.previous_secret_until && new Date(d.previous_secret_until) > now) {
    secrets.push(encryption.decrypt<string>(d.previous_secret_enc, context));
  }
  return secrets;
}

/** What an attempt's outcome makes of its delivery: the record to write, and the retry time if any. */
function resultOf(d: DueDelivery, outcome: SendOutcome, startedAt: Date, now: Date) {
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const gone = outcome.statusCode === 410;
  const count = d.attempts.length + 1;
  const next = ok || gone ? undefined : nextAttemptAt(count, now);
  const status = ok ? 'succeeded' : next ? 'pending' : 'failed';
  const record = {
    id: d.id,
    endpointId: d.endpoint_id,
    status,
    next,
    at: now,
    disable: gone,
    disableBefore: new Date(now.getTime() - disableAfterFailingMs),
    attempt: {
      at: startedAt.toISOString(),
      statusCode: outcome.statusCode,
      durationMs: outcome.durationMs,
      error: outcome.error,
    },
  } as const;
  return { record, next, outcome: ok ? 'succeeded' : gone ? 'disabled' : next ? 'retrying' : 'failed' } as const;
}

/**
 * The attempts of this process: claims as many due deliveries as it has room for, sends each and
 * records it, and counts what is in flight (in all, and per endpoint). `retryDue` is told of a retry
 * due before the next poll.
 */
function createAttempts(deps: DeliveryWorkerDeps, retryDue: (inMs: number) => void) {
  const { repository, clock } = deps;
  const pollMs = deps.pollMs ?? 5000;
  const concurrency = deps.concurrency ?? 32;
  const perEndpoint = deps.perEndpoint ?? 8;
  const inFlight = new Map<string, AbortController>();
  /** Attempts in flight per endpoint, in this process. */
  const busy = new Map<string, number>();
  const attempts = new Set<Promise<unknown>>();
  let claiming: Promise<unknown> | undefined;

  async function attempt(d: DueDelivery): Promise<void> {
    const controller = new AbortController();
    inFlight.set(d.id, controller);
    busy.set(d.endpoint_id, (busy.get(d.endpoint_id) ?? 0) + 1);
    try {
      const startedAt = clock.now();
      const body = bodyOf(d);
      const headers = () => signedHeaders(secretsOf(d, startedAt, deps.encryption), d.event_id, startedAt, body);
      const send = () => deps.sender.send(d.url, headers(), body, controller.signal);
      const target = { traceparent: d.trace_parent, url: d.url, eventType: d.type };
      const outcome = deps.tracer ? await deps.tracer(target, send) : await send();
      // A stop aborted it: nothing is recorded, the delivery is given back for the next claim.
      if (controller.signal.aborted) return repository.release(d.id);
      const now = clock.now();
      const result = resultOf(d, outcome, startedAt, now);
      await repository.recordAttempt(result.record);
      deps.onAttempt?.(result.outcome);
      // A retry due before the next poll is looked for when it is due.
      if (result.next && result.next.getTime() - now.getTime() < pollMs)
        retryDue(result.next.getTime() - now.getTime());
    } finally {
      inFlight.delete(d.id);
      const left = (busy.get(d.endpoint_id) ?? 1) - 1;
      if (left > 0) busy.set(d.endpoint_id, left);
      else busy.delete(d.endpoint_id);
    }
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    attempts.add(promise);
    return promise.finally(() => attempts.delete(promise));
  }

  return {
    /** The claim under way, if any. */
    claiming: () => claiming,
    /** Leases what this process has room for; the attempts are started, not awaited. */
    async claim(stopping: boolean): Promise<{ due: DueDelivery[]; attempts: Promise<unknown>[]; full: boolean }> {
      const free = concurrency - inFlight.size;
      if (stopping || free <= 0) return { due: [], attempts: [], full: free <= 0 };
      const now = clock.now();
      // The lease outlasts the longest attempt, so no other instance takes a delivery still in flight.
      const leaseUntil = new Date(now.getTime() + deps.timeoutMs + 5000);
      const claimed = repository.claimDue(now, leaseUntil, free, { perEndpoint, busy });
      claiming = claimed;
      const due = await claimed.finally(() => (claiming = undefined));
      const started = due.map((d) => track(attempt(d).catch((e) => deps.warn?.('webhook attempt not recorded', e))));
      // Room or an endpoint's bound ran out: more may be due than this claim took.
      const full = due.length >= free || [...busy.values()].some((n) => n >= perEndpoint);
      return { due, attempts: started, full };
    },
    /** Attempts in flight get `graceMs` to finish, then are aborted (and their deliveries released). */
    async drain(graceMs: number): Promise<void> {
      const all = Promise.all([...attempts]);
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, graceMs)));
      await Promise.race([all, grace]);
      clearTimeout(graceTimer);
      for (const controller of inFlight.values()) controller.abort();
      await Promise.all([...attempts]);
    },
  };
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps) {
  const pollMs = deps.pollMs ?? 5000;
  const flight = createAttempts(deps, (inMs) => setTimeout(look, inMs).unref());
  let timer: NodeJS.Timeout | undefined;
  /** Woken while a claim was under way: look again once it ends. */
  let again = false;
  /** Wakes so far: an attempt ending after one may unblock a lead's next delivery. */
  let wakes = 0;
  let unlisten: Promise<() => Promise<void>> | undefined;
  let stopping = false;
  let started = false;

  /** Claims and sends one batch of due deliveries and waits for their attempts; the number tried. */
  async function runDue(): Promise<number> {
    const { attempts } = await flight.claim(stopping);
    await Promise.all(attempts);
    return attempts.length;
  }

  /**
   * One look for due deliveries (a started worker); wakes during a claim make one more claim after
   * it. An attempt that ends looks again when something may now be due: the claim was full, its
   * lead has a later delivery waiting for it, or a delivery was written since the claim.
   */
  function look(): void {
    if (!started || stopping) return;
    if (flight.claiming()) {
      again = true;
      return;
    }
    again = false;
    clearTimeout(timer);
    const wakesBefore = wakes;
    flight.claim(stopping).then(
      ({ due, attempts, full }) => {
        attempts.forEach((a, k) => void a.then(() => (full || due[k].has_next || wakes !== wakesBefore) && look()));
        if (again) look();
        else arm(pollMs);
      },
      (error) => {
        deps.warn?.('webhook worker failed to claim deliveries', error);
        arm(pollMs);
      },
    );
  }

  /** A delivery was written (or retried by hand): look now. */
  function wake(): void {
    wakes += 1;
    look();
  }

  function arm(ms: number): void {
    clearTimeout(timer);
    if (started && !stopping) timer = setTimeout(look, ms);
  }

  return {
    runDue,
    /** Drains every delivery due now (tests). */
    async runUntilIdle(): Promise<void> {
      while ((await runDue()) > 0);
    },
    start(): void {
      if (started && !stopping) return;
      stopping = false;
      started = true;
      unlisten ??= deps.listen?.(wake).catch((error) => {
        deps.warn?.('webhook worker cannot listen for new deliveries; polling only', error);
        return async () => {};
      });
      arm(0);
    },
    /** Looks for due deliveries now rather than at the next poll (a started worker only). */
    kick(): void {
      wake();
    },
    /** Stops claiming; attempts in flight get `graceMs` to finish, then are aborted and released. */
    async stop(graceMs = 5000): Promise<void> {
      stopping = true;
      started = false;
      clearTimeout(timer);
      timer = undefined;
      const stopListening = unlisten;
      unlisten = undefined;
      await (await stopListening)?.().catch(() => undefined);
      // A claim under way may still hand out deliveries: wait for it, then for its attempts.
      await flight.claiming()?.catch(() => undefined);
      await flight.drain(graceMs);
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
