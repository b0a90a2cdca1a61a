/**
 * `npm run bench -- lead-list`: the partner's `GET /leads` and the operators' `GET /admin/leads`
 * (first page, and a page deep in the list) for one company holding 1k, 10k and 100k leads, seeded
 * through the leads repository (copies of a lead created through the API, each with its own id and
 * creation time). On PostgreSQL (DATABASE_URL, default the local test server; a fresh schema),
 * through one listening service in this process. Each page is measured twice:
 *   - at saturation (autocannon, 5 connections): the rate, and latencies that are mostly queueing;
 *   - at fixed moderate rates (constant-rate.ts in a worker thread, 50 and 200 req/s): the latency of
 *     the page itself, and the CPU time of the service's thread per request;
 * and the SQL plan of both lists is printed at each size (EXPLAIN ANALYZE, custom and generic plan).
 * The middle page of each list is also measured on its reference (list-reference.ts): a bare Fastify
 * route running the same statements, which shows the latency this machine gives a page before any of
 * the service's own work.
 */
import autocannon from 'autocannon';
import type { Queryable } from '../src/db/database.ts';
import { createLenderLeadQueries } from '../src/leads/index.ts';
import { newId } from '../src/shared/ids.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-templates.ts';
import { runConstantRateInWorker } from './constant-rate.ts';
import { currentThreadCpuSeconds } from './cpu-accounting.ts';
import { recordStatements, startListReference } from './list-reference.ts';
import { benchAdminToken, benchConfig, containerFor, listen, partnerToken } from './service.ts';
import { leadsTable, type LeadStore } from '../test/lead-store.ts';

const api = '/mx/b2b/autofin/api';
const sizes = (process.env.BENCH_LEAD_LIST_SIZES ?? '1000,10000,100000').split(',').map(Number);
const fixedRates = [50, 200];
const fixedSeconds = 5;

/** The text and parameters of the one statement `run` sends (run against a recording Queryable). */
async function statementOf(run: (tx: Queryable) => Promise<unknown>): Promise<{ sql: string; params: unknown[] }> {
  const seen: { sql: string; params: unknown[] }[] = [];
  await run({ query: async (sql, params = []) => (seen.push({ sql, params }), { rows: [], rowCount: 0 }) });
  if (seen.length !== 1) throw new Error(`expected one statement, saw ${seen.length}`);
  return seen[0];
}

/**
 * EXPLAIN ANALYZE of a list statement as planned for its parameters (custom plan) and as a prepared
 * statement may be planned after a few executions (generic plan): the plan's nodes and the time.
 */
