/**
 * `npm run bench -- tracing`: what OpenTelemetry tracing costs a request. One service in this process
 * on a migrated embedded database (or a fresh schema on DATABASE_URL), measured with tracing off, then
 * on (every request sampled, spans exported over OTLP/HTTP protobuf to a sink in a child process),
 * three times in turn, so a drift of the machine shows as a difference between rounds; the ratio is
 * of the medians. Two
 * requests: an authenticated catalog read and a lead write (POST /leads, with its outbox event).
 * Figures: requests per second (autocannon, 10 connections, in a worker thread) and the CPU time of
 * the service's thread per request, read from /proc. About a minute.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { loadTracing, type Tracing } from '../src/tracing/index.ts';
import { createTestDatabase } from '../test/test-templates.ts';
import { currentThreadCpuSeconds } from './cpu-accounting.ts';
import { measure, median } from './measure.ts';
import { benchConfig, containerFor, listen, partnerToken } from './service.ts';

const api = '/mx/b2b/autofin/api';
const seconds = Number(process.env.BENCH_TRACING_SECONDS ?? 3);
const logLevel = process.env.LOG_LEVEL ?? 'info';

interface Figures {
  rps: number;
  cpuMicros: number;
  non2xx: number;
}

/** An OTLP/HTTP sink that answers every export 200 and keeps nothing, in a process of its own. */
async function startSink(): Promise<{ endpoint: string; child: ChildProcess }> {
  const code = `const s = require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => r.end()); });
    s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { endpoint: `http://127.0.0.1:${String(chunk).trim()}`, child };
}

async function oneRound(tracing: Tracing | undefined, database: Awaited<ReturnType<typeof createTestDatabase>>) {
  const config = benchConfig();
  const container = await containerFor(config, database.db, tracing);
  await container.prepare();
  const { app, base } = await listen(container, logLevel, tracing);
  try {
    const headers = { authorization: `Bearer ${await partnerToken(app)}` };
    const requests = {
      'catalog read': { url: `${base}${api}/catalogs/zip-code/06700`, options: { headers } },
      'lead write': {
        url: `${base}${api}/leads`,
        options: { method: 'POST' as const, headers: { ...headers, 'content-type': 'application/json' }, body: '{}' },
      },
    };
    const figures: Record<string, Figures> = {};
    for (const [name, { url, options }] of Object.entries(requests)) {
      await measure(name, url, { ...options, durationSeconds: 1, warmupSeconds: 0 });
      const cpuBefore = currentThreadCpuSeconds() ?? 0;
      const m = await measure(name, url, { ...options, durationSeconds: seconds, warmupSeconds: 0 });
      const cpu = (currentThreadCpuSeconds() ?? 0) - cpuBefore;
      figures[name] = { rps: m.requestsPerSecond, cpuMicros: (cpu * 1e6) / Math.max(1, m.requests), non2xx: m.non2xx };
    }
    return figures;
  } finally {
    await app.close();
    await container.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}

export async function tracingOverhead(): Promise<void> {
  const database = await createTestDatabase();
  const sink = await startSink();
  console.log(
    `engine: ${database.db.engine}; ${seconds} s per request and round after 1 s of warm-up; every request sampled`,
  );
  const rounds: { tracing: boolean; figures: Record<string, Figures> }[] = [];
  try {
    for (const on of [false, true, false, true, false, true]) {
      const tracing = on ? await loadTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint }) : undefined;
      try {
        rounds.push({ tracing: on, figures: await oneRound(tracing, database) });
      } finally {
        await tracing?.shutdown();
      }
    }
  } finally {
    sink.child.kill();
    await database.drop();
  }
  const col = (s: string, w = 12) => s.padStart(w);
  console.log(`\n  ${'request'.padEnd(14)}${col('tracing')}${col('req/s')}${col('CPU µs/req')}${col('non-2xx')}`);
  for (const name of Object.keys(rounds[0].figures)) {
    for (const round of rounds) {
      const f = round.figures[name];
      console.log(
        `  ${name.padEnd(14)}${col(round.tracing ? 'on' : 'off')}${col(f.rps.toFixed(0))}${col(f.cpuMicros.toFixed(0))}${col(String(f.non2xx))}`,
      );
    }
    const medianOf = (on: boolean, key: keyof Figures) =>
      median(rounds.filter((r) => r.tracing === on).map((r) => r.figures[name][key]));
    const ratio = medianOf(true, 'rps') / medianOf(false, 'rps');
    const extra = medianOf(true, 'cpuMicros') - medianOf(false, 'cpuMicros');
    console.log(
      `  ${name.padEnd(14)}  on / off throughput ${ratio.toFixed(2)}, CPU ${extra >= 0 ? '+' : ''}${extra.toFixed(0)} µs per request`,
    );
  }
}
