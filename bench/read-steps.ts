/**
 * `npm run bench -- read-steps`: where an authenticated catalog read spends the service's CPU, step by
 * step. The service is built in this process (embedded engine, or a fresh schema on DATABASE_URL) and
 * listens; `wrk -t1 -c50` (pinned to core 1, this process to core 0) reads the brands of 2020 and the
 * ZIP code 06700 while a V8 CPU profile of the main thread runs (bench/cpu-profile.ts). Each sample's
 * self time goes to the step whose code it is in (the table below, by source file); native code counts
 * for the script that called it. Printed: µs of CPU per request by step, scaled to the thread's CPU
 * time from /proc, and the share of each; beside each read, the same for a bare Fastify route in this
 * process answering its recorded bytes (bare-server.ts): what any Fastify answer costs here.
 */
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { promisify } from 'node:util';
import { rmSync } from 'node:fs';
import { createTestDatabase } from '../test/test-templates.ts';
import { recordAnswer, startBareServer } from './bare-server.ts';
import { kindsOf, profileMainThread, type CpuBreakdown, type Kinds } from './cpu-profile.ts';
import { benchConfig, containerFor, listen, partnerToken } from './service.ts';

const run = promisify(execFile);
const api = '/mx/b2b/autofin/api';
const seconds = Number(process.env.BENCH_READ_SECONDS ?? 5);
const logLevel = process.env.LOG_LEVEL ?? 'info';

/** The steps of a read, first match wins, by the URL of the script a sample is in. */
const steps: Kinds = [
  ['token check (HMAC of the bearer token)', (u) => /src\/auth\/access-token|node:internal\/crypto/.test(u)],
  ['credential status (cache, auth service)', (u) => /src\/auth\/(credential-status-cache|auth\.service)/.test(u)],
  ['rate limit', (u) => /src\/http\/(rate-limiter|shared-rate-limiter|partner-guard)/.test(u)],
  ['metrics (prom-client labels, histogram)', (u) => /prom-client|src\/operations\//.test(u)],
  [
    'request id, security headers, lifecycle',
    (u) => /src\/http\/(request-lifecycle|request-id|connection-policy|call-context)/.test(u),
  ],
  ['access log line (pino)', (u) => /pino|sonic-boom|src\/http\/lazy-request-logger|src\/shared\/logging/.test(u)],
  ['catalog answer (lookup, Accept, ETag)', (u) => /src\/catalogs\//.test(u)],
  ['database (credential status reads)', (u) => /node_modules\/(pg|pg-[a-z]+|@electric-sql)\/|src\/db\//.test(u)],
  ['other service code', (u) => /\/src\//.test(u)],
  ['Fastify (routing, hooks, reply)', (u) => /fastify|find-my-way|avvio|light-my-request/.test(u)],
  [
    'Node HTTP and sockets',
    (u) => /node:_http|node:internal\/(http|stream|net|streams)|node:net|node:stream|_http_/.test(u),
  ],
  [
    'promises, timers, async context',
    (u) => /node:internal\/(async_hooks|process\/task_queues|timers|promise)|node:async_hooks|node:timers/.test(u),
  ],
  ['garbage collector', (_u, f) => f === '(garbage collector)'],
  ['V8 outside any script (program)', (_u, f) => f === '(program)'],
  ['idle', (_u, f) => f === '(idle)'],
];

async function wrk(url: string, token: string, duration: number): Promise<number> {
  const { stdout } = await run('taskset', [
    '-c',
    '1',
    'wrk',
    '-t1',
    '-c50',
    `-d${duration}s`,
    '-H',
    `authorization: Bearer ${token}`,
    url,
  ]);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  if (non2xx > 0) throw new Error(`${url}: ${non2xx} answers other than 2xx`);
  return Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
}

export async function readSteps(): Promise<void> {
  if (cpus().length < 2) throw new Error('read-steps pins this process to core 0 and wrk to core 1: it needs 2 cores');
  await run('taskset', ['-a', '-p', '-c', '0', String(process.pid)]);
  const database = await createTestDatabase();
  const config = benchConfig();
  const container = await containerFor(config, database.db);
  await container.prepare();
  const { app, base } = await listen(container, logLevel);
  try {
    const token = await partnerToken(app);
    const reads = [
      { name: 'brands of 2020', path: `${api}/catalogs/years/2020/brands`, bare: '/brands' },
      { name: 'ZIP code 06700', path: `${api}/catalogs/zip-code/06700`, bare: '/zip' },
    ];
    const recorded = [];
    for (const r of reads) {
      const answer = await app.inject({ method: 'GET', url: r.path, headers: { authorization: `Bearer ${token}` } });
      recorded.push(recordAnswer(r.bare, answer));
    }
    const bare = await startBareServer(recorded);
    const cases = reads.flatMap((r) => [
      { name: r.name, url: `${base}${r.path}` },
      { name: `bare, ${r.name.split(' ')[0]}`, url: `${bare.base}${r.bare}` },
    ]);
    const breakdowns: CpuBreakdown[] = [];
    try {
      for (const c of cases) {
        await wrk(c.url, token, 1); // warm-up: JIT, connections, the answer's first render
        const { breakdown } = await profileMainThread(
          () => wrk(c.url, token, seconds),
          (requests) => requests,
          steps,
        );
        breakdowns.push(breakdown);
      }
    } finally {
      await bare.app.close();
    }
    console.log(
      `engine ${database.db.engine}, log level ${logLevel}; wrk -t1 -c50 for ${seconds} s per read, ` +
        'CPU µs of the main thread per request by step (share):',
    );
    console.log(`  ${'step'.padEnd(44)}${cases.map((c) => c.name.padStart(18)).join('')}`);
    for (const step of kindsOf(breakdowns, steps)) {
      const cells = breakdowns.map((b) => {
        const micros = b.perRequest.get(step) ?? 0;
        return `${micros.toFixed(1)} (${Math.round((100 * micros) / b.totalMicros)} %)`.padStart(18);
      });
      console.log(`  ${step.padEnd(44)}${cells.join('')}`);
    }
    console.log(`  ${'total'.padEnd(44)}${breakdowns.map((b) => b.totalMicros.toFixed(1).padStart(18)).join('')}`);
  } finally {
    await app.close();
    await container.close();
    await database.drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}
