/**
 * Whole-process testing: the service as a real process (start with an environment, wait until ready,
 * captured output, graceful stop or kill, exit code), the installation it runs on across restarts,
 * the servers beside it (a scratch PostgreSQL database, a Redis of its own), a free port, and a
 * partner made through its admin API. Every whole-process test and bench starts the service here.
 */
export { freePort } from './free-port.ts';
export { projectRoot, serviceArgs, startEnvironment, startNodeOptions } from './service-entry.ts';
export {
  spawnServiceProcess,
  startServiceProcess,
  type Environment,
  type Exit,
  type ServiceProcess,
  type SpawnedService,
  type SpawnOptions,
  type StartOptions,
} from './service-process.ts';
export { engine, installation, type Installation } from './installation.ts';
export { createScratchDatabase, type ScratchDatabase } from './scratch-database.ts';
export { startOwnRedis, type OwnRedis } from './own-redis.ts';
export { newPartnerOn } from './partner.ts';
