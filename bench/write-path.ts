/**
 * The lead write path section of `npm run bench`: leads created and filled (create + six sections)
 * per second on the embedded database and on PostgreSQL, next to pgbench's single-row insert rate
 * on the same PostgreSQL at the same concurrency, and next to a reference server running the same
 * SQL statements without the service's work (write-reference.ts), measured in the same run.
 */
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { median } from './measure.ts';
import { cpuPerRequest, cpuSnapshot, type CpuSnapshot } from './cpu-accounting.ts';
import type { Container } from '../src/composition.ts';
import { createTestDatabase } from '../test/test-templates.ts';
import { measureLeadWrites, pgbenchInsertRate, type WriteResult } from './lead-writes.ts';
import { benchConfig, containerFor, listen, partnerToken } from './service.ts';
import { describeStatements, recordWritePath, startWriteReference, type RecordedRequest } from './write-reference.ts';
import type { Db } from '../src/db/database.ts';
import { kindsOf, profileMainThread } from './cpu-profile.ts';

export const writeConcurrency = 8;
const writeSeconds = 4;
const referenceTarget = 0.7;
const embeddedSeconds = 3;
const defaultPostgres = 'postgres://postgres@127.0.0.1:5432/test';

interface Target {
  app: FastifyInstance;
  container: Container;
  base: string;
  token: string;
}

function row(label: string, r: WriteResult) {
  const n = (v: number) => Math.round(v).toLocaleString('en').padStart(9);
  console.log(
    `  ${label.padEnd(34)}${n(r.leadsPerSecond)}${n(r.requestsPerSecond)}${r.p99Ms.toFixed(1).padStart(9)}${String(r.errors).padStart(8)}`,
  );
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
  return {
    service: mean('service'),
    serviceHelpers: mean('serviceHelpers'),
    generator: mean('generator'),
    postgres: mean('postgres'),
    machine: mean('machine'),
    steal: mean('steal'),
  };
}

function cpuLines(
  engine: string,
  shares: CpuShare[],
  pgbenchBusy: number | undefined,
  cores: number,
  tps: number | undefined,
) {
  if (shares.length === 0) return;
  const cpu = meanShare(shares);
  const us = (v: number) => `${Math.round(v).toLocaleString('en')} µs`;
  const line = (label: string, value: number, note = '') =>
    console.log(`    ${label.padEnd(34)}${us(value).padStart(10)}  ${note}`);
  console.log(
    `  CPU per request of the service on ${engine} (this machine's ${cores} cores, from /proc, mean of the rounds):`,
  );
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
    console.log(
      `    a service costing nothing would leave the rest to fill the cores at ≈ ${Math.round(ceiling).toLocaleString('en')} req/s${ofPgbench}`,
    );
  }
}

