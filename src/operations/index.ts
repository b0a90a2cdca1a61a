/** What other modules use of the operations module. */

export { createMetrics, registerMetrics } from './metrics.ts';

export { createOperationsModule } from './operations.module.ts';