async function explain(database: TestDatabase, label: string, statement: { sql: string; params: unknown[] }) {
  for (const mode of ['force_custom_plan', 'force_generic_plan']) {
    const lines = await database.db.transaction(async (tx) => {
      await tx.query(`set local plan_cache_mode = ${mode}`);
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, costs off, timing off, summary on) ${statement.sql}`,
        statement.params,
      );
      return rows.map((r) => r['QUERY PLAN']);
    });
    const kept = lines.filter((l) => !/Index Cond|Planning|Buffers/.test(l));
    console.log(
      `    plan of ${label} (${mode.replace('force_', '').replace('_plan', '')}): ${kept.map((l) => l.trim().replace(/^->\s*/, '')).join(' | ')}`,
    );
  }
}

async function seed(
  leads: LeadStore['repository'],
  template: Parameters<LeadStore['repository']['insert']>[0],
  from: number,
  to: number,
  t0: number,
) {
  let count = from;
  const insertOne = async (n: number) => {
    const at = new Date(t0 + n * 1000);
    const leadId = newId();
    await leads.insert(
      { ...template, id: leadId, created_at: at, updated_at: at },
      { id: newId(), leadId, type: 'created', at, actor: 'bench', fields: [] },
      { id: newId(), type: 'lead.created' },
    );
  };
  while (count < to) {
    const batch = [];
    for (let k = 0; k < 32 && count < to; k++) batch.push(insertOne(count++));
    await Promise.all(batch);
  }
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

interface PageFigures {
  saturation: { rate: number; p50: number; p99: number };
  /** p50 / p99 ms at each fixed rate. */
  fixed: string;
  /** CPU of this thread per request at the last fixed rate. */
  micros: number;
  non2xx: number;
}

/** One page at saturation, then at each fixed rate; the server answering it runs in this thread. */
async function measurePage(url: string, headers: Record<string, string>): Promise<PageFigures> {
  await autocannon({ url, headers, connections: 5, duration: 1, workers: 1 });
  const r = await autocannon({ url, headers, connections: 5, duration: 3, workers: 1 });
  let non2xx = r.non2xx + r.errors;
  let fixed = '';
  let micros = 0;
  const { origin, pathname, search } = new URL(url);
  for (const rate of fixedRates) {
    const cpuBefore = currentThreadCpuSeconds() ?? 0;
    const run = await runConstantRateInWorker(
      [{ name: pathname, weight: 1, base: origin, method: 'GET', path: `${pathname}${search}`, headers }],
      rate,
      fixedSeconds,
    );
    const op = run.operations[0];
    micros = (((currentThreadCpuSeconds() ?? 0) - cpuBefore) * 1e6) / Math.max(1, op.count);
    non2xx += op.failures;
    fixed += `${op.p50Ms.toFixed(1)} / ${op.p99Ms.toFixed(1)}`.padStart(18);
  }
  return { saturation: { rate: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 }, fixed, micros, non2xx };
}

function pageRow(size: number, seedSeconds: number, name: string, f: PageFigures): string {
  const sat = f.saturation;
  return `  ${pad(size.toLocaleString('en'), 8)}${pad(seedSeconds.toFixed(1), 8)}  ${name.padEnd(20)}${pad(Math.round(sat.rate).toLocaleString('en'), 11)}${pad(`${sat.p50} / ${sat.p99}`, 12)}${f.fixed}${pad(Math.round(f.micros), 8)}${pad(f.non2xx, 9)}`;
}

export async function leadListScale(): Promise<void> {
  process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
  const database = await createTestDatabase();
  const container = await containerFor(benchConfig(), database.db);
  await container.prepare();
  const leads = leadsTable(database.db);
  const { app, base } = await listen(container, 'info');
  try {
    const token = await partnerToken(app);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const admin = { authorization: `Bearer ${benchAdminToken}` };
    const created = await app.inject({ method: 'POST', url: `${api}/leads`, headers, payload: {} });
    const { id } = created.json() as { id: string };
    await app.inject({
      method: 'PUT',
      url: `${api}/leads/${id}/loan-info`,
      headers,
      payload: { downPayment: 80000, term: 48, purchaseIntention: 'WITHIN_A_MONTH' },
    });
    const companyId = (await container.auth.authenticate(headers.authorization)).companyId;
    const stored = (await leads.find(id, companyId))!;
    const { verification: _v, prequalification: _p, ...template } = stored;
    const lender = createLenderLeadQueries(database.db);
    console.log(`\nlead lists of one company on PostgreSQL, limit=20: autocannon 5 connections for 3 s (saturation),`);
    console.log(
      `then a constant rate for ${fixedSeconds} s each from a worker thread (latency from the scheduled send); p50 / p99 in ms;`,
    );
    console.log(
      `µs/req: CPU of the service's thread per request at ${fixedRates.at(-1)} req/s (the page's own cost, whatever the load);`,
    );
    console.log(
      `"bare, same SQL": a bare Fastify route running the statements the service ran for that page (list-reference.ts)`,
    );
    const rateHeads = fixedRates.map((r) => `${r}/s p50/p99`.padStart(18)).join('');
    console.log(
      `  ${'leads'.padStart(8)}${'seed s'.padStart(8)}  ${'list, page'.padEnd(20)}${'sat. req/s'.padStart(11)}${'p50/p99'.padStart(12)}${rateHeads}${'µs/req'.padStart(8)}${'non-2xx'.padStart(9)}`,
    );
    let count = 1;
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (const size of sizes) {
      const seedStart = performance.now();
      await seed(leads, template, count, size, t0);
      count = Math.max(count, size);
      const seedSeconds = (performance.now() - seedStart) / 1000;
      await database.db.query('analyze leads');
      const middleAt = new Date(t0 + (size / 2) * 1000);
      const middle = Buffer.from(`${middleAt.toISOString()}|ffffffff-ffff-ffff-ffff-ffffffffffff`).toString(
        'base64url',
      );
      const cases = [
        { name: 'GET /leads, first', path: `${api}/leads?limit=20`, headers },
        { name: 'GET /leads, middle', path: `${api}/leads?limit=20&cursor=${middle}`, headers },
        { name: 'admin, first', path: '/admin/leads?limit=20', headers: admin },
        { name: 'admin, middle', path: `/admin/leads?limit=20&cursor=${middle}`, headers: admin },
      ];
      for (const c of cases) {
        console.log(pageRow(size, seedSeconds, c.name, await measurePage(`${base}${c.path}`, c.headers)));
        if (!c.name.endsWith('middle')) continue;
        const statements = await recordStatements(database.db, () =>
          app.inject({ method: 'GET', url: c.path, headers: c.headers }),
        );
        const reference = await startListReference(database.db, [{ path: '/page', statements }]);
        try {
          if (statements.length !== 1) console.log(`    (the reference below replays ${statements.length} statements)`);
          console.log(pageRow(size, seedSeconds, '  bare, same SQL', await measurePage(`${reference.base}/page`, {})));
        } finally {
          await reference.app.close();
        }
      }
      const after = { createdAt: middleAt, id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };
      await explain(
        database,
        'GET /leads, middle',
        await statementOf((tx) => leads.list(companyId, { excludeEmpty: true, after, limit: 21 }, tx)),
      );
      await explain(database, 'admin, middle', await statementOf((tx) => lender.list({}, after, 21, tx)));
    }
  } finally {
    await app.close();
    await container.close();
    await database.drop();
  }
}