/** The service and its reference in alternating rounds on one database; pgbench after each pair when asked. */
async function againstReference(target: Target, engine: string, pgbenchUrl: string | undefined, seconds: number) {
  const recorded = await recordWritePath(target.app, target.container.db, target.token);
  const { companyId } = await target.container.auth.authenticate(`Bearer ${target.token}`);
  const reference = await startWriteReference(target.container.db, companyId, recorded);
  try {
    await measureLeadWrites(target.base, target.token, writeConcurrency, 1);
    await measureLeadWrites(reference.base, target.token, writeConcurrency, 1);
    const results: WriteResult[] = [];
    const referenceResults: WriteResult[] = [];
    const rates: number[] = [];
    const shares: CpuShare[] = [];
    const referenceThread: number[] = [];
    let pgbenchBusy = 0;
    for (let i = 0; i < rounds; i++) {
      const before = cpuSnapshot();
      const result = await measureLeadWrites(target.base, target.token, writeConcurrency, seconds);
      const after = cpuSnapshot();
      results.push(result);
      const share = before && after ? cpuShare(cpuPerRequest(before, after, result.requests), result) : undefined;
      if (share) shares.push(share);
      const beforeReference = cpuSnapshot();
      const referenceResult = await measureLeadWrites(reference.base, target.token, writeConcurrency, seconds);
      const afterReference = cpuSnapshot();
      referenceResults.push(referenceResult);
      if (beforeReference && afterReference) {
        referenceThread.push(cpuPerRequest(beforeReference, afterReference, referenceResult.requests).mainThread);
      }
      if (!pgbenchUrl) continue;
      const beforeBench = cpuSnapshot();
      const tps = pgbenchInsertRate(pgbenchUrl, writeConcurrency, seconds);
      const afterBench = cpuSnapshot();
      if (tps === undefined) continue;
      rates.push(tps);
      if (beforeBench && afterBench) {
        pgbenchBusy += cpuPerRequest(beforeBench, afterBench, tps * seconds).machineBusy / rounds;
      }
    }
    row(`${engine}, the service`, medianResult(results));
    row(`${engine}, the reference`, medianResult(referenceResults));
    const ratios = results.map((r, i) => r.requestsPerSecond / referenceResults[i].requestsPerSecond);
    const ratio = median(ratios);
    const each = ratios.map((r) => r.toFixed(2)).join(', ');
    console.log(
      `  ${'ratio service / reference'.padEnd(34)}${ratio.toFixed(2).padStart(18)}  ${ratio >= referenceTarget ? 'meets' : 'below'} the target ${referenceTarget} (rounds: ${each})`,
    );
    // The reference's main thread at full pace: the base of the CPU target here and of what it leaves below.
    const referenceMean =
      referenceThread.length > 0 ? referenceThread.reduce((a, b) => a + b, 0) / referenceThread.length : undefined;
    if (shares.length > 0 && referenceMean !== undefined) {
      const serviceThread = shares.reduce((sum, x) => sum + x.service, 0) / shares.length;
      cpuRatioLine('main thread CPU per request', serviceThread, referenceMean);
      const rate = Math.round(
        equalRateShare *
          Math.min(medianResult(results).requestsPerSecond, medianResult(referenceResults).requestsPerSecond),
      );
      await atOneRate(target, reference.base, seconds, rate);
    }
    if (pgbenchUrl) pgbenchLines(results, rates, shares, pgbenchBusy);
    else cpuLines(engine, shares, undefined, os.cpus().length, undefined);
    if (engine === 'PostgreSQL') {
      await cpuBreakdown(target, reference.base, seconds);
      await ownWork(target, reference.base, recorded, seconds, referenceMean);
    }
    return recorded;
  } finally {
    await reference.app.close();
  }
}

/** The CPU comparison's target: the service's main thread at most this many times the reference's. */
const cpuTarget = 1.3;
/** The shared rate of the equal-rate rounds, as a share of the slower side's full pace. */
const equalRateShare = 0.8;

function cpuRatioLine(label: string, service: number, reference: number, note = '') {
  const ratio = service / reference;
  console.log(
    `  ${label.padEnd(34)}${`${Math.round(service)} µs`.padStart(18)}  service; reference ${Math.round(reference)} µs: ${ratio.toFixed(2)}×, ${ratio <= cpuTarget ? 'meets' : 'above'} the target ${cpuTarget}×${note}`,
  );
}

/** Alternating rounds of the service and the reference at one offered rate: main-thread CPU per request of each. */
async function alternateAtRate(target: Target, referenceBase: string, seconds: number, rate: number) {
  const service: number[] = [];
  const reference: number[] = [];
  let errors = 0;
  for (let i = 0; i < rounds; i++) {
    for (const [base, out] of [
      [target.base, service],
      [referenceBase, reference],
    ] as const) {
      const before = cpuSnapshot();
      const result = await measureLeadWrites(base, target.token, writeConcurrency, seconds, rate);
      const after = cpuSnapshot();
      errors += result.errors;
      if (before && after) out.push(cpuPerRequest(before, after, result.requests).mainThread);
    }
  }
  return { service, reference, errors };
}

/**
 * The same comparison at one offered rate for both sides (autocannon's overall rate), below either's
 * full pace. At full pace each side sets its own, and what a send to PostgreSQL or to the client costs
 * the thread depends on how long the other end slept; at one rate both sides meet the same pace.
 */
