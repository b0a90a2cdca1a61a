/**
 * `npm run bench -- reads`: authenticated catalog reads (brands of 2020, ZIP code 06700) measured
 * from outside with `wrk`, a compiled load generator that does not saturate before the server.
 * The service (a process as `npm start` runs it) and its reference (bare-process.ts, run by Node
 * without tsx: a bare Fastify route, logger off, answering the recorded bytes of the same request,
 * checked before the rounds) are each pinned to core 0 with `taskset`, wrk to core 1; rounds
 * alternate service, bare, service, bare… Each ratio is the median of the rounds' req/s ratios;
 * beside it the CPU microseconds per request of each side (the whole process, every thread, from
 * /proc), and under it the CPU wrk itself used in each round, as a share of core 1 (near 100 %, wrk
 * rather than the server may set the rate). Three shapes
 * (`BENCH_READ_SHAPES`, default `embedded,postgres,two`): the embedded engine; DATABASE_URL (a
 * scratch database on that server, default the local test server) + a Redis of the bench's own; and
 * two service processes on that same database and Redis, with the same partner token, against two
 * bare processes, all four on core 0: each round runs two wrk at once on core 1 (`-t1`, half the
 * connections each), one per process; its rate is their sum, its CPU per request both processes'
 * CPU over both wrk's requests.
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
import { endedChildrenCpuSeconds, processCpuSeconds } from './cpu-accounting.ts';
import { median } from './measure.ts';

const api = '/mx/b2b/autofin/api';
const adminToken = randomBytes(16).toString('hex');
const rounds = Number(process.env.BENCH_READ_ROUNDS ?? 5);
const roundSeconds = Number(process.env.BENCH_READ_SECONDS ?? 3);
/**
 * Each side's load before a case's rounds, not counted. A process started a moment ago uses about 60 %
 * more CPU a read in its first seconds under load (V8 still compiling its code on helper threads), and
 * the second instance of the two-instance shape is such a process.
 */
const warmupSeconds = Number(process.env.BENCH_READ_WARMUP_SECONDS ?? 3);
/** wrk's connections in all, shared out evenly when a side is two processes. */
const connections = 50;
// Targets of the issue: at least 0.75 of the bare route, CPU per request at most 1.35 times its.
const target = { ratio: 0.75, cpu: 1.35 };
/** wrk's own CPU, as a share of core 1, from which the rates may be wrk's rather than the server's. */
const wrkBusy = 0.9;
const cases = [
  { name: 'GET brands of 2020', path: `${api}/catalogs/years/2020/brands`, bare: '/brands' },
  { name: 'GET zip-code 06700', path: `${api}/catalogs/zip-code/06700`, bare: '/zip' },
];
const allShapes = ['embedded', 'postgres', 'two'] as const;
type Shape = (typeof allShapes)[number];
const labelWidth = 58;

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  return true;
}

/** The shapes `BENCH_READ_SHAPES` names (comma-separated), every one when unset. */
function chosenShapes(): Shape[] {
  const names = (process.env.BENCH_READ_SHAPES ?? allShapes.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(allShapes as readonly string[]).includes(name));
  if (unknown.length || !names.length)
    throw new Error(`BENCH_READ_SHAPES: ${unknown.join(', ') || 'none'}; the shapes are ${allShapes.join(', ')}`);
  return allShapes.filter((shape) => names.includes(shape));
}

const pin = (pid: number, core: number) =>
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });

