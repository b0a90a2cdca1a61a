/**
 * Whole-process tests: the real `node dist/main.js`, as `npm start` runs it, its own DATA_DIR and ports, the
 * embedded engine always (DATABASE_URL is removed from the child's environment: main has no
 * schema option, and these tests are about the embedded default). One DATA_DIR is reused across
 * the steps, in order, as one instance's life: first start, second process refused, graceful
 * stop, restart, crash and restart.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/open-database.ts';
import { passwordMatches } from '../../src/operators/password-hash.ts';
import { spawnServiceProcess, startServiceProcess, type SpawnedService } from '../processes/index.ts';

const adminToken = 'e2e-admin-token-0123456789abcdef';
const startTimeoutMs = 180_000;

const spawned: SpawnedService[] = [];

// Debug lines include "request received", which tells a request in flight has reached the service.
const envOn = (dataDir: string) => ({
  DATA_DIR: dataDir,
  AUTOFIN_ENV: 'sandbox',
  ADMIN_TOKEN: adminToken,
  LOG_LEVEL: 'debug',
});

/** Spawns the service on `dataDir` without waiting. */
async function spawnService(dataDir: string): Promise<SpawnedService> {
  const instance = await spawnServiceProcess(envOn(dataDir));
  spawned.push(instance);
  return instance;
}

/** Waits for the "Server listening" log line; fails with the child's output if it exits first. */
async function startService(dataDir: string): Promise<SpawnedService> {
  const instance = await startServiceProcess(envOn(dataDir), { timeoutMs: startTimeoutMs });
  spawned.push(instance);
  return instance;
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The console URL, e-mail and password of the sandbox's demo operator, as the first start's banner prints them. */
function demoOperator(stderr: string): { console: string; email: string; password: string } | undefined {
  const url = /Operator console:\s+(\S+)/.exec(stderr)?.[1];
  const email = /e-mail:\s+(\S+)/.exec(stderr)?.[1];
  const password = /password:\s+(\S+)/.exec(stderr)?.[1];
  return url && email && password ? { console: url, email, password } : undefined;
}

function sandboxCredentials(stderr: string): { consumer_key: string; consumer_secret: string } | undefined {
  const key = /consumer_key:\s+(ck_\S+)/.exec(stderr)?.[1];
  const secret = /consumer_secret:\s+(cs_\S+)/.exec(stderr)?.[1];
  return key && secret ? { consumer_key: key, consumer_secret: secret } : undefined;
}

async function partnerToken(base: string, credential: object): Promise<string> {
  const res = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-version': 'v1' },
    body: JSON.stringify(credential),
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.access_token;
}

async function zip06700(base: string, token: string): Promise<{ status: number; body: { neighborhoods?: string[] } }> {
  const res = await fetch(`${base}/mx/b2b/autofin/api/catalogs/zip-code/06700`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: await res.json() };
}

const admin = (base: string, path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
  });

/**
 * A token request whose body arrives in two parts: the request is in flight on the server
 * (headers read, body incomplete) until `finish` sends the rest; it answers the raw response once
 * complete. The socket stays as the client left it (`connection` header), and is returned.
 */
