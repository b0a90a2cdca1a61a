/**
 * The lead write path across two service processes on PostgreSQL with Redis (`npm run bench --
 * production`, or `production writes` alone): 8 partners, 4 on each instance, creating and filling
 * leads (7 requests a lead), against the write path's reference (write-reference.ts: a bare Fastify
 * route per request running the statements the service runs for it, with none of its work) and
 * pgbench's single-row insert rate, all on the same scratch database, in 3 alternating rounds of 4 s.
 *
 * The statements are recorded from a service built in this process on that database, from the same
 * sources as the instances; the reference then runs as two processes (write-reference-process.ts),
 * 4 partners on each, so that both sides pay for the same shape: two processes on this machine's cores.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processCpuSeconds } from './cpu-accounting.ts';
import { measureLeadWrites, pgbenchInsertRate, type WriteResult } from './lead-writes.ts';
import { median } from './measure.ts';
import { benchConfig, containerFor, listen, partnerToken } from './service.ts';
import { recordWritePath, serializeRecorded } from './write-reference.ts';
import { openDatabase } from '../src/db/open-database.ts';
import type { ServiceProcess } from '../test/processes/index.ts';

const partners = 8;
const rounds = 3;
const seconds = 4;
const target = 0.7;

/** The runs of one round, one per instance, as one: rates summed, the worst p99, errors summed. */
function combined(runs: WriteResult[]): WriteResult {
  const sum = (pick: (r: WriteResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
  return {
    leads: sum((r) => r.leads),
    requests: sum((r) => r.requests),
    seconds: Math.max(...runs.map((r) => r.seconds)),
    leadsPerSecond: sum((r) => r.leadsPerSecond),
    requestsPerSecond: sum((r) => r.requestsPerSecond),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    errors: sum((r) => r.errors),
  };
}

/** The statements of one lead's requests, recorded from a service built in this process on the database. */
async function recordOn(databaseUrl: string) {
  const config = benchConfig();
  const db = await openDatabase({ databaseUrl, dataDir: config.dataDir });
  const container = await containerFor(config, db);
  try {
    await container.prepare();
    const { app } = await listen(container, 'info');
    try {
      const token = await partnerToken(app);
      const { companyId } = await container.auth.authenticate(`Bearer ${token}`);
      return { token, companyId, recorded: await recordWritePath(app, db, token) };
    } finally {
      await app.close();
    }
  } finally {
    await container.close();
    await db.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}

interface ReferenceProcess {
  base: string;
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** One reference process (write-reference-process.ts) on the database, resolved once it listens. */
function startReferenceProcess(file: string, companyId: string, databaseUrl: string): Promise<ReferenceProcess> {
  const script = new URL('./write-reference-process.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script, file, companyId], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the write reference exited (${code}) before listening`)));
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const base = /listening (\S+)\n/.exec(out)?.[1];
      if (!base) return;
      resolve({
        base,
        cpuSeconds: () => processCpuSeconds(child.pid!),
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/** The reference as two processes, like the instances, replaying the statements recorded here. */
async function referenceOn(databaseUrl: string) {
  const { token, companyId, recorded } = await recordOn(databaseUrl);
  const dir = mkdtempSync(join(tmpdir(), 'autofin-bench-reference-'));
  const file = join(dir, 'recorded.bin');
  writeFileSync(file, serializeRecorded(recorded));
  try {
    const processes = await Promise.all([1, 2].map(() => startReferenceProcess(file, companyId, databaseUrl)));
    return {
      processes,
      token,
      async close() {
        await Promise.all(processes.map((p) => p.stop()));
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function writesAcross(instances: ServiceProcess[], tokens: string[], databaseUrl: string): Promise<void> {
  const each = partners / instances.length;
  const reference = await referenceOn(databaseUrl);
  const service: WriteResult[] = [];
  const referenceRuns: WriteResult[] = [];
  const serviceCpu: number[] = [];
  const referenceCpu: number[] = [];
  const tps: number[] = [];
  /** One run over both processes of a side: the results as one, and their CPU per request in µs. */
  const across = async (side: { base: string; cpuSeconds(): number }[], sideTokens: string[], duration: number) => {
    const cpuBefore = side.map((p) => p.cpuSeconds());
    const runs = await Promise.all(side.map((p, k) => measureLeadWrites(p.base, sideTokens[k], each, duration)));
    const run = combined(runs);
    const cpu = side.reduce((sum, p, k) => sum + p.cpuSeconds() - cpuBefore[k], 0);
    return { run, cpuMicros: (cpu * 1e6) / Math.max(1, run.requests) };
  };
  const referenceTokens = reference.processes.map(() => reference.token);
  try {
    // Warm-up: the first requests of a kind compile its answers and plans.
    await across(instances, tokens, 1);
    await across(reference.processes, referenceTokens, 1);
    for (let round = 0; round < rounds; round++) {
      const ours = await across(instances, tokens, seconds);
      service.push(ours.run);
      serviceCpu.push(ours.cpuMicros);
      const theirs = await across(reference.processes, referenceTokens, seconds);
      referenceRuns.push(theirs.run);
      referenceCpu.push(theirs.cpuMicros);
      const rate = pgbenchInsertRate(databaseUrl, partners, seconds);
      if (rate !== undefined) tps.push(rate);
    }
  } finally {
    await reference.close();
  }
  report(service, referenceRuns, serviceCpu, referenceCpu, tps);
}

function report(
  service: WriteResult[],
  reference: WriteResult[],
  serviceCpu: number[],
  referenceCpu: number[],
  tps: number[],
) {
  const n = (v: number) => Math.round(v).toLocaleString('en').padStart(9);
  const row = (label: string, runs: WriteResult[]) => {
    const rate = median(runs.map((r) => r.requestsPerSecond));
    const errors = runs.reduce((total, r) => total + r.errors, 0);
    console.log(
      `  ${label.padEnd(36)}${n(median(runs.map((r) => r.leadsPerSecond)))}${n(rate)}` +
        `${median(runs.map((r) => r.p99Ms))
          .toFixed(1)
          .padStart(9)}${String(errors).padStart(8)}`,
    );
  };
  console.log(
    `\nlead write path across both instances: ${partners} partners (${partners / 2} on each), each creating a lead and saving its six sections (7 requests)`,
  );
  console.log(
    `  against the reference: a bare Fastify route per request running the service's statements (write-reference.ts),`,
  );
  console.log(`  as two processes with ${partners / 2} partners on each;`);
  console.log(`  ${rounds} alternating rounds of ${seconds} s (the instances, the reference, pgbench), medians`);
  console.log(
    `  ${''.padEnd(36)}${'leads/s'.padStart(9)}${'req/s'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}`,
  );
  row('two instances (PostgreSQL + Redis)', service);
  row('the reference (two processes)', reference);
  const ratios = service.map((r, i) => r.requestsPerSecond / reference[i].requestsPerSecond);
  const ratio = median(ratios);
  console.log(
    `  ${'ratio service / reference'.padEnd(36)}${ratio.toFixed(2).padStart(18)}  ${ratio >= target ? 'meets' : 'below'} the target ${target} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
  );
  console.log(
    `  CPU per request: service ${median(serviceCpu).toFixed(0)} µs (both processes), reference ${median(referenceCpu).toFixed(0)} µs (both processes)`,
  );
  if (tps.length === 0) {
    console.log('  pgbench unavailable: no database rate');
    return;
  }
  const pgbench = median(tps);
  const ofPgbench = service.slice(0, tps.length).map((r, i) => r.requestsPerSecond / tps[i]);
  console.log(
    `  pgbench single-row inserts ${Math.round(pgbench).toLocaleString('en')} tps, ${partners} clients; requests / pgbench inserts ` +
      `${median(ofPgbench).toFixed(2)} (the database's own rate, no target)`,
  );
}