async function atOneRate(target: Target, referenceBase: string, seconds: number, rate: number) {
  const { service, reference, errors } = await alternateAtRate(target, referenceBase, seconds, rate);
  if (service.length === 0 || reference.length === 0) return;
  const each = service.map((x, i) => (x / reference[i]).toFixed(2)).join(', ');
  cpuRatioLine(
    `the same at ${rate.toLocaleString('en')} req/s both`,
    median(service),
    median(reference),
    ` (rounds: ${each})${errors ? `, ${errors} errors` : ''}`,
  );
}

function pgbenchLines(results: WriteResult[], rates: number[], shares: CpuShare[], pgbenchBusy: number) {
  if (rates.length === 0) {
    console.log('  pgbench unavailable: no reference rate');
    cpuLines('PostgreSQL', shares, undefined, os.cpus().length, undefined);
    return;
  }
  const tps = median(rates);
  console.log(
    `  ${'pgbench single-row inserts'.padEnd(34)}${Math.round(tps).toLocaleString('en').padStart(18)} tps, ${writeConcurrency} clients`,
  );
  const ratios = results.slice(0, rates.length).map((r, i) => r.requestsPerSecond / rates[i]);
  const ratio = median(ratios);
  const each = ratios.map((r) => r.toFixed(2)).join(', ');
  // The database's own rate, for scale: the target is the ratio to the reference above, which runs the
  // same statements; the line below shows what this machine leaves to any service measured this way.
  console.log(
    `  ${'ratio requests / pgbench inserts'.padEnd(34)}${ratio.toFixed(2).padStart(18)}  no target (rounds: ${each})`,
  );
  cpuLines('PostgreSQL', shares, rates.length === rounds ? pgbenchBusy : undefined, os.cpus().length, tps);
}

/** One more round of each, profiled: the main thread's CPU per request by kind of work. */
async function cpuBreakdown(target: Target, referenceBase: string, seconds: number, rate?: number) {
  const requests = (r: WriteResult) => r.requests;
  const load = (base: string) => () => measureLeadWrites(base, target.token, writeConcurrency, seconds, rate);
  const service = await profileMainThread(load(target.base), requests);
  const reference = await profileMainThread(load(referenceBase), requests);
  console.log(
    `  main thread CPU per request by kind of work (V8 profile of one more round each${rate ? ` at ${rate.toLocaleString('en')} req/s` : ''}; µs):`,
  );
  console.log(
    `    ${'kind'.padEnd(40)}${'service'.padStart(9)}${'reference'.padStart(11)}${'difference'.padStart(12)}`,
  );
  for (const kind of kindsOf([service.breakdown, reference.breakdown])) {
    const a = service.breakdown.perRequest.get(kind) ?? 0;
    const b = reference.breakdown.perRequest.get(kind) ?? 0;
    console.log(
      `    ${kind.padEnd(40)}${a.toFixed(0).padStart(9)}${b.toFixed(0).padStart(11)}${(a - b).toFixed(0).padStart(12)}`,
    );
  }
  const a = service.breakdown.totalMicros;
  const b = reference.breakdown.totalMicros;
  console.log(
    `    ${'total'.padEnd(40)}${a.toFixed(0).padStart(9)}${b.toFixed(0).padStart(11)}${(a - b).toFixed(0).padStart(12)}`,
  );
}

/**
 * The service's own work on the write path: the same comparison with the statements of the lead
 * writes answered at once by a stand-in for the database (the saved lead's status), so that neither
 * the database nor the wake-ups of its backends take part. The two sides share that stand-in, the
 * HTTP client and the rate; what still separates them is the service's work alone.
 */
