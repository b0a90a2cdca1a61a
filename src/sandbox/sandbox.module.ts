/**
 * The sandbox module as the composition root uses it: in the sandbox environment only, the magic
 * recipients, the messages kept for developers to read and their routes; the columns it encrypts in every one.
 */
import type { Db } from '../db/index.ts';
import type { ModuleRoutes } from '../http/index.ts';
import { createSandboxMessagesRepository } from './sandbox-messages.repository.ts';
import { sandboxGuideRoute, sandboxRoutes } from './sandbox.routes.ts';
import { createSandboxService, sandboxEncryptedColumns } from './sandbox.service.ts';

type ServiceDeps = Parameters<typeof createSandboxService>[0];

export interface SandboxModuleDeps extends Omit<ServiceDeps, 'messages'> {
  db: Db;
  environment: string;
}

export function createSandboxModule(deps: SandboxModuleDeps) {
  const { db, environment, ...rest } = deps;
  // Only the sandbox environment has magic recipients and readable PIN messages (docs/sandbox.md).
  const service =
    environment === 'sandbox'
      ? createSandboxService({ ...rest, messages: createSandboxMessagesRepository(db) })
      : undefined;
  // Elsewhere the routes do not exist (404 / 4044).
  const routes: ModuleRoutes = service
    ? { public: [sandboxGuideRoute()], partner: [sandboxRoutes({ sandbox: service })] }
    : {};
  return { service, encryptedColumns: sandboxEncryptedColumns, routes };
}

export type SandboxModule = ReturnType<typeof createSandboxModule>;
