/** What other modules may use of the sandbox module. */
export { type SandboxService } from './sandbox.service.ts';

export { createDemoOperator } from './demo-operator.ts';
export { printSandboxCredentials } from './sandbox-banner.ts';
export { createSandboxModule } from './sandbox.module.ts';
