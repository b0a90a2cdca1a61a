/**
 * The operations module as the composition root uses it: the service's own metrics (PIN sends,
 * provider calls and circuits, rate-limit refusals) the other modules report to.
 */
import { createServiceMetrics } from './service-metrics.ts';

export function createOperationsModule() {
  return { metrics: createServiceMetrics() };
}

export type OperationsModule = ReturnType<typeof createOperationsModule>;
