/**
 * The service as a whole process (`node dist/main.js`, as `npm start` runs it) for the tests and the
 * bench: spawned with an environment over a clean base, waited for until ready, its output captured,
 * stopped gracefully (SIGTERM) or killed, its exit awaited. A process still running when this process
 * exits is killed with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { projectRoot, serviceArgs, startEnvironment } from './service-entry.ts';

/** Settings a test process may carry that a service process gets only when its test gives them. */
const notInherited = [
  'DATABASE_URL',
  'REDIS_URL',
  'TOKEN_SIGNING_KEY',
  'DATA_ENCRYPTION_KEY',
  'LOG_LEVEL',
  'TOKEN_SIGNING_PREVIOUS_KEYS',
  'DATA_ENCRYPTION_PREVIOUS_KEYS',
];

/** Settings of a service process; an `undefined` value removes one from the inherited environment. */
export type Environment = Record<string, string | undefined>;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnOptions {
  /** The `node` executable; this process's own by default. */
  node?: string;
}

export interface StartOptions extends SpawnOptions {
  /** How long the start may take before the process is killed and the start fails. */
  timeoutMs?: number;
  /**
   * What ready means: the "Server listening" log line (the default), or the first 200 from
   * /health/ready (which waits for the catalogs; also when the log level hides the line).
   */
  ready?: 'listening' | 'health';
}

export interface SpawnedService {
  child: ChildProcess;
  pid: number;
  port: number;
  /** `http://127.0.0.1:PORT`. */
  base: string;
  stdout: () => string;
  stderr: () => string;
  /** Standard output and error, in the order they arrived. */
  output: () => string;
  exited: Promise<Exit>;
  /** Resident memory of the process, from /proc. */
  rssBytes: () => number;
  /** CPU time the process has used (user + system), from /proc. */
  cpuSeconds: () => number;
  /**
   * Resolves, once the process is ready (see `StartOptions.ready`), to the milliseconds from spawning
   * to ready; fails with its output if it exits first, and kills it if the time runs out.
   */
  whenReady: (options?: Omit<StartOptions, 'node'>) => Promise<number>;
  /** SIGTERM (when still running) and wait for the exit; resolves to the exit code. */
  stop: () => Promise<number | null>;
  /** `signal` (SIGKILL by default, when still running) and wait for the exit. */
  kill: (signal?: NodeJS.Signals) => Promise<Exit>;
}

export interface ServiceProcess extends SpawnedService {
  /** Milliseconds from spawning to ready. */
  startMs: number;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

const tail = (text: string) => (text.length > 6000 ? `…${text.slice(-6000)}` : text);

/**
 * Spawns the service with `env` over this process's environment without the settings of
 * `notInherited` (an `undefined` value removes one more); HOST and PORT are set, and a data folder
 * of its own is made (and removed at the exit) unless `DATA_DIR` is given. Does not wait.
 */
export async function spawnServiceProcess(env: Environment, options: SpawnOptions = {}): Promise<SpawnedService> {
  const port = await freePort();
  const ownDataDir = env.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'autofin-proc-'));
  const childEnv: Record<string, string | undefined> = { ...process.env, ...startEnvironment };
  for (const name of notInherited) delete childEnv[name];
  Object.assign(childEnv, { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: ownDataDir, ...env });
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  const spawnedAt = performance.now();
  const child = spawn(options.node ?? process.execPath, serviceArgs(), {
    cwd: projectRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  let all = '';
  child.stdout!.on('data', (chunk) => ((out += chunk), (all += chunk)));
  child.stderr!.on('data', (chunk) => ((err += chunk), (all += chunk)));
  let ended: Exit | undefined;
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      ended = { code, signal };
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
      resolve(ended);
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (!ended) child.kill(signal);
    return exited;
  };
  const procFile = (name: string) => readFileSync(`/proc/${child.pid}/${name}`, 'utf8');

  async function whenReady({ timeoutMs = 90_000, ready = 'listening' }: Omit<StartOptions, 'node'> = {}) {
    const deadline = spawnedAt + timeoutMs;
    const listening = `Server listening at ${base}`;
    const isReady = async () => {
      if (ready === 'listening') return out.includes(listening);
      try {
        const res = await fetch(`${base}/health/ready`);
        await res.arrayBuffer();
        return res.status === 200;
      } catch {
        return false;
      }
    };
    while (!(await isReady())) {
      if (ended) throw new Error(`the service exited (${ended.code ?? ended.signal}):\n${tail(all)}`);
      if (performance.now() > deadline) {
        await kill();
        throw new Error(`timed out waiting for the service on ${port}:\n${tail(all)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return performance.now() - spawnedAt;
  }

  return {
    child,
    pid: child.pid!,
    port,
    base,
    stdout: () => out,
    stderr: () => err,
    output: () => all,
    exited,
    rssBytes: () => Number(/VmRSS:\s+(\d+) kB/.exec(procFile('status'))?.[1] ?? 0) * 1024,
    cpuSeconds: () => {
      // Fields 14 and 15 (utime, stime) in clock ticks of 1/100 s, after the command name in parentheses.
      const fields = procFile('stat').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    whenReady,
    stop: async () => (await kill('SIGTERM')).code,
    kill,
  };
}

/** Spawns the service (see `spawnServiceProcess`) and resolves once it is ready. */
export async function startServiceProcess(env: Environment, options: StartOptions = {}): Promise<ServiceProcess> {
  const service = await spawnServiceProcess(env, options);
  return { ...service, startMs: await service.whenReady(options) };
}
