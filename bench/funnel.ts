/**
 * `npm run bench -- funnel`: the lender's funnel report (GET /admin/reports/funnel) and an outcome
 * change (POST /admin/leads/{leadId}/outcome) on 100,000 leads of 20 companies. On PostgreSQL
 * (DATABASE_URL, default the local test server; a fresh schema), `BENCH_ENGINE=pglite` for the
 * embedded engine. One lead is created through the API; the others are copies of its row made in one
 * statement per batch (each with its own id, company, status and creation time, over 100 days), and a
 * fifth of the verified ones get outcomes. Requests go through the app in this process (inject), one at
 * a time: the latency of the query and the service's own work, without a network in between. Prints
 * p50 / p99 of each and the plans of the funnel's statement over all days (per-day counts only) and
 * over Mexico City days (per-day counts and the leads of the partial UTC days at both ends).
 */
import type { Container } from '../src/composition.ts';
import { createTestDatabase } from '../test/test-templates.ts';
import { createFunnelRepository } from '../src/outcomes/funnel.repository.ts';
import { benchAdminToken, benchConfig, containerFor, listen } from './service.ts';

const leadCount = Number(process.env.BENCH_FUNNEL_LEADS ?? 100_000);
const companies = 20;
const rounds = 200;
const admin = { authorization: `Bearer ${benchAdminToken}` };
const t0 = Date.parse('2026-01-01T00:00:00Z');
/** What the console's reports page asks for 2026-02-01 to 2026-03-02: days starting at 06:00 UTC. */
const mexicoCityDays = { createdFrom: new Date('2026-02-01T06:00:00Z'), createdTo: new Date('2026-03-03T06:00:00Z') };

interface Statement {
  sql: string;
  params: unknown[];
}
type FunnelFilter = Parameters<ReturnType<typeof createFunnelRepository>['lines']>[0];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function seed(container: Container, companyIds: string[]) {
  const { db } = container;
  const batch = 10_000;
  for (let from = 0; from < leadCount; from += batch) {
    // Statuses spread as a busy pipeline has them: a tenth in progress, a tenth with a PIN sent, the rest verified.
    await db.query(
      `insert into leads (id, company_id, status, loan_info, vehicle, warnings, created_at, updated_at)
       select gen_random_uuid(), ($1::uuid[])[1 + n % ${companies}],
         (array['IN_PROGRESS','PIN_SENT','VERIFIED','PREQUALIFIED','PREQUALIFIED','PREQUALIFIED','PREQUALIFIED',
                'NOT_PREQUALIFIED','NOT_PREQUALIFIED','PREQUALIFIED'])[1 + (n / ${companies}) % 10],
         '{"downPayment":80000,"term":48}'::jsonb, null, '[]'::jsonb,
         $2::timestamptz + (n * interval '1 second') * (100 * 86400 / ${leadCount}),
         $2::timestamptz + (n * interval '1 second') * (100 * 86400 / ${leadCount})
       from generate_series($3::int, $4::int) as n`,
      [companyIds, new Date(t0), from, Math.min(from + batch, leadCount) - 1],
    );
  }
  // A fifth of the verified leads have an outcome: approved, half of those funded.
  await db.query(
    `insert into lead_outcomes (lead_id, status, at, operator_id, amount_approved, amount_funded, was_approved, current)
     select id, case when random() < 0.5 then 'FUNDED' else 'APPROVED' end, created_at + interval '1 day', 'bench',
       250000, null, true, true
     from leads where status in ('VERIFIED', 'PREQUALIFIED', 'NOT_PREQUALIFIED') and random() < 0.2`,
  );
  await db.query(`update lead_outcomes set amount_funded = 240000.50 where status = 'FUNDED'`);
  // What autovacuum does to a table this size soon after a bulk load: statistics and the visibility
  // map that lets the funnel read the leads of a partial day from their index alone.
  for (const table of ['leads', 'lead_outcomes', 'funnel_lead_days', 'funnel_outcome_days']) {
    await db.query(`vacuum analyze ${table}`);
  }
}

