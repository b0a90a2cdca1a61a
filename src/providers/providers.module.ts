/**
 * The providers module as the composition root uses it: the SMS and e-mail senders and the shared
 * outbound layer (time limit, circuit breaker) the bureau calls through, and the logger whose lines
 * carry the request, lead and company each call was made for.
 */
import pino from 'pino';
import { withCallContext } from './call-context.ts';
import type { ProviderLogger } from './logger-port.ts';
import type { CircuitState } from './outbound.ts';
import type { ProviderKind } from './ports.ts';
import { createProviders, type ProvidersConfig, type ProvidersDeps } from './providers.ts';

export interface ProvidersModuleDeps extends Omit<ProvidersDeps, 'logger' | 'onCall'> {
  config: ProvidersConfig;
  /** Where adapters log (ids and kinds only); silent when absent. */
  logger?: ProviderLogger;
  /** Told of every call's outcome and duration, and shown each circuit's state. */
  metrics: {
    providerCall: NonNullable<ProvidersDeps['onCall']>;
    observeCircuits(source: (provider: ProviderKind) => CircuitState): void;
  };
}

export async function createProvidersModule(deps: ProvidersModuleDeps) {
  const { config, metrics, ...rest } = deps;
  // Every provider log line carries the request, lead and company it was made for.
  const logger = withCallContext(deps.logger ?? pino({ level: 'silent' }));
  const providers = await createProviders(config, { ...rest, logger, onCall: metrics.providerCall });
  metrics.observeCircuits(providers.outbound.state);
  return { providers, logger, close: () => providers.close() };
}

export type ProvidersModule = Awaited<ReturnType<typeof createProvidersModule>>;
