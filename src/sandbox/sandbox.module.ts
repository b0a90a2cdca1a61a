/**
 * The sandbox module as the composition root uses it: in the sandbox environment only, the magic
 * recipients and the messages kept for developers to read; the columns it encrypts in every one.
 */
import type { Db } from '../db/index.ts';
import { createSandboxMessagesRepository } from './sandbox-messages.repository.ts';
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
  return { service, encryptedColumns: sandboxEncryptedColumns };
}

export type SandboxModule = ReturnType<typeof createSandboxModule>;
