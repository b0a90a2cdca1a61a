/**
 * Metrics of what the service does beyond HTTP: PIN sends and confirmations by outcome, calls to
 * each provider by outcome with their latency, each provider's circuit state, and rate-limit
 * refusals by reason. None of these counts a catalog read (the bulk of requests), so they use
 * prom-client's own labelled metrics. Labels are closed sets of codes, never ids or personal data.
 */
import { Counter, Gauge, Histogram, type Metric, type Registry } from 'prom-client';

export type CircuitStateName = 'closed' | 'open' | 'half_open';
const circuitStates: readonly CircuitStateName[] = ['closed', 'half_open', 'open'];

export function createServiceMetrics() {
  const pinSends = new Counter({
    name: 'autofin_pin_sends_total',
    help: 'PIN send requests by channel and outcome (sent, a refusal reason, or a provider failure)',
    labelNames: ['channel', 'outcome'] as const,
    registers: [],
  });
  const pinConfirmations = new Counter({
    name: 'autofin_pin_confirmations_total',
    help: 'PIN confirmations by outcome (verified, a refusal reason, or a bureau failure)',
    labelNames: ['outcome'] as const,
    registers: [],
  });
  const providerCalls = new Counter({
    name: 'autofin_provider_calls_total',
    help:
      'Calls to third parties by provider (sms, email, bureau) and outcome ' +
      '(ok, timeout, rejected, error, circuit_open)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [],
  });
  const providerDuration = new Histogram({
    name: 'autofin_provider_call_duration_seconds',
    help: 'Duration of calls to third parties by provider and outcome',
    labelNames: ['provider', 'outcome'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  });
  const rateLimitRefusals = new Counter({
    name: 'autofin_rate_limit_refusals_total',
    help: 'Requests answered 429, by the limit that refused them',
    labelNames: ['reason'] as const,
    registers: [],
  });
  let circuitSource: ((provider: 'sms' | 'email' | 'bureau') => CircuitStateName) | undefined;
  const circuitState = new Gauge({
    name: 'autofin_provider_circuit_state',
    help: 'Circuit breaker of each provider: 1 on its current state (closed, half_open, open), 0 on the others',
    labelNames: ['provider', 'state'] as const,
    registers: [],
    collect() {
      if (!circuitSource) return;
      for (const provider of ['sms', 'email', 'bureau'] as const) {
        const current = circuitSource(provider);
        for (const state of circuitStates) this.set({ provider, state }, state === current ? 1 : 0);
      }
    },
  });

  return {
    pinSent: (channel: string, outcome: string) => pinSends.inc({ channel, outcome }),
    pinConfirmed: (outcome: string) => pinConfirmations.inc({ outcome }),
    providerCall(provider: string, outcome: string, seconds: number): void {
      providerCalls.inc({ provider, outcome });
      providerDuration.observe({ provider, outcome }, seconds);
    },
    rateLimitRefused: (reason: string) => rateLimitRefusals.inc({ reason }),
    /** Where the circuit gauge reads each provider's state when scraped. */
    observeCircuits(source: (provider: 'sms' | 'email' | 'bureau') => CircuitStateName): void {
      circuitSource = source;
    },
    register(registry: Registry): void {
      const all: Metric<string>[] = [
        pinSends,
        pinConfirmations,
        providerCalls,
        providerDuration,
        rateLimitRefusals,
        circuitState,
      ];
      for (const metric of all) registry.registerMetric(metric);
    },
  };
}

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;
