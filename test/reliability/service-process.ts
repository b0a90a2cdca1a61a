/**
 * The service as a real process for the reliability tests: `node dist/main.js`, as `npm start` runs it, on a data
 * directory and, when the run is on PostgreSQL (DATABASE_URL), a database of its own created for the
 * test and dropped after it. Restarts reuse both, as one installation's life.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { serviceArgs } from '../service-entry.ts';

const root = new URL('../../', import.meta.url).pathname;
export const adminToken = 'reliability-admin-token-0123456789';
export const api = '/mx/b2b/autofin/api';
/** A cold start on a loaded 2-core machine (migrations, catalog import) can take a minute or more. */
const startTimeoutMs = 240_000;

export interface Instance {
  child: ChildProcess;
  port: number;
  base: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One installation: a data directory and, on PostgreSQL, a database; `drop` removes both. */
export async function installation(prefix: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `autofin-${prefix}-`));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `autofin_${prefix.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  const children: ChildProcess[] = [];
  return {
    dataDir,
    databaseUrl,
    /** Starts the service and waits until it listens; fails with its output if it exits first. */
    async start(env: Record<string, string> = {}): Promise<Instance> {
      const port = await freePort();
      const childEnv: Record<string, string | undefined> = {
        ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, AUTOFIN_ENV: 'sandbox',
        ADMIN_TOKEN: adminToken, LOG_LEVEL: 'info', ...env,
      };
      for (const name of ['REDIS_URL', 'TOKEN_SIGNING_KEY', 'DATA_ENCRYPTION_KEY']) if (!(name in env)) delete childEnv[name];
      if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
      else delete childEnv.DATABASE_URL;
      const child = spawn(process.execPath, serviceArgs(), { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let out = '';
      let err = '';
      child.stdout!.on('data', (chunk) => (out += chunk));
      child.stderr!.on('data', (chunk) => (err += chunk));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      );
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + startTimeoutMs;
      let ended = false;
      void exited.then(() => (ended = true));
      while (!out.includes(`Server listening at ${base}`)) {
        if (ended || Date.now() > deadline) assert.fail(`the service did not start:\n${out.slice(-3000)}\n${err.slice(-3000)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return { child, port, base, stdout: () => out, stderr: () => err, exited };
    },
    async drop() {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface PartnerAccess {
  credential: { consumer_key: string; consumer_secret: string };
  headers: Record<string, string>;
}

async function json(res: Response, expected: number, what: string) {
  const text = await res.text();
  assert.equal(res.status, expected, `${what}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A new company with a seller affiliate and a credential, through the admin API. */
export async function newPartner(base: string): Promise<PartnerAccess> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const company = await json(await fetch(`${base}/admin/companies`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Reliability' }) }), 201, 'company');
  await json(await fetch(`${base}/admin/companies/${company.id}/affiliates`, { method: 'POST', headers: admin, body: JSON.stringify({ user_type: 'SELLER' }) }), 201, 'affiliate');
  const credential = await json(await fetch(`${base}/admin/companies/${company.id}/credentials`, { method: 'POST', headers: admin }), 201, 'credential');
  return { credential, headers: await partnerHeaders(base, credential) };
}

export async function partnerHeaders(base: string, credential: PartnerAccess['credential']): Promise<Record<string, string>> {
  const token = await json(
    await fetch(`${base}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credential) }),
    200,
    'token',
  );
  return { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
}
