/**
 * The lead write path section of `npm run bench`: leads created and filled (create + six sections)
 * per second on the embedded database and on PostgreSQL, next to pgbench's single-row insert rate
 * on the same PostgreSQL at the same concurrency, measured in the same run.
 */
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { median } from './measure.ts';
import { cpuPerRequest, cpuSnapshot, type CpuSnapshot } from './cpu-accounting.ts';
import type { Container } from '../src/composition.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { measureLeadWrites, pgbenchInsertRate, type WriteResult } from './lead-writes.ts';
import { benchConfig, containerFor, listen, partnerToken } from './service.ts';

export const writeConcurrency = 8;
const writeSeconds = 4;
const targetRatio = 0.35;
const defaultPostgres = 'postgres://postgres@127.0.0.1:5432/test';

interface Target {
  app: FastifyInstance;
  container: Container;
  base: string;
  token: string;
}

function row(label: string, r: WriteResult) {
  const n = (v: number) => Math.round(v).toLocaleString('en').padStart(9);
  console.log(`  ${label.padEnd(34)}${n(r.leadsPerSecond)}${n(r.requestsPerSecond)}${r.p99Ms.toFixed(1).padStart(9)}${String(r.errors).padStart(8)}`);
}

/** A second service on a fresh schema of PostgreSQL, unless the load already runs there. */
async function onPostgres(url: string, logLevel: string): Promise<{ target: Target; close(): Promise<void> }> {
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  const database = await createTestDatabase().finally(() => {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  });
  const container = await containerFor(benchConfig(), database.db);
  await container.prepare();
  const { app, base } = await listen(container, logLevel);
  const token = await partnerToken(app);
  return {
    target: { app, container, base, token },
    async close() {
      await app.close();
      await container.close();
      await database.drop();
    },
  };
}

const rounds = 3;

function cpuLines(service: CpuSnapshot | undefined, pgbenchBusy: number | undefined, cores: number) {
  if (!service) return;
  const us = (v: number) => `${Math.round(v).toLocaleString('en')} µs`;
  console.log(`  CPU per request on PostgreSQL (this machine's ${cores} cores, from /proc):`);
  console.log(`    ${'service thread'.padEnd(32)}${us(service.mainThread).padStart(10)}`);
  console.log(`    ${'load generator, GC, I/O threads'.padEnd(32)}${us(service.otherThreads).padStart(10)}`);
  console.log(`    ${'PostgreSQL processes'.padEnd(32)}${us(service.postgres).padStart(10)}`);
  console.log(`    ${'machine busy in all'.padEnd(32)}${us(service.machineBusy).padStart(10)}  (host steal ${us(service.steal)})`);
  if (pgbenchBusy !== undefined) console.log(`    ${'machine busy per pgbench insert'.padEnd(32)}${us(pgbenchBusy).padStart(10)}`);
  const rest = service.machineBusy - service.mainThread;
  if (rest > 0) {
    const ceiling = (cores * 1e6) / rest;
    console.log(`    with a service thread costing nothing, the rest would fill the cores at ≈ ${Math.round(ceiling).toLocaleString('en')} req/s`);
  }
}

export async function leadWritePath(ctx: Target, logLevel: string): Promise<void> {
  console.log(`\nlead write path: ${writeConcurrency} concurrent partners, each creating a lead and saving its six sections (7 requests)`);
  console.log(`  ${rounds} rounds of ${writeSeconds} s on PostgreSQL, each followed by pgbench for ${writeSeconds} s; medians`);
  console.log(`  ${'engine'.padEnd(34)}${'leads/s'.padStart(9)}${'req/s'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}`);
  const url = process.env.DATABASE_URL ?? defaultPostgres;
  let postgres: Awaited<ReturnType<typeof onPostgres>> | undefined;
  let target: Target = ctx;
  if (ctx.container.db.engine === 'pglite') {
    await measureLeadWrites(ctx.base, ctx.token, writeConcurrency, 1);
    row('embedded (PGlite)', await measureLeadWrites(ctx.base, ctx.token, writeConcurrency, writeSeconds));
    try {
      postgres = await onPostgres(url, logLevel);
    } catch (error) {
      console.log(`  PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} unreachable: ${(error as Error).message}`);
      return;
    }
    target = postgres.target;
  }
  try {
    await measureLeadWrites(target.base, target.token, writeConcurrency, 1);
    const results: WriteResult[] = [];
    const rates: number[] = [];
    let serviceCpu: CpuSnapshot | undefined;
    let pgbenchBusy = 0;
    for (let i = 0; i < rounds; i++) {
      const before = cpuSnapshot();
      const result = await measureLeadWrites(target.base, target.token, writeConcurrency, writeSeconds);
      const after = cpuSnapshot();
      results.push(result);
      if (before && after) serviceCpu = addCpu(serviceCpu, cpuPerRequest(before, after, result.requests), rounds);
      const beforeBench = cpuSnapshot();
      const tps = pgbenchInsertRate(url, writeConcurrency, writeSeconds);
      const afterBench = cpuSnapshot();
      if (tps === undefined) continue;
      rates.push(tps);
      if (beforeBench && afterBench) pgbenchBusy += cpuPerRequest(beforeBench, afterBench, tps * writeSeconds).machineBusy / rounds;
    }
    const pg = medianResult(results);
    row('PostgreSQL', pg);
    if (rates.length === 0) {
      console.log('  pgbench unavailable: no reference rate');
      cpuLines(serviceCpu, undefined, os.cpus().length);
      return;
    }
    const tps = median(rates);
    console.log(`  ${'pgbench single-row inserts'.padEnd(34)}${Math.round(tps).toLocaleString('en').padStart(18)} tps, ${writeConcurrency} clients`);
    const ratios = results.map((r, i) => r.requestsPerSecond / rates[i]);
    const ratio = median(ratios);
    const each = ratios.map((r) => r.toFixed(2)).join(', ');
    console.log(`  ${'ratio requests / pgbench inserts'.padEnd(34)}${ratio.toFixed(2).padStart(18)}  ${ratio >= targetRatio ? 'meets' : 'below'} the target ${targetRatio} (rounds: ${each})`);
    cpuLines(serviceCpu, rates.length === rounds ? pgbenchBusy : undefined, os.cpus().length);
  } finally {
    await postgres?.close();
  }
}

/** The round with the median request rate. */
function medianResult(results: WriteResult[]): WriteResult {
  const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return { ...sorted[Math.floor(sorted.length / 2)], errors: results.reduce((n, r) => n + r.errors, 0) };
}

/** Running mean of per-request CPU over the rounds. */
function addCpu(sum: CpuSnapshot | undefined, next: CpuSnapshot, rounds: number): CpuSnapshot {
  const base = sum ?? { mainThread: 0, otherThreads: 0, postgres: 0, machineBusy: 0, steal: 0 };
  return {
    mainThread: base.mainThread + next.mainThread / rounds,
    otherThreads: base.otherThreads + next.otherThreads / rounds,
    postgres: base.postgres + next.postgres / rounds,
    machineBusy: base.machineBusy + next.machineBusy / rounds,
    steal: base.steal + next.steal / rounds,
  };
}
