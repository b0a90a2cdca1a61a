/**
 * The one place where calls to third parties get a time limit, a circuit breaker and a meaning for
 * thrown errors. Every adapter call goes through `call`, so a slow or dead provider costs a request
 * at most PROVIDER_TIMEOUT_MS, and after a run of failures none at all until the provider has had
 * time to recover. The failure kinds it returns are mapped to the contract's 412 / 6XXYYY at the HTTP
 * edge (toAppError in http/app-error.ts).
 */
import { systemClock, type Clock } from '../shared/index.ts';
import type { ProviderLogger } from './logger-port.ts';
import type { FailureKind, ProviderFailure, ProviderKind, ProviderResult } from './ports.ts';

export type CircuitState = 'closed' | 'open' | 'half_open';
export type { ProviderFailure };
export type ProviderCall<T> = (signal: AbortSignal) => Promise<ProviderResult<T>>;
/** Runs one provider call inside a span of its own (src/tracing); absent when tracing is off. */
export type ProviderTracer = <T>(
  provider: ProviderKind,
  call: () => Promise<ProviderResult<T>>,
) => Promise<ProviderResult<T>>;

export interface OutboundOptions {
  /** Time limit of one call, PROVIDER_TIMEOUT_MS. */
  timeoutMs: number;
  /** Only the circuit's open period is measured on it; the time limit needs a real timer. */
  clock?: Clock;
  /** Consecutive timeouts/errors that open a provider's circuit. */
  failureThreshold?: number;
  /** How long an open circuit refuses calls before letting one trial through. */
  openMs?: number;
  logger?: ProviderLogger;
  /** Told of every call's outcome (`ok` or a failure kind, circuit refusals included) and duration. */
  onCall?: (provider: ProviderKind, outcome: 'ok' | FailureKind, seconds: number) => void;
  tracer?: ProviderTracer;
}

export interface Outbound {
  call<T>(provider: ProviderKind, fn: ProviderCall<T>): Promise<ProviderResult<T>>;
  state(provider: ProviderKind): CircuitState;
}

/**
 * Error codes that mean "we never got an answer": refused, reset, DNS, socket and connect timeouts
 * (Node, undici and nodemailer spellings), and aborts. The contract reports them all as XX001.
 */
const NO_ANSWER_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_ABORTED',
  'ABORT_ERR',
  'ECONNECTION',
  'ESOCKET',
  'EDNS',
  'EABORT',
]);

/** True when an error (or its cause, or one of an AggregateError's errors) says no answer came. */
export function isNoAnswerError(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  const e = err as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && NO_ANSWER_CODES.has(e.code)) return true;
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isNoAnswerError(inner, depth + 1))) return true;
  return isNoAnswerError(e.cause, depth + 1);
}

/** What a thrown error means as a provider outcome; an abort of our own signal is always a timeout. */
export function classifyThrown(err: unknown, signal?: AbortSignal): FailureKind {
  if (signal?.aborted) return 'timeout';
  return isNoAnswerError(err) ? 'timeout' : 'error';
}

/** A short, PII-free description for logs: the error's code or class, never its message (which can quote addresses). */
export function describeError(err: unknown): string {
  if (typeof err !== 'object' || err === null) return typeof err;
  const e = err as { code?: unknown; name?: unknown };
  return typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'Error';
}

/**
 * Reads at most `maxBytes` of an HTTP body as text, or null when it is longer (the stream is then
 * destroyed, so a misbehaving provider cannot make us buffer without bound).
 */
export async function readBoundedText(
  body: AsyncIterable<Uint8Array> & { destroy(): unknown },
  maxBytes: number,
): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs `fn` with an abort signal that fires at the limit. The race answers 'timeout' at the limit
 * even when `fn` ignores the signal; whatever `fn` does afterwards is dropped.
 */
