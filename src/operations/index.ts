/** What other modules use of the operations module. */
export { healthRoutes } from './health.routes.ts';
export { createMetrics, registerMetrics } from './metrics.ts';
export { createServiceMetrics } from './service-metrics.ts';
export { createOperationsModule, type OperationsModule } from './operations.module.ts';
