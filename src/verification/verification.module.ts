/**
 * The verification module as the composition root uses it: the PIN send and confirmation (and the
 * erasure of a lead's PIN), with their metrics and the partner's routes.
 */
import type { Db } from '../db/index.ts';
import type { ModuleRoutes } from '../http/index.ts';
import { instrumentVerification, type VerificationMetrics } from './verification-metrics.ts';
import { createVerificationRepository } from './verification.repository.ts';
import { verificationRoutes } from './verification.routes.ts';
import { createVerificationService } from './verification.service.ts';

type ServiceDeps = Parameters<typeof createVerificationService>[0];

export interface VerificationModuleDeps extends Omit<ServiceDeps, 'db' | 'verification'> {
  db: Db;
  metrics: VerificationMetrics;
}

export function createVerificationModule(deps: VerificationModuleDeps) {
  const { metrics, ...rest } = deps;
  const service = instrumentVerification(
    createVerificationService({ ...rest, verification: createVerificationRepository(deps.db) }),
    metrics,
  );
  const routes: ModuleRoutes = { partner: [verificationRoutes({ verification: service })] };
  return { service, routes };
}

export type VerificationModule = ReturnType<typeof createVerificationModule>;
