/**
 * The operations module as the composition root uses it: the service's own metrics (PIN sends,
 * provider calls and circuits, rate-limit refusals) the other modules report to, and the health probes.
 */
import type { ModuleRoutes } from '../http/index.ts';
import { healthRoutes } from './health.routes.ts';
import { createServiceMetrics } from './service-metrics.ts';

export function createOperationsModule(deps: { ping: () => Promise<boolean> }) {
  const routes: ModuleRoutes = { public: [healthRoutes({ ping: deps.ping })] };
  return { metrics: createServiceMetrics(), routes };
}

export type OperationsModule = ReturnType<typeof createOperationsModule>;
