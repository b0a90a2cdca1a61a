/**
 * `npm run bench -- reads`: authenticated catalog reads (brands of 2020, ZIP code 06700) measured
 * from outside with `wrk`, a compiled load generator that does not saturate before the server.
 * The service (a process as `npm start` runs it) and its reference (bare-process.ts: a bare Fastify
 * route, logger off, answering the recorded bytes of the same request) are each pinned to core 0
 * with `taskset`, wrk to core 1; rounds alternate service, bare, service, bare… Each ratio is the
 * median of the rounds' req/s ratios; beside it the CPU microseconds per request of each side (the
 * whole process, every thread, from /proc). Two shapes: the embedded engine, and DATABASE_URL (a
 * scratch database on that server, default the local test server) + a Redis of the bench's own.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createScratchDatabase,
  newPartnerOn,
  startOwnRedis,
  startServiceProcess,
  type ServiceProcess,
} from '../test/processes/index.ts';
import { processCpuSeconds } from './cpu-accounting.ts';
import { median } from './measure.ts';

const api = '/mx/b2b/autofin/api';
const adminToken = randomBytes(16).toString('hex');
const rounds = Number(process.env.BENCH_READ_ROUNDS ?? 3);
const roundSeconds = Number(process.env.BENCH_READ_SECONDS ?? 3);
const connections = 50;
// Targets of the issue: at least 0.75 of the bare route, CPU per request at most 1.35 times its.
const target = { ratio: 0.75, cpu: 1.35 };
const cases = [
  { name: 'GET brands of 2020', path: `${api}/catalogs/years/2020/brands`, bare: '/brands' },
  { name: 'GET zip-code 06700', path: `${api}/catalogs/zip-code/06700`, bare: '/zip' },
];

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  return true;
}

const pin = (pid: number, core: number) =>
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });

/** One wrk run on core 1: requests, req/s and the server's CPU µs per request. */
function wrkRun(url: string, token: string, pid: number, seconds: number) {
  const before = processCpuSeconds(pid);
  const out = execFileSync(
    'taskset',
    ['-c', '1', 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '-H', `authorization: Bearer ${token}`, url],
    { encoding: 'utf8' },
  );
  const cpu = processCpuSeconds(pid) - before;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: (.*)/.exec(out)?.[1];
  return {
    requests,
    non2xx,
    errors,
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    cpuMicros: (cpu * 1e6) / Math.max(1, requests),
  };
}

async function startBare(answers: object[]): Promise<{ base: string; pid: number; child: ChildProcess }> {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-bare-'));
  const file = join(dir, 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-process.ts', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`bare process exited ${code}`)));
  });
  rmSync(dir, { recursive: true, force: true });
  return { base, pid: child.pid!, child };
}

async function readsOf(label: string, service: ServiceProcess): Promise<void> {
  const { token, headers } = await newPartnerOn(service.base, adminToken);
  const answers = [];
  for (const c of cases) {
    const res = await fetch(`${service.base}${c.path}`, { headers });
    if (res.status !== 200) throw new Error(`${c.path}: ${res.status} ${await res.text()}`);
    const kept = Object.fromEntries(
      [...res.headers].filter(
        ([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name),
      ),
    );
    answers.push({
      path: c.bare,
      status: res.status,
      headers: kept,
      body: Buffer.from(await res.arrayBuffer()).toString('base64'),
    });
  }
  const bare = await startBare(answers);
  try {
    pin(service.pid, 0);
    pin(bare.pid, 0);
    for (const c of cases) {
      const serviceUrl = `${service.base}${c.path}`;
      const bareUrl = `${bare.base}${c.bare}`;
      // Warm-up of both (JIT, connections), not counted.
      wrkRun(serviceUrl, token, service.pid, 1);
      wrkRun(bareUrl, token, bare.pid, 1);
      const runs = [];
      for (let round = 0; round < rounds; round++) {
        const s = wrkRun(serviceUrl, token, service.pid, roundSeconds);
        const b = wrkRun(bareUrl, token, bare.pid, roundSeconds);
        runs.push({ s, b, ratio: s.rate / b.rate });
      }
      const ratio = median(runs.map((r) => r.ratio));
      const sCpu = median(runs.map((r) => r.s.cpuMicros));
      const bCpu = median(runs.map((r) => r.b.cpuMicros));
      const bad = runs.reduce((sum, r) => sum + r.s.non2xx + r.b.non2xx, 0);
      const errors = runs.flatMap((r) => [r.s.errors, r.b.errors]).filter(Boolean);
      const verdict = ratio >= target.ratio && sCpu / bCpu <= target.cpu ? 'meets' : 'misses';
      console.log(
        `  ${`${label}, ${c.name}`.padEnd(48)}${Math.round(median(runs.map((r) => r.s.rate)))
          .toLocaleString('en')
          .padStart(9)}` +
          `${Math.round(median(runs.map((r) => r.b.rate)))
            .toLocaleString('en')
            .padStart(9)}${ratio.toFixed(2).padStart(7)}` +
          `${sCpu.toFixed(0).padStart(8)}${bCpu.toFixed(0).padStart(7)}${(sCpu / bCpu).toFixed(2).padStart(7)}  ${verdict}` +
          `  (rounds ${runs.map((r) => r.ratio.toFixed(2)).join(', ')}${bad ? `; non-2xx ${bad}` : ''}${errors.length ? `; socket errors ${errors[0]}` : ''})`,
      );
    }
  } finally {
    bare.child.kill('SIGTERM');
  }
}

export async function readsWithWrk(): Promise<void> {
  if (!hasWrk()) {
    console.log(
      'wrk is not installed: on Debian or Ubuntu `apt-get install -y wrk` (https://github.com/wg/wrk elsewhere)',
    );
    process.exitCode = 1;
    return;
  }
  if (cpus().length < 2)
    throw new Error('the reads bench pins the servers to core 0 and wrk to core 1: it needs 2 cores');
  const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const common = {
    AUTOFIN_ENV: 'bench',
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    RATE_LIMIT_PER_MINUTE: '10000000',
    TOKEN_SIGNING_KEY: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  console.log(
    `catalog reads with wrk -t1 -c${connections} (core 1) against one service process and a bare Fastify process ` +
      `(both on core 0), ${rounds} alternating rounds of ${roundSeconds} s after a 1 s warm-up each, medians; ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log(
    `  ${'shape, request'.padEnd(48)}${'req/s'.padStart(9)}${'bare'.padStart(9)}${'ratio'.padStart(7)}` +
      `${'µs/req'.padStart(8)}${'bare'.padStart(7)}${'×'.padStart(7)}  target ratio ≥ ${target.ratio}, CPU ≤ ${target.cpu}×`,
  );
  const embedded = await startServiceProcess(common, { timeoutMs: 240_000 });
  try {
    await readsOf('embedded', embedded);
  } finally {
    await embedded.stop();
  }
  const database = await createScratchDatabase(serverUrl);
  const redis = await startOwnRedis();
  let shared: ServiceProcess | undefined;
  try {
    const env = { ...common, DATABASE_URL: database.url, REDIS_URL: redis.url };
    shared = await startServiceProcess(env, { timeoutMs: 240_000 });
    await readsOf('DATABASE_URL + REDIS_URL', shared);
  } finally {
    await shared?.stop();
    await redis.stop();
    await database.drop();
  }
  console.log('  µs/req: CPU time of the whole process (every thread) per request, from /proc; × = service / bare');
}
