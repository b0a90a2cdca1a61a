/**
 * The delivery worker, one per service process. It leases due deliveries (several instances share
 * one PostgreSQL safely, see webhooks.repository.ts `claimDue`), signs and sends each, and records
 * the attempt: a 2xx succeeds, a 410 disables the endpoint, anything else is retried on the
 * schedule of retry-schedule.ts. Deliveries left pending by a stop or a crash are picked up again
 * once their lease ends. A stop finishes attempts in flight for a short grace, then aborts and
 * releases the rest untried.
 */
import type { Clock } from '../shared/clock.ts';
import type { FieldEncryption } from '../shared/field-encryption.ts';
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
  pollMs?: number;
  batchSize?: number;
  /** Called with each attempt's outcome (metrics). */
  onAttempt?: (outcome: 'succeeded' | 'retrying' | 'failed' | 'disabled') => void;
  warn?: (message: string, error?: unknown) => void;
  tracer?: DeliveryTracer;
}

/** The body a receiver gets (docs/webhooks.md): type, timestamp and the thin data. */
export const bodyOf = (d: Pick<DueDelivery, 'type' | 'occurred_at' | 'data'>) =>
  JSON.stringify({ type: d.type, timestamp: new Date(d.occurred_at).toISOString(), data: d.data });

export function createDeliveryWorker(deps: DeliveryWorkerDeps) {
  const { repository, clock } = deps;
  const pollMs = deps.pollMs ?? 250;
  const batchSize = deps.batchSize ?? 16;
  const inFlight = new Map<string, AbortController>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let claiming: Promise<unknown> | undefined;
  let stopping = false;
  let started = false;

  function secretsOf(d: DueDelivery, now: Date): string[] {
    const context = secretContext(d.endpoint_id);
    const secrets = [deps.encryption.decrypt<string>(d.secret_enc, context)];
    if (d.previous_secret_enc && d.previous_secret_until && new Date(d.previous_secret_until) > now) {
      secrets.push(deps.encryption.decrypt<string>(d.previous_secret_enc, context));
    }
    return secrets;
  }

  async function attempt(d: DueDelivery): Promise<void> {
    const controller = new AbortController();
    inFlight.set(d.id, controller);
    try {
      const startedAt = clock.now();
      const body = bodyOf(d);
      const send = () => deps.sender.send(
        d.url,
        signedHeaders(secretsOf(d, startedAt), d.event_id, startedAt, body),
        body,
        controller.signal,
      );
      const target = { traceparent: d.trace_parent, url: d.url, eventType: d.type };
      const outcome = deps.tracer ? await deps.tracer(target, send) : await send();
      // A stop aborted it: nothing is recorded, the delivery is given back for the next claim.
      if (controller.signal.aborted) return repository.release(d.id);
      const now = clock.now();
      const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
      const gone = outcome.statusCode === 410;
      const count = d.attempts.length + 1;
      const next = ok || gone ? undefined : nextAttemptAt(count, now);
      const status = ok ? 'succeeded' : next ? 'pending' : 'failed';
      await repository.recordAttempt({
        id: d.id, endpointId: d.endpoint_id, status, next, at: now, disable: gone,
        disableBefore: new Date(now.getTime() - disableAfterFailingMs),
        attempt: {
          at: startedAt.toISOString(), statusCode: outcome.statusCode, durationMs: outcome.durationMs,
          error: outcome.error,
        },
      });
      deps.onAttempt?.(ok ? 'succeeded' : gone ? 'disabled' : next ? 'retrying' : 'failed');
    } finally {
      inFlight.delete(d.id);
    }
  }

  const attempts = new Set<Promise<unknown>>();
  function track<T>(promise: Promise<T>): Promise<T> {
    attempts.add(promise);
    return promise.finally(() => attempts.delete(promise));
  }

  /** Claims and sends one batch of due deliveries; the number tried. */
  async function runDue(): Promise<number> {
    if (stopping) return 0;
    const now = clock.now();
    // The lease outlasts the longest attempt, so no other instance takes a delivery still in flight.
    const claim = repository.claimDue(now, new Date(now.getTime() + deps.timeoutMs + 5000), batchSize);
    claiming = claim;
    const due = await claim.finally(() => (claiming = undefined));
    await Promise.all(due.map((d) => track(attempt(d).catch((e) => deps.warn?.('webhook attempt not recorded', e)))));
    return due.length;
  }

  async function loop(): Promise<void> {
    timer = undefined;
    try {
      running = runDue();
      // A full batch means more may be due: go again at once.
      const tried = await running;
      if (!stopping) timer = setTimeout(loop, tried >= batchSize ? 0 : pollMs);
    } catch (error) {
      deps.warn?.('webhook worker failed to claim deliveries', error);
      if (!stopping) timer = setTimeout(loop, pollMs * 4);
    } finally {
      running = undefined;
    }
  }

  return {
    runDue,
    /** Drains every delivery due now (tests). */
    async runUntilIdle(): Promise<void> {
      while ((await runDue()) > 0);
    },
    start(): void {
      stopping = false;
      started = true;
      if (!timer) timer = setTimeout(loop, 0);
    },
    /** Looks for due deliveries now rather than at the next poll (a started worker only). */
    kick(): void {
      if (!started || stopping || running || !timer) return;
      clearTimeout(timer);
      timer = setTimeout(loop, 0);
    },
    /** Stops claiming; attempts in flight get `graceMs` to finish, then are aborted and released. */
    async stop(graceMs = 5000): Promise<void> {
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      // A claim under way may still hand out deliveries: wait for it, then for its attempts.
      await claiming?.catch(() => undefined);
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

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