async function runWithLimit<T>(fn: ProviderCall<T>, timeoutMs: number): Promise<ProviderResult<T>> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<ProviderResult<T>>((resolve) => {
    timer = setTimeout(() => {
      resolve({ ok: false, kind: 'timeout', detail: `no answer within ${timeoutMs} ms` });
      controller.abort(new DOMException('provider time limit reached', 'TimeoutError'));
    }, timeoutMs);
  });
  // Started inside a promise chain so a synchronous throw becomes a value too.
  const attempt = Promise.resolve()
    .then(() => fn(controller.signal))
    .catch((err: unknown): ProviderResult<T> => ({
      ok: false,
      kind: classifyThrown(err, controller.signal),
      detail: describeError(err),
    }));
  try {
    return await Promise.race([attempt, limit]);
  } finally {
    clearTimeout(timer);
  }
}

interface CircuitSettings {
  clock: Clock;
  failureThreshold: number;
  openMs: number;
  logger?: ProviderLogger;
}

/** One provider's circuit breaker: closed → open after a run of failures → half-open after openMs. */
function createCircuit(provider: ProviderKind, { clock, failureThreshold, openMs, logger }: CircuitSettings) {
  let failures = 0;
  let openedAt: number | null = null;
  let trialInFlight = false;

  const state = (): CircuitState => {
    if (openedAt === null) return 'closed';
    return clock.now().getTime() - openedAt >= openMs ? 'half_open' : 'open';
  };

  return {
    state,
    /** 'call' or 'trial' lets the call through; half-open lets exactly one trial through at a time. */
    enter(): 'refuse' | 'call' | 'trial' {
      const current = state();
      if (current === 'closed') return 'call';
      if (current === 'open' || trialInFlight) return 'refuse';
      trialInFlight = true;
      return 'trial';
    },
    leave(result: ProviderResult<unknown>, trial: boolean): void {
      if (trial) trialInFlight = false;
      // 'rejected' means the provider answered (it refused OUR request): it is up, like a success.
      if (result.ok || result.kind === 'rejected') {
        if (openedAt !== null) logger?.info({ provider }, 'provider circuit closed');
        failures = 0;
        openedAt = null;
        return;
      }
      if (result.kind !== 'timeout' && result.kind !== 'error') return;
      failures += 1;
      // A failed trial re-opens at once; a closed circuit opens at the threshold. A call that was
      // already in flight when another opened the circuit does not extend the open period.
      if (trial || (openedAt === null && failures >= failureThreshold)) {
        openedAt = clock.now().getTime();
        logger?.warn({ provider, failures, openMs }, 'provider circuit opened');
      }
    },
  };
}

export function createOutbound(options: OutboundOptions): Outbound {
  const { timeoutMs, clock = systemClock, failureThreshold = 5, openMs = 30_000, logger, onCall, tracer } = options;
  const circuits = new Map<ProviderKind, ReturnType<typeof createCircuit>>();
  const circuitOf = (provider: ProviderKind) => {
    let circuit = circuits.get(provider);
    if (!circuit) {
      circuit = createCircuit(provider, { clock, failureThreshold, openMs, logger });
      circuits.set(provider, circuit);
    }
    return circuit;
  };

  return {
    async call<T>(provider: ProviderKind, fn: ProviderCall<T>): Promise<ProviderResult<T>> {
      const circuit = circuitOf(provider);
      const entry = circuit.enter();
      if (entry === 'refuse') {
        onCall?.(provider, 'circuit_open', 0);
        logger?.warn({ provider, failure: 'circuit_open' }, 'provider call refused: circuit open');
        return { ok: false, kind: 'circuit_open' };
      }
      const started = performance.now();
      // runWithLimit turns every throw into a value, so leave() always runs.
      const limited = () => runWithLimit(fn, timeoutMs);
      const result = tracer ? await tracer(provider, limited) : await limited();
      const ms = performance.now() - started;
      onCall?.(provider, result.ok ? 'ok' : result.kind, ms / 1000);
      if (result.ok) logger?.info({ provider, outcome: 'ok', ms: Math.round(ms) }, 'provider call');
      else
        logger?.warn(
          { provider, failure: result.kind, detail: result.detail, ms: Math.round(ms) },
          'provider call failed',
        );
      circuit.leave(result, entry === 'trial');
      return result;
    },
    state: (provider) => circuitOf(provider).state(),
  };
}
