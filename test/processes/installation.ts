/**
 * One installation's life across service processes: a data directory and, when the run is on
 * PostgreSQL (DATABASE_URL), a scratch database of its own, reused by every start until `drop`
 * kills what still runs and removes both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from './scratch-database.ts';
import { startServiceProcess, type ServiceProcess, type StartOptions } from './service-process.ts';

export const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** `defaults` is the environment of every start, under the one each start gives. */
export async function installation(prefix: string, defaults: Record<string, string> = {}, options: StartOptions = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `autofin-${prefix}-`));
  const database = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, `autofin_${prefix}`)
    : undefined;
  const started: ServiceProcess[] = [];
  return {
    dataDir,
    databaseUrl: database?.url,
    /** Starts the service on this installation and waits until it is ready. */
    async start(env: Record<string, string> = {}): Promise<ServiceProcess> {
      const own = { DATA_DIR: dataDir, DATABASE_URL: database?.url };
      const service = await startServiceProcess({ ...defaults, ...env, ...own }, options);
      started.push(service);
      return service;
    },
    async drop() {
      await Promise.all(started.map((service) => service.kill()));
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type Installation = Awaited<ReturnType<typeof installation>>;
