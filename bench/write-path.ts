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

/** Mean CPU per request of each part over the rounds, in microseconds. */
interface CpuShare {
  service: number;
  serviceHelpers: number;
  generator: number;
  postgres: number;
  machine: number;
  steal: number;
}

function cpuShare(cpu: CpuSnapshot, result: WriteResult): CpuShare | undefined {
  if (result.generatorCpuSeconds === undefined) return undefined;
  const generator = (result.generatorCpuSeconds * 1e6) / Math.max(1, result.requests);
  return {
    service: cpu.mainThread,
    serviceHelpers: Math.max(0, cpu.otherThreads - generator),
    generator,
    postgres: cpu.postgres,
    machine: cpu.machineBusy,
    steal: cpu.steal,
  };
}

function meanShare(shares: CpuShare[]): CpuShare {
  const mean = (key: keyof CpuShare) => shares.reduce((sum, x) => sum + x[key], 0) / shares.length;
  return { service: mean('service'), serviceHelpers: mean('serviceHelpers'), generator: mean('generator'), postgres: mean('postgres'), machine: mean('machine'), steal: mean('steal') };
}

function cpuLines(shares: CpuShare[], pgbenchBusy: number | undefined, cores: number, tps: number | undefined) {
  if (shares.length === 0) return;
  const cpu = meanShare(shares);
  const us = (v: number) => `${Math.round(v).toLocaleString('en')} µs`;
  const line = (label: string, value: number, note = '') => console.log(`    ${label.padEnd(34)}${us(value).padStart(10)}  ${note}`);
  console.log(`  CPU per request on PostgreSQL (this machine's ${cores} cores, from /proc, mean of the rounds):`);
  line('service thread', cpu.service);
  line("service's GC and I/O threads", cpu.serviceHelpers);
  line('load generator thread', cpu.generator);
  line('PostgreSQL processes', cpu.postgres);
  line('machine busy in all', cpu.machine, `(kernel work included; host steal ${us(cpu.steal)})`);
  if (pgbenchBusy !== undefined) line('machine busy per pgbench insert', pgbenchBusy, '(pgbench client included)');
  // Everything a service does not cost: the database, the generator and the kernel's share.
  const rest = cpu.machine - cpu.service - cpu.serviceHelpers;
  if (rest > 0) {
    const ceiling = (cores * 1e6) / rest;
    const ofPgbench = tps ? `, ${(ceiling / tps).toFixed(2)} of pgbench's rate` : '';
    console.log(`    a service costing nothing would leave the rest to fill the cores at ≈ ${Math.round(ceiling).toLocaleString('en')} req/s${ofPgbench}`);
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
    const shares: CpuShare[] = [];
    let pgbenchBusy = 0;
    for (let i = 0; i < rounds; i++) {
      const before = cpuSnapshot();
      const result = await measureLeadWrites(target.base, target.token, writeConcurrency, writeSeconds);
      const after = cpuSnapshot();
      results.push(result);
      const share = before && after ? cpuShare(cpuPerRequest(before, after, result.requests), result) : undefined;
      if (share) shares.push(share);
      const beforeBench = cpuSnapshot();
      const tps = pgbenchInsertRate(url, writeConcurrency, writeSeconds);
      const afterBench = cpuSnapshot();
      if (tps === undefined) continue;
      rates.push(tps);
      if (beforeBench && afterBench) {
        pgbenchBusy += cpuPerRequest(beforeBench, afterBench, tps * writeSeconds).machineBusy / rounds;
      }
    }
    const pg = medianResult(results);
    row('PostgreSQL', pg);
    if (rates.length === 0) {
      console.log('  pgbench unavailable: no reference rate');
      cpuLines(shares, undefined, os.cpus().length, undefined);
      return;
    }
    const tps = median(rates);
    console.log(`  ${'pgbench single-row inserts'.padEnd(34)}${Math.round(tps).toLocaleString('en').padStart(18)} tps, ${writeConcurrency} clients`);
    const ratios = results.map((r, i) => r.requestsPerSecond / rates[i]);
    const ratio = median(ratios);
    const each = ratios.map((r) => r.toFixed(2)).join(', ');
    console.log(`  ${'ratio requests / pgbench inserts'.padEnd(34)}${ratio.toFixed(2).padStart(18)}  ${ratio >= targetRatio ? 'meets' : 'below'} the target ${targetRatio} (rounds: ${each})`);
    cpuLines(shares, rates.length === rounds ? pgbenchBusy : undefined, os.cpus().length, tps);
  } finally {
    await postgres?.close();
  }
}

/** The round with the median request rate. */
function medianResult(results: WriteResult[]): WriteResult {
  const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return { ...sorted[Math.floor(sorted.length / 2)], errors: results.reduce((n, r) => n + r.errors, 0) };
}