async function ownWork(
  target: Target,
  referenceBase: string,
  recorded: RecordedRequest[],
  seconds: number,
  referenceAtPace: number | undefined,
) {
  // Found by length and compared, not hashed: the service builds its texts anew for each request.
  const texts = new Map<number, string[]>();
  for (const r of recorded) {
    for (const step of r.steps)
      if ('sql' in step) texts.set(step.sql.length, [...(texts.get(step.sql.length) ?? []), step.sql]);
  }
  const recordedText = (sql: string) => texts.get(sql.length)?.some((text) => text === sql) ?? false;
  const db = target.container.db as { -readonly [K in keyof Db]: Db[K] };
  const query = db.query;
  const answer = { rows: [{ status: 'IN_PROGRESS' }], rowCount: 1 };
  db.query = ((sql: string, params?: unknown[]) =>
    recordedText(sql) ? Promise.resolve(answer) : query(sql, params)) as Db['query'];
  try {
    const pace = await measureLeadWrites(target.base, target.token, writeConcurrency, 1);
    const rate = Math.round(equalRateShare * pace.requestsPerSecond);
    const { service, reference, errors } = await alternateAtRate(target, referenceBase, seconds, rate);
    console.log(
      `  the service's own work: the statements above answered at once in the process, ${rate.toLocaleString('en')} req/s both, ${rounds} alternating rounds${errors ? ` (${errors} errors)` : ''}`,
    );
    if (service.length > 0 && reference.length > 0) {
      const own = median(service.map((x, i) => x - reference[i]));
      cpuRatioLine(
        'main thread CPU per request',
        median(service),
        median(reference),
        `; the service's own ${Math.round(own)} µs`,
      );
      if (referenceAtPace !== undefined) budgetLine(referenceAtPace, own);
    }
    await cpuBreakdown(target, referenceBase, seconds, rate);
  } finally {
    db.query = query;
  }
}

/**
 * What the target leaves the service: at most `cpuTarget` times the reference's main thread at full pace,
 * so all the service does beyond the reference must fit in the rest. Its own work alone is measured with
 * the statements answered in the process; at full pace the service has added more than that in every
 * run so far (docs/performance.md, "The lead write path").
 */
function budgetLine(referenceAtPace: number, own: number) {
  const budget = (cpuTarget - 1) * referenceAtPace;
  console.log(
    `  ${'what the target leaves'.padEnd(34)}${`${Math.round(budget)} µs`.padStart(18)}  beyond the reference's ${Math.round(referenceAtPace)} µs at full pace; the service's own work alone ${Math.round(own)} µs: ${own <= budget ? 'fits' : 'does not fit'}`,
  );
}

export async function leadWritePath(ctx: Target, logLevel: string): Promise<void> {
  console.log(
    `\nlead write path: ${writeConcurrency} concurrent partners, each creating a lead and saving its six sections (7 requests)`,
  );
  console.log(
    `  against a reference: a bare Fastify route per request running the service's own SQL statements (write-reference.ts)`,
  );
  console.log(
    `  ${rounds} alternating rounds (service, reference, then pgbench on PostgreSQL), ${embeddedSeconds} s each embedded, ${writeSeconds} s on PostgreSQL; medians`,
  );
  console.log(
    `  ${'engine'.padEnd(34)}${'leads/s'.padStart(9)}${'req/s'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}`,
  );
  const url = process.env.DATABASE_URL || defaultPostgres;
  let postgres: Awaited<ReturnType<typeof onPostgres>> | undefined;
  let target: Target = ctx;
  if (ctx.container.db.engine === 'pglite') {
    await againstReference(ctx, 'PGlite', undefined, embeddedSeconds);
    try {
      postgres = await onPostgres(url, logLevel);
    } catch (error) {
      console.log(`  PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} unreachable: ${(error as Error).message}`);
      return;
    }
    target = postgres.target;
  }
  try {
    const recorded = await againstReference(target, 'PostgreSQL', url, writeSeconds);
    console.log('  the statements of one lead, as the service ran them and the reference runs them:');
    for (const text of describeStatements(recorded)) console.log(`    ${text}`);
  } finally {
    await postgres?.close();
  }
}

/** The round with the median request rate. */
function medianResult(results: WriteResult[]): WriteResult {
  const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return { ...sorted[Math.floor(sorted.length / 2)], errors: results.reduce((n, r) => n + r.errors, 0) };
}