async function slowTokenRequest(
  port: number,
  credential: object,
  connection: 'close' | 'keep-alive',
  requestId: string,
) {
  const body = JSON.stringify(credential);
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let response = '';
  const complete = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => {
      response += chunk;
      const [head, content = ''] = response.split('\r\n\r\n', 2);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? Infinity);
      if (Buffer.byteLength(content) >= length) resolve(response);
    });
  });
  socket.write(
    `POST /auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: ${connection}\r\nX-Request-Id: ${requestId}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  );
  return {
    socket,
    finish: () => {
      socket.write(body.slice(10));
      return complete;
    },
  };
}

describe('the service as a process on one data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'autofin-e2e-'));
  let first: SpawnedService;
  let credential: { consumer_key: string; consumer_secret: string };
  let companyId: string;
  let recovered: SpawnedService;

  before(async () => {
    first = await startService(dataDir);
  });
  after(async () => {
    await Promise.all(spawned.map((instance) => instance.kill()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a first sandbox start prints demo credentials that get a token and read the ZIP catalog', async () => {
    credential = sandboxCredentials(first.stderr())!;
    assert.ok(credential, `no credentials in stderr:\n${first.stderr()}`);
    const token = await partnerToken(first.base, credential);
    const zip = await zip06700(first.base, token);
    assert.equal(zip.status, 200, JSON.stringify(zip.body));
    assert.ok(zip.body.neighborhoods?.includes('Roma Norte'));
  });

  test('a first sandbox start prints the console URL, e-mail and password of a demo admin operator', async () => {
    const demo = demoOperator(first.stderr());
    assert.ok(demo, `no demo operator in stderr:\n${first.stderr()}`);
    assert.equal(demo.console, `${first.base}/console`);
    assert.equal(demo.email, 'operador@demo.autofin.test');
    assert.match(demo.password, /^[A-Za-z0-9_-]{20,}$/);
    assert.ok(!first.stdout().includes(demo.password), 'the password is never in the log');
    const operators = (await (await admin(first.base, '/admin/operators')).json()).items;
    assert.deepEqual(
      operators.map((o: { name: string; role: string; email: string }) => [o.name, o.role, o.email]),
      [['Operador demo', 'admin', demo.email]],
    );
  });

  test("the banner's curl lines, run as printed by a shell, set $TOKEN and read the ZIP catalog", () => {
    const lines = first.stderr().split('\n');
    const start = lines.findIndex((line) => line.trim().startsWith('TOKEN=$(curl'));
    assert.ok(start >= 0, `no TOKEN line in the banner:\n${first.stderr()}`);
    const script = lines.slice(start, start + 4).join('\n');
    const out = execFileSync('bash', ['-c', script], { encoding: 'utf8', timeout: 30_000 });
    assert.match(out, /Roma Norte/, `${script}\n=> ${out}`);
  });

  test('a first start says what it is doing: it copies the prepared database, which holds the shipped catalogs', async () => {
    // Lines are written a few KiB at a time (src/shared/logging.ts): those after `Server listening` may
    // still be on their way when the service answers ready.
    await waitFor('the catalogs to be loaded', () => first.stdout().includes('catalogs loaded'));
    const out = first.stdout();
    const steps = [
      'first start: copying the prepared database',
      'database copied and migrated',
      'Server listening',
      'catalogs loaded',
    ];
    const positions = steps.map((step) => out.indexOf(step));
    for (const [i, step] of steps.entries()) assert.ok(positions[i] >= 0, `"${step}" missing from:\n${out}`);
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
      `steps out of order:\n${out}`,
    );
    // The build imported them: nothing is parsed nor imported by the start.
    assert.doesNotMatch(out, /importing a shipped catalog|creating the embedded database/);
  });

  test('a second process on the same data directory exits non-zero saying it is in use; the first keeps serving', async () => {
    const second = await spawnService(dataDir);
    const { code } = await second.exited;
    assert.notEqual(code, 0);
    assert.match(second.stderr(), /data directory .* is in use by another autofin process \(pid \d+\)/);
    assert.doesNotMatch(second.stderr(), /consumer_secret/);
    const ready = await fetch(`${first.base}/health/ready`);
    assert.equal(ready.status, 200);
    const zip = await zip06700(first.base, await partnerToken(first.base, credential));
    assert.equal(zip.status, 200);
  });

  test('SIGTERM lets a request in flight complete, then the process exits 0 and frees the directory', async () => {
    const pending = await slowTokenRequest(first.port, credential, 'close', 'e2e-in-flight');
    await waitFor('the request to start', () => first.stdout().includes('"requestId":"e2e-in-flight"'));
    first.child.kill('SIGTERM');
    await waitFor('the stop to begin', () => first.stdout().includes('stopping: finishing requests in flight'));
    const response = await pending.finish();
    assert.match(response, /^HTTP\/1\.1 200 /, response);
    assert.match(response, /"access_token":"/);
    assert.equal((await first.exited).code, 0, first.stderr());
    assert.match(first.stdout(), /"msg":"stopped"/);
    assert.ok(!existsSync(join(dataDir, 'autofin.lock')), 'the lock file is released');
  });

  test("with the service stopped, the demo operator's printed password verifies against the stored hash", async () => {
    const demo = demoOperator(first.stderr())!;
    const db = await openDatabase({ dataDir });
    try {
      const { rows } = await db.query<{ password_hash: string }>(
        'select password_hash from operators where email = $1',
        [demo.email],
      );
      assert.equal(rows.length, 1);
      assert.ok(await passwordMatches(demo.password, rows[0].password_hash));
    } finally {
      await db.close();
    }
  });

  test('a restart prints no credentials and the first ones still work', async () => {
    const restarted = await startService(dataDir);
    assert.equal(sandboxCredentials(restarted.stderr()), undefined, restarted.stderr());
    assert.equal(demoOperator(restarted.stderr()), undefined, restarted.stderr());
    assert.doesNotMatch(restarted.stdout(), /first start|importing a shipped catalog/);
    const zip = await zip06700(restarted.base, await partnerToken(restarted.base, credential));
    assert.equal(zip.status, 200);

    const created = await admin(restarted.base, '/admin/companies', {
      method: 'POST',
      body: JSON.stringify({ name: 'Survives kill -9' }),
    });
    assert.equal(created.status, 201);
    companyId = (await created.json()).id;
    // Crash right after the acknowledgement: no graceful stop, the lock file stays behind.
    await restarted.kill('SIGKILL');
    assert.equal(readFileSync(join(dataDir, 'autofin.lock'), 'utf8').trim(), String(restarted.pid));
  });

  test('after kill -9 a start takes over the stale lock and the acknowledged company is still there', async () => {
    recovered = await startService(dataDir);
    const list = await admin(recovered.base, '/admin/companies');
    const names = (await list.json()).items.map((c: { id: string; name: string }) => `${c.id} ${c.name}`);
    assert.ok(names.includes(`${companyId} Survives kill -9`), names.join('\n'));
    assert.equal(sandboxCredentials(recovered.stderr()), undefined);
    await partnerToken(recovered.base, credential);
  });

  // Fastify answers a request that was in flight at SIGTERM with `Connection: keep-alive`; the stop
  // must not then wait for that client to hang up or for keepAliveTimeout (72 s by default).
  test('SIGTERM does not wait for a keep-alive client that was served during the stop', async () => {
    const pending = await slowTokenRequest(recovered.port, credential, 'keep-alive', 'e2e-keep-alive');
    await waitFor('the request to start', () => recovered.stdout().includes('"requestId":"e2e-keep-alive"'));
    recovered.child.kill('SIGTERM');
    await waitFor('the stop to begin', () => recovered.stdout().includes('stopping: finishing requests in flight'));
    assert.match(await pending.finish(), /^HTTP\/1\.1 200 /);
    const exit = await Promise.race([
      recovered.exited.then((e) => e.code),
      new Promise((resolve) => setTimeout(() => resolve('still running'), 5000)),
    ]);
    pending.socket.destroy();
    assert.equal(exit, 0, 'the process exits within 5 s of the last answer');
  });
});