/** One wrk process on core 1 (`taskset` execs it, so it is the child itself); answers its output. */
function wrk(url: string, token: string, connectionCount: number, seconds: number): Promise<string> {
  const args = ['-c', '1', 'wrk', '-t1', `-c${connectionCount}`, `-d${seconds}s`];
  const child = spawn('taskset', [...args, '-H', `authorization: Bearer ${token}`, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited ${code}: ${out}`))));
  });
}

interface Target {
  url: string;
  pid: number;
}

interface Round {
  requests: number;
  non2xx: number;
  errors: string[];
  /** req/s, summed over the side's processes. */
  rate: number;
  /** CPU µs of the side's processes, summed, per request of the side. */
  cpuMicros: number;
  /** CPU of the round's wrk processes, summed, over the round's wall time: the share of core 1 they used. */
  wrkShare: number;
}

/**
 * One round against a side (one process or more): a wrk per process, all at once, on core 1, the
 * connections shared out evenly. wrk's CPU is read from this process's ended children once they exit.
 */
async function wrkRound(side: Target[], token: string, seconds: number): Promise<Round> {
  const before = side.map((t) => processCpuSeconds(t.pid));
  const wrkBefore = endedChildrenCpuSeconds();
  const started = performance.now();
  const outs = await Promise.all(side.map((t) => wrk(t.url, token, connections / side.length, seconds)));
  const wall = (performance.now() - started) / 1000;
  const wrkCpu = endedChildrenCpuSeconds() - wrkBefore;
  const cpu = side.reduce((sum, t, i) => sum + processCpuSeconds(t.pid) - before[i], 0);
  const sum = (pattern: RegExp) => outs.reduce((total, out) => total + Number(pattern.exec(out)?.[1] ?? 0), 0);
  const requests = sum(/(\d+) requests in/);
  return {
    requests,
    non2xx: sum(/Non-2xx or 3xx responses: (\d+)/),
    errors: outs.map((out) => /Socket errors: (.*)/.exec(out)?.[1]).filter((e): e is string => !!e),
    rate: outs.reduce((total, out) => total + Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0), 0),
    cpuMicros: (cpu * 1e6) / Math.max(1, requests),
    wrkShare: wrkCpu / wall,
  };
}

async function startBare(answers: Recorded[]): Promise<{ base: string; pid: number; child: ChildProcess }> {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-bare-'));
  const file = join(dir, 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  // Node strips the file's types itself: no loader runs in the process (tsx costs a bare read about 4 µs).
  const child = spawn(process.execPath, ['bench/bare-process.ts', file], {
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

/** SIGTERM and wait for the exit, so that the process is reaped before any later round reads its children's CPU. */
async function stopBare(bare: { child: ChildProcess }): Promise<void> {
  if (bare.child.exitCode !== null || bare.child.signalCode !== null) return;
  const exited = new Promise((resolve) => bare.child.once('exit', resolve));
  bare.child.kill('SIGTERM');
  await exited;
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

interface Recorded {
  path: string;
  status: number;
  /** The headers the service's route sent, sorted by name. */
  headers: Record<string, string>;
  /** Base64. */
  body: string;
}

/** Headers Node writes itself for every answer: not part of what a route sends. */
const writtenByNode = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];

/** An answer's status, the headers its route sent (sorted) and its body, as fetched. */
async function answerOf(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  const sent = [...res.headers].filter(([name]) => !writtenByNode.includes(name)).sort();
  return { status: res.status, headers: Object.fromEntries(sent), body: Buffer.from(await res.arrayBuffer()) };
}

/** Fails unless the bare process answers each case's path with the recorded status, headers and bytes. */
async function checkBare(base: string, headers: Record<string, string>, answers: Recorded[]): Promise<void> {
  for (const recorded of answers) {
    const answer = await answerOf(`${base}${recorded.path}`, headers);
    const same =
      answer.status === recorded.status &&
      JSON.stringify(answer.headers) === JSON.stringify(recorded.headers) &&
      answer.body.equals(Buffer.from(recorded.body, 'base64'));
    if (!same) throw new Error(`the bare process's ${recorded.path} is not the service's recorded answer`);
  }
}

/**
 * The shape's table line per case: the service processes (one, or several on the same database with
 * the same token) against as many bare processes answering the first one's recorded bytes.
 */
async function readsOf(label: string, services: ServiceProcess[]): Promise<void> {
  const { token, headers } = await newPartnerOn(services[0].base, adminToken);
  const answers: Recorded[] = [];
  for (const c of cases) {
    const answer = await answerOf(`${services[0].base}${c.path}`, headers);
    if (answer.status !== 200) throw new Error(`${c.path}: ${answer.status} ${answer.body.toString()}`);
    // Every instance answers the token with the same bytes, so one recording is every bare process's.
    for (const other of services.slice(1)) {
      const again = await answerOf(`${other.base}${c.path}`, headers);
      if (again.status !== 200 || !again.body.equals(answer.body))
        throw new Error(`${c.path} on ${other.base}: ${again.status}, not the first instance's answer`);
    }
    answers.push({
      path: c.bare,
      status: answer.status,
      headers: answer.headers,
      body: answer.body.toString('base64'),
    });
  }
  const bares = [];
  try {
    for (let i = 0; i < services.length; i++) bares.push(await startBare(answers));
    for (const bare of bares) await checkBare(bare.base, headers, answers);
    for (const server of [...services, ...bares]) pin(server.pid, 0);
    for (const c of cases) {
      const serviceSide = services.map((s) => ({ url: `${s.base}${c.path}`, pid: s.pid }));
      const bareSide = bares.map((b) => ({ url: `${b.base}${c.bare}`, pid: b.pid }));
      // Warm-up of both (JIT, connections), not counted.
      await wrkRound(serviceSide, token, warmupSeconds);
      await wrkRound(bareSide, token, warmupSeconds);
      const runs = [];
      for (let round = 0; round < rounds; round++) {
        const s = await wrkRound(serviceSide, token, roundSeconds);
        const b = await wrkRound(bareSide, token, roundSeconds);
        runs.push({ s, b, ratio: s.rate / b.rate });
      }
      const ratio = median(runs.map((r) => r.ratio));
      const sCpu = median(runs.map((r) => r.s.cpuMicros));
      const bCpu = median(runs.map((r) => r.b.cpuMicros));
      const bad = runs.reduce((sum, r) => sum + r.s.non2xx + r.b.non2xx, 0);
      const errors = runs.flatMap((r) => [...r.s.errors, ...r.b.errors]);
      const verdict = ratio >= target.ratio && sCpu / bCpu <= target.cpu ? 'meets' : 'misses';
      console.log(
        `  ${`${label}, ${c.name}`.padEnd(labelWidth)}${Math.round(median(runs.map((r) => r.s.rate)))
          .toLocaleString('en')
          .padStart(9)}` +
          `${Math.round(median(runs.map((r) => r.b.rate)))
            .toLocaleString('en')
            .padStart(9)}${ratio.toFixed(2).padStart(7)}` +
          `${sCpu.toFixed(0).padStart(8)}${bCpu.toFixed(0).padStart(7)}${(sCpu / bCpu).toFixed(2).padStart(7)}  ${verdict}` +
          `  (rounds ${runs.map((r) => r.ratio.toFixed(2)).join(', ')}${bad ? `; non-2xx ${bad}` : ''}${errors.length ? `; socket errors ${errors[0]}` : ''})`,
      );
      const busiest = Math.max(...runs.flatMap((r) => [r.s.wrkShare, r.b.wrkShare]));
      console.log(
        `  ${''.padEnd(labelWidth)}wrk on core 1, service / bare by round: ` +
          runs.map((r) => `${percent(r.s.wrkShare)} / ${percent(r.b.wrkShare)}`).join(', ') +
          (busiest >= wrkBusy
            ? `  — near 100 % of core 1 (${percent(busiest)}): wrk may be the bottleneck, the rates may be its own`
            : ''),
      );
    }
  } finally {
    await Promise.all(bares.map(stopBare));
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
  const shapes = chosenShapes();
  const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const common = {
    AUTOFIN_ENV: 'bench',
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    RATE_LIMIT_PER_MINUTE: '10000000',
    TOKEN_SIGNING_KEY: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  const half = connections / 2;
  // Ready once /health/ready answers: the catalogs loaded, not only the port open.
  const settled = { timeoutMs: 240_000, ready: 'health' } as const;
  console.log(
    `catalog reads with wrk -t1 -c${connections} (core 1) against one service process and a bare Fastify process ` +
      `(both on core 0)` +
      (shapes.includes('two')
        ? `, and with two wrk -t1 -c${half} at once (core 1) against two service processes and two bare processes ` +
          `(all on core 0)`
        : '') +
      `; ${rounds} alternating rounds of ${roundSeconds} s after a ${warmupSeconds} s warm-up each, medians; ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log(
    `  ${'shape, request'.padEnd(labelWidth)}${'req/s'.padStart(9)}${'bare'.padStart(9)}${'ratio'.padStart(7)}` +
      `${'µs/req'.padStart(8)}${'bare'.padStart(7)}${'×'.padStart(7)}  target ratio ≥ ${target.ratio}, CPU ≤ ${target.cpu}×`,
  );
  if (shapes.includes('embedded')) {
    const embedded = await startServiceProcess(common, settled);
    try {
      await readsOf('embedded', [embedded]);
    } finally {
      await embedded.stop();
    }
  }
  if (shapes.includes('postgres') || shapes.includes('two')) {
    const database = await createScratchDatabase(serverUrl);
    const redis = await startOwnRedis();
    const running: ServiceProcess[] = [];
    try {
      const env = { ...common, DATABASE_URL: database.url, REDIS_URL: redis.url };
      // A first start migrates the scratch database and imports the catalogs, as once in production;
      // the measured instances start on it as every later start does. Measured straight after an
      // import, a process is still collecting the import's garbage (tens of MB) in its first seconds.
      await (await startServiceProcess(env, settled)).stop();
      running.push(await startServiceProcess(env, settled));
      if (shapes.includes('postgres')) await readsOf('DATABASE_URL + REDIS_URL', running);
      if (shapes.includes('two')) {
        running.push(await startServiceProcess(env, settled));
        await readsOf('two instances, DATABASE_URL + REDIS_URL', running);
      }
    } finally {
      await Promise.all(running.map((r) => r.stop()));
      await redis.stop();
      await database.drop();
    }
  }
  console.log(
    '  µs/req: CPU time of the whole processes (every thread) per request, from /proc, two instances: both ' +
      'processes over both wrk; × = service / bare',
  );
  console.log(
    `  req/s of two instances: both wrk's summed; wrk on core 1: the wrk processes' own CPU (summed) over the ` +
      `round's time, ${percent(wrkBusy)} or more marked`,
  );
}
