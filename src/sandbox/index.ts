/** What other modules may use of the sandbox module. */
export {
  createSandboxService,
  sandboxEncryptedColumns,
  type SandboxService,
  type SentMessage,
} from './sandbox.service.ts';
export { sandboxRoutes, sandboxGuideRoute, sandboxGuidePath } from './sandbox.routes.ts';
export { createDemoOperator } from './demo-operator.ts';
export { printSandboxCredentials } from './sandbox-banner.ts';
export { createSandboxModule, type SandboxModule } from './sandbox.module.ts';
