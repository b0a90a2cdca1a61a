/**
 * The production shape as separate processes, for whole-process tests and the bench: service
 * processes (`node dist/main.js`, as `npm start` runs them) on one scratch PostgreSQL database, and a Redis server of
 * their own on a free port that can be stopped and started again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { serviceArgs } from './service-entry.ts';

const root = new URL('../', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * A `redis-server` (on PATH) of its own on a free port, without persistence. Starting it forks this
 * process, which holds up this process's event loop for the time the kernel takes to copy its page
 * tables (12-21 ms seen for 340 MiB): `prepareStart()` forks, ahead of time, a shell that waits for a
 * line on its stdin and then becomes the server, so a `start()` while a bench measures costs this
 * process one write. (Should this process exit first, the shell reads the end of its stdin and exits.)
 */
export async function startOwnRedis() {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  let child: ChildProcess | undefined;
  let prepared: ChildProcess | undefined;
  const redis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    prepareStart() {
      prepared ??= spawn('sh', ['-c', 'read go && exec redis-server "$@"', 'sh', ...args], { stdio: ['pipe', 'ignore', 'ignore'] });
    },
    async start() {
      if (prepared) {
        child = prepared;
        prepared = undefined;
        child.stdin!.end('go\n');
      } else child = spawn('redis-server', args, { stdio: 'ignore' });
      await until(`redis-server on ${port}`, () => accepts(port), 10_000);
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      child = undefined;
    },
  };
  await redis.start();
  return redis;
}
export type OwnRedis = Awaited<ReturnType<typeof startOwnRedis>>;

/** A database of its own on the server of `DATABASE_URL` (created here, dropped by `drop`). */
export async function createScratchDatabase(serverUrl: string) {
  const name = `autofin_scratch_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface ServiceProcess {
  base: string;
  pid: number;
  /** Milliseconds from spawning to the "Server listening" line. */
  startMs: number;
  output: () => string;
  /** Resident memory of the process, from /proc. */
  rssBytes: () => number;
  /** CPU time the process has used (user + system), from /proc. */
  cpuSeconds: () => number;
  /** SIGTERM and wait for the exit; resolves to the exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Starts the service (`dist/main.js`) with `env` (over a clean base: no inherited DATABASE_URL/REDIS_URL/keys) and
 * resolves once it listens. A data folder of its own is made unless `DATA_DIR` is given.
 */
export async function startServiceProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<ServiceProcess> {
  const port = await freePort();
  const ownDataDir = env.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'autofin-proc-'));
  const childEnv: Record<string, string | undefined> = { ...process.env };
  const inherited = ['DATABASE_URL', 'REDIS_URL', 'TOKEN_SIGNING_KEY', 'DATA_ENCRYPTION_KEY', 'LOG_LEVEL'];
  for (const name of [...inherited, 'TOKEN_SIGNING_PREVIOUS_KEYS', 'DATA_ENCRYPTION_PREVIOUS_KEYS']) delete childEnv[name];
  Object.assign(childEnv, { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: ownDataDir, ...env });
  const started = performance.now();
  const child = spawn(process.execPath, serviceArgs(), { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  try {
    await until(`the service on ${port}`, () => {
      if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${out}`);
      return out.includes(`Server listening at ${base}`);
    }, timeoutMs);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const startMs = performance.now() - started;
  return {
    base,
    pid: child.pid!,
    startMs,
    output: () => out,
    rssBytes: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    cpuSeconds: () => {
      // Fields 14 and 15 (utime, stime) in clock ticks of 1/100 s, after the command name in parentheses.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** A company, a credential and a bearer token through an instance's admin API. */
export async function newPartnerOn(
  base: string,
  adminToken: string,
): Promise<{ token: string; consumerKey: string; headers: Record<string, string> }> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const company = await post('/admin/companies', { name: 'Autos Procesos' });
  const credential = await post(`/admin/companies/${company.id}/credentials`, {});
  const res = await fetch(`${base}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credential) });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { access_token: string }).access_token;
  return { token, consumerKey: credential.consumer_key, headers: { authorization: `Bearer ${token}` } };
}