async function timed(run: () => Promise<{ statusCode: number; body: string }>, expected: number): Promise<number> {
  const start = performance.now();
  const res = await run();
  const ms = performance.now() - start;
  if (res.statusCode !== expected) throw new Error(`answered ${res.statusCode}: ${res.body}`);
  return ms;
}

/** The text and parameters of the funnel's statement (run against a recording Queryable). */
async function funnelStatement(container: Container, filter: FunnelFilter): Promise<Statement> {
  const seen: Statement[] = [];
  await createFunnelRepository(container.db).lines(filter, {
    query: async (sql, params = []) => (seen.push({ sql, params }), { rows: [], rowCount: 0 }),
  });
  return seen[0];
}

const line = (label: string, times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(46)}${percentile(sorted, 0.5).toFixed(1).padStart(8)}${percentile(sorted, 0.99).toFixed(1).padStart(8)}`,
  );
};

export async function funnelBench(): Promise<void> {
  if (process.env.BENCH_ENGINE === 'pglite') delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
  const database = await createTestDatabase();
  const container = await containerFor(benchConfig(), database.db);
  await container.prepare();
  const { app } = await listen(container, 'warn');
  try {
    const companyIds: string[] = [];
    for (let i = 0; i < companies; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/admin/companies',
        headers: admin,
        payload: { name: `Bench Autos ${i}` },
      });
      companyIds.push(res.json().id);
    }
    const seedStart = performance.now();
    await seed(container, companyIds);
    console.log(
      `\nfunnel report and outcome change on ${container.db.engine}, ${leadCount.toLocaleString('en')} leads of ${companies} companies`,
    );
    console.log(
      `(seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s); ${rounds} requests each, one at a time, in ms`,
    );
    console.log(`  ${''.padEnd(46)}${'p50'.padStart(8)}${'p99'.padStart(8)}`);
    const funnel = (query: string) => () =>
      app.inject({ method: 'GET', url: `/admin/reports/funnel${query}`, headers: admin });
    for (const [label, query] of [
      ['GET /admin/reports/funnel (all 100 days)', ''],
      ['  …, a 30-day window', '?createdFrom=2026-02-01&createdTo=2026-03-03'],
      [
        '  …, 30 Mexico City days (the console’s)',
        `?createdFrom=${mexicoCityDays.createdFrom.toISOString()}&createdTo=${mexicoCityDays.createdTo.toISOString()}`,
      ],
      ['  …, one company, all days', `?companyId=${companyIds[3]}`],
    ] as const) {
      for (let i = 0; i < 10; i++) await timed(funnel(query), 200);
      const times: number[] = [];
      for (let i = 0; i < rounds; i++) times.push(await timed(funnel(query), 200));
      line(label, times);
    }
    const { rows } = await container.db.query<{ id: string }>(
      `select id from leads l where status = 'PREQUALIFIED'
         and not exists (select 1 from lead_outcomes o where o.lead_id = l.id) limit ${rounds + 10}`,
    );
    const change = (id: string) => () =>
      app.inject({
        method: 'POST',
        url: `/admin/leads/${id}/outcome`,
        headers: admin,
        payload: { status: 'IN_REVIEW', note: 'bench' },
      });
    for (const { id } of rows.slice(0, 10)) await timed(change(id), 200);
    const times: number[] = [];
    for (const { id } of rows.slice(10)) times.push(await timed(change(id), 200));
    line('POST /admin/leads/{leadId}/outcome (first outcome)', times);
    for (const [label, filter] of [
      ['all days', {}],
      ['30 Mexico City days', mexicoCityDays],
    ] as const) {
      const statement = await funnelStatement(container, filter);
      const plan = await container.db.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, costs off, timing off, summary on) ${statement.sql}`,
        statement.params,
      );
      console.log(
        `  plan of the funnel (${label}): ${plan.rows.map((r) => r['QUERY PLAN'].trim().replace(/^->\s*/, '')).join(' | ')}`,
      );
    }
  } finally {
    await app.close();
    await container.close();
    await database.drop();
  }
}
