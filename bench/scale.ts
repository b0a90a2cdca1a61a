/**
 * `npm run bench -- scale`: the reads and a section save at a lender's size, against the same at a small
 * size in the same run. On PostgreSQL (DATABASE_URL, default the local test server; a fresh schema) the
 * sizes are 10,000 then 1,000,000 leads; with `BENCH_ENGINE=pglite`, 10,000 then 100,000 on the embedded
 * engine (`BENCH_SCALE_SIZES` sets others).
 *
 * The leads are seeded straight into the database in batches (one set-based statement per table and
 * batch), in the shapes a lender's five years hold: 200 companies (one large dealer, the bench's partner,
 * with a tenth of the leads), creation dates spread over a year, every status, each lead's phone, e-mail
 * and person sealed with its own key, three history rows each, a webhook event and a delivered delivery
 * each, a lender's decision on half the pre-qualified ones (every outcome status), 2 % erased.
 *
 * Each case is then asked at a constant rate (`BENCH_SCALE_RATE`, default 50/s, for 10 s; the funnel report
 * at a tenth of it for 20 s) from a worker thread: the p50 and p99 of its answers. They are answered by
 * `dist/main.js` as `npm start` runs it: on PostgreSQL started on the seeded schema, on the embedded engine
 * started on a restored copy of the seeded database (below). The last table puts each case's p99 at the
 * largest size against the smallest, with the targets of docs/performance.md: on PostgreSQL within 1.5× and
 * under 20 ms (the funnel under 50 ms), on the embedded engine within 2×.
 *
 * Then, at the largest size, each with a section save at the same rate beside it (its p99 and longest
 * answer, against the saves' p99 alone over 20 s): 1,000 erasures in a row; the retention purge of the oldest
 * `BENCH_SCALE_PURGE` leads (default 100,000); an export of every lead as CSV, then as NDJSON (rows per
 * second, and the growth of the service's resident memory: on PostgreSQL the export and its saves go to a
 * service process of their own, `dist/main.js` as `npm start` runs it, against the saves alone on it);
 * migration 025 again; migrations 026 and 028 again (the funnel's months: each locks the per-day counts every
 * lead's commit writes) with leads created beside them instead of saves. `BENCH_SCALE_PARTS`
 * picks some of `reads,erasures,purge,export,migration` (default all); `BENCH_SCALE_KEEP=1` keeps the seeded
 * PostgreSQL schema.
 *
 * On the embedded engine, at each size, a start on that database: `GET /admin/backup` of the seeded
 * service, `autofin restore` into a new DATA_DIR, and `dist/main.js` started there with the bench's keys
 * (the time from spawning it to the first 200 of `/health/ready`, and its RSS after 10 s idle); the reads
 * are then measured on it.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { promisify } from 'node:util';
import { migrate, readMigrations } from '../src/db/migrate.ts';
import type { Db } from '../src/db/index.ts';
import { projectRoot, serviceArgs, startServiceProcess } from '../test/processes/index.ts';
import { createTestDatabase } from '../test/test-templates.ts';
import { createLeadSealer } from '../src/leads/index.ts';
import { runConstantRateInWorker, type FixedRequest } from './constant-rate.ts';
import { benchAdminToken, benchConfig, containerFor, listen, partnerToken, type BenchKeys } from './service.ts';

const api = '/mx/b2b/autofin/api';
const rate = Number(process.env.BENCH_SCALE_RATE ?? 50);
const parts = new Set((process.env.BENCH_SCALE_PARTS ?? 'reads,erasures,purge,export,migration').split(','));
const purgeSize = Number(process.env.BENCH_SCALE_PURGE ?? 100_000);
/** `BENCH_SCALE_KEEP=1`: the seeded PostgreSQL schema is left in place, to read its plans with EXPLAIN. */
const keep = process.env.BENCH_SCALE_KEEP === '1';
const seconds = 10;
const batch = 10_000;
const year = 365 * 86_400_000;
const t0 = Date.parse('2025-11-01T00:00:00Z');
const statuses = ['CREATED', 'IN_PROGRESS', 'IN_PROGRESS', 'PIN_SENT', 'VERIFIED', 'PREQUALIFIED', 'NOT_PREQUALIFIED'];
const outcomes = ['IN_REVIEW', 'CONDITIONED', 'APPROVED', 'DECLINED', 'FUNDED', 'WITHDRAWN'];
const vehicle = {
  id: 371234,
  price: 340000,
  year: 2024,
  brand: { id: '1', name: 'Marca' },
  model: { id: '2', name: 'Modelo' },
  version: 'Base',
};

interface Seeding {
  db: Db;
  sealer: ReturnType<typeof createLeadSealer>;
  companies: string[];
  partnerCompany: string;
  endpointId: string;
  total: number;
}

/** The leads `from` to `to` (their numbers decide company, status, date, outcome and erasure). */
async function seedBatch(s: Seeding, from: number, to: number): Promise<void> {
  const ids: string[] = [];
  const cols = { company: [] as string[], status: [] as string[], created: [] as string[], erased: [] as boolean[] };
  const sealed = { phone: [] as (string | null)[], email: [] as (string | null)[], person: [] as (string | null)[] };
  for (let n = from; n < to; n++) ids.push(randomUUID());
  const kept = ids.filter((_, i) => (from + i) % 50 !== 0);
  await s.sealer.forWritingAll(kept);
  ids.forEach((id, i) => {
    const n = from + i;
    const erased = n % 50 === 0;
    cols.company.push(n % 10 === 0 ? s.partnerCompany : s.companies[n % s.companies.length]!);
    cols.status.push(statuses[n % statuses.length]!);
    // Spread over a year whatever the size: the newest lead is always the year's last.
    cols.created.push(new Date(t0 + Math.floor((n / s.total) * year)).toISOString());
    cols.erased.push(erased);
    sealed.phone.push(erased ? null : s.sealer.seal(id, 'phone_enc', `55${String(n).padStart(8, '0')}`));
    sealed.email.push(erased ? null : s.sealer.seal(id, 'email_enc', `persona${n}@example.com`));
    sealed.person.push(
      erased
        ? null
        : s.sealer.seal(id, 'person_enc', {
            firstName: 'Persona',
            secondName: '',
            lastName: `Prueba${n}`,
            secondLastName: 'Carga',
            rfc: 'SAND850412A16',
            birthDate: '1985-04-12',
          }),
    );
  });
  await s.db.transaction(async (tx) => {
    await tx.query(
      `insert into leads (id, company_id, status, external_auto_id, loan_info, vehicle, phone_enc, email_enc,
         person_enc, prequalification, created_at, updated_at, erased_at)
       select l.id, l.company, l.status, 'auto-' || l.id, '{"downPayment":100000,"term":48}'::jsonb, $9::jsonb,
         l.phone, l.email, l.person,
         case when l.status in ('PREQUALIFIED', 'NOT_PREQUALIFIED') then jsonb_build_object('decision', l.status,
           'reasons', '[]'::jsonb, 'offer', null, 'evaluatedAt', l.created) end,
         l.created, l.created, case when l.erased then l.created end
       from unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[],
         $8::boolean[]) as l(id, company, status, created, phone, email, person, erased)`,
      [ids, cols.company, cols.status, cols.created, sealed.phone, sealed.email, sealed.person, cols.erased, vehicle],
    );
    // Three history rows, one webhook event and its delivered delivery per lead.
    await tx.query(
      `insert into lead_events (id, lead_id, type, at, actor, fields)
       select gen_random_uuid(), l.id, t.type, l.created_at + t.after, 'bench', '[]'::jsonb
       from leads l, (values ('LEAD_CREATED', interval '0'), ('CONTACT_INFO_SAVED', interval '1 minute'),
         ('LOAN_INFO_SAVED', interval '2 minutes')) as t(type, after)
       where l.id = any($1::uuid[])`,
      [ids],
    );
    await tx.query(
      `with events as (
         insert into webhook_events (id, type, company_id, lead_id, occurred_at, data)
         select gen_random_uuid(), 'lead.created', l.company_id, l.id, l.created_at,
           jsonb_build_object('companyId', l.company_id, 'leadId', l.id, 'status', l.status)
         from leads l where l.id = any($1::uuid[])
         returning id, occurred_at
       )
       insert into webhook_deliveries (id, endpoint_id, event_id, status, attempts, created_at)
       select gen_random_uuid(), $2, e.id, 'succeeded',
         jsonb_build_array(jsonb_build_object('at', e.occurred_at, 'statusCode', 200, 'durationMs', 12)),
         e.occurred_at
       from events e`,
      [ids, s.endpointId],
    );
    // A decision on every other pre-qualified lead, cycling through the outcome statuses.
    await tx.query(
      `insert into lead_outcomes (lead_id, status, at, operator_id, amount_approved, amount_funded, conditions,
         was_approved, current)
       select l.id, o.status, l.created_at + interval '1 day', 'bench',
         case when o.status in ('APPROVED', 'FUNDED') then 240000 end,
         case when o.status = 'FUNDED' then 240000 end,
         case when o.status = 'CONDITIONED' then '[{"code":"PROOF_OF_INCOME"}]'::jsonb end,
         o.status in ('APPROVED', 'FUNDED'), true
       from (select id, created_at, row_number() over (order by id) as k from leads
             where id = any($1::uuid[]) and status = 'PREQUALIFIED') l
       join lateral (select ($2::text[])[1 + (l.k % 6)::int] as status) o on true
       where l.k % 2 = 0`,
      [ids, outcomes],
    );
  });
}

async function seedTo(s: Seeding, from: number, to: number): Promise<number> {
  const started = performance.now();
  for (let n = from; n < to; n += batch) await seedBatch(s, n, Math.min(to, n + batch));
  // A million upserts of the same few thousand funnel rows in a hundred transactions leave a bloat that
  // one lead per transaction (and autovacuum) does not: those small tables are rewritten, as a live system
  // keeps them compact.
  for (const table of ['funnel_lead_days', 'funnel_outcome_days', 'funnel_months']) {
    await s.db.query(`vacuum full ${table}`);
  }
  for (const table of ['leads', 'lead_events', 'lead_outcomes', 'webhook_events', 'webhook_deliveries', 'lead_keys']) {
    await s.db.query(`vacuum analyze ${table}`);
  }
  // What the seeding wrote reaches the files now, as a live server's periodic checkpoints would have done,
  // not inside the first measurement (the first rewrite after an erasure checkpoints).
  if (s.db.engine === 'postgres') await s.db.query('checkpoint');
  return (performance.now() - started) / 1000;
}

interface Figures {
  p50: number;
  p99: number;
  failures: number;
}

/** A report is asked for by people, not by partners' systems: the funnel at a tenth of the rate. */
const isFunnel = (request: FixedRequest) => request.name.startsWith('funnel');
const funnelRate = Math.max(1, rate / 10);
const funnelSeconds = 2 * seconds;
const rateOf = (request: FixedRequest) => (isFunnel(request) ? funnelRate : rate);

/** A case's answers: 500 at the default rate, the funnel's 100. */
const durationOf = (request: FixedRequest) => (isFunnel(request) ? funnelSeconds : seconds);

async function measure(request: FixedRequest, duration = durationOf(request)): Promise<Figures> {
  await runConstantRateInWorker([request], rateOf(request), 1);
  const run = await runConstantRateInWorker([request], rateOf(request), duration);
  const op = run.operations[0]!;
  return { p50: op.p50Ms, p99: op.p99Ms, failures: op.failures };
}

/** How long the saves are measured alone, as the baseline of every "beside" figure. */
const aloneSeconds = 20;

const cell = (text: string | number, width: number) => String(text).padStart(width);

/** How long a started copy stays idle before its RSS is read. */
const idleSeconds = 10;

interface StartFigures {
  backupBytes: number;
  startMs: number;
  rssBytes: number;
}

/**
 * The settings of a service process on the bench's data: its admin token and the keys that sealed the data,
 * no rate limit in the way of the bench's rates, and a retention past the seeded year, so that no purge
 * starts while it is measured.
 */
const processEnv = (keys: BenchKeys) => ({
  AUTOFIN_ENV: 'bench',
  ADMIN_TOKEN: benchAdminToken,
  LOG_LEVEL: 'warn',
  TOKEN_SIGNING_KEY: keys.signing.toString('hex'),
  DATA_ENCRYPTION_KEY: keys.encryption.toString('hex'),
  RATE_LIMIT_PER_MINUTE: '10000000',
  PII_RETENTION_DAYS: '3650',
});

/**
 * A start on a copy of the seeded embedded database, as an installation of that size restarts: the
 * backup of the service at `base`, restored by `autofin restore` into a new DATA_DIR, then `dist/main.js`
 * on it with the keys that sealed its values. Its time from spawning to ready (`/health/ready` 200, the
 * catalogs loaded), and its resident memory after `idleSeconds` of idling; then `whileUp` with its address.
 */
async function startOnCopy(
  base: string,
  keys: BenchKeys,
  whileUp: (base: string, figures: StartFigures) => Promise<void>,
): Promise<StartFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-scale-start-'));
  try {
    const file = join(dir, 'backup.tar.gz');
    const res = await fetch(`${base}/admin/backup`, { headers: { authorization: `Bearer ${benchAdminToken}` } });
    if (res.status !== 200) throw new Error(`GET /admin/backup: ${res.status} ${await res.text()}`);
    await pipeline(Readable.fromWeb(res.body! as WebReadableStream), createWriteStream(file));
    const dataDir = join(dir, 'data');
    await promisify(execFile)(process.execPath, ['bin/autofin.mjs', 'restore', file, '--data-dir', dataDir], {
      cwd: projectRoot,
    });
    const service = await startServiceProcess(
      { ...processEnv(keys), DATA_DIR: dataDir },
      { timeoutMs: 240_000, ready: 'health' },
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
      const figures = { backupBytes: statSync(file).size, startMs: service.startMs, rssBytes: service.rssBytes() };
      await whileUp(service.base, figures);
      return figures;
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The service as `npm start` runs it (dist/main.js, with its memory settings) on the seeded PostgreSQL
 * schema, with the keys that sealed the seeded values.
 */
function serviceOnSchema(url: string, schema: string, keys: BenchKeys) {
  const target = new URL(url);
  target.searchParams.set('options', `-c search_path=${schema}`);
  return startServiceProcess(
    { ...processEnv(keys), DATABASE_URL: target.toString() },
    { timeoutMs: 120_000, ready: 'health' },
  );
}

/**
 * An export of every lead by the service at `base`, read here as it streams: its rows per second, and the
 * growth of the resident memory `rss` reads (the service's process) over its value before the export.
 */
async function exportAll(base: string, format: 'csv' | 'ndjson', rss: () => number): Promise<void> {
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
  const started = performance.now();
  const res = await fetch(`${base}/admin/leads/export?format=${format}`, {
    headers: { authorization: `Bearer ${benchAdminToken}` },
  });
  let lines = 0;
  for await (const chunk of res.body!) {
    const bytes = chunk as Uint8Array;
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
  }
  clearInterval(sampler);
  const rows = format === 'csv' ? lines - 1 : lines;
  const rowsPerSecond = rows / ((performance.now() - started) / 1000);
  console.log(
    `    ${res.status}: ${rows.toLocaleString('en')} rows, ${Math.round(rowsPerSecond).toLocaleString('en')} rows/s,` +
      ` service RSS ${(before / 2 ** 20).toFixed(0)} MiB + ${((peak - before) / 2 ** 20).toFixed(0)} MiB at most`,
  );
}

/**
 * `work` while a section save runs at the bench's rate beside it, in windows of 10 s until the work is done:
 * how long the work took, and the p99 and the longest of the saves in those windows (the longest stall).
 */
async function workUnderWrites(
  label: string,
  save: FixedRequest,
  work: () => Promise<void>,
  writes = 'saves',
): Promise<void> {
  let done = false;
  const started = performance.now();
  const running = work().finally(() => (done = true));
  const latencies: number[] = [];
  let failures = 0;
  while (!done) {
    const run = await runConstantRateInWorker([save], rate, 10);
    latencies.push(...run.operations[0]!.sortedMs);
    failures += run.operations[0]!.failures;
  }
  await running;
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
  console.log(
    `  ${label}: ${seconds.toFixed(1)} s; ${writes} beside it p99 ${p99.toFixed(1)} ms, longest ${(latencies.at(-1) ?? 0).toFixed(1)} ms` +
      ` (${latencies.length} ${writes}${failures ? `, ${failures} failed` : ''})`,
  );
}

export async function scaleBench(): Promise<void> {
  const embedded = process.env.BENCH_ENGINE === 'pglite';
  if (embedded) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const sizes = (process.env.BENCH_SCALE_SIZES ?? (embedded ? '10000,100000' : '10000,1000000')).split(',').map(Number);
  const database = await createTestDatabase();
  // Leads are spread over the year from t0: the oldest `purgeSize` of them are past this retention.
  const total = sizes.at(-1)!;
  const purgedBefore = t0 + Math.floor((Math.min(purgeSize, total) / total) * year);
  const config = { ...benchConfig(), piiRetentionDays: Math.floor((Date.now() - purgedBefore) / 86_400_000) };
  const keys: BenchKeys = { signing: randomBytes(32), encryption: randomBytes(32) };
  const container = await containerFor(config, database.db, undefined, keys);
  // dist/ brought up to date with the sources now, so that no build is timed as a start.
  serviceArgs();
  await container.prepare();
  const { app, base } = await listen(container, 'warn');
  try {
    const token = await partnerToken(app);
    const partner = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const admin = { authorization: `Bearer ${benchAdminToken}` };
    const partnerCompany = (await container.auth.authenticate(partner.authorization)).companyId;
    const companies = (
      await database.db.query<{ id: string }>(
        `insert into companies (id, name) select gen_random_uuid(), 'Distribuidor ' || n from generate_series(1, 199) n
         returning id`,
      )
    ).rows.map((r) => r.id);
    // The endpoint the seeded deliveries went to; disabled, so the writes measured deliver nothing.
    const endpointId = randomUUID();
    await database.db.query(
      `insert into webhook_endpoints (id, company_id, url, event_types, enabled, secret_enc, created_at, updated_at)
       values ($1, $2, 'https://hooks.example.com/autofin', '["lead.created"]'::jsonb, false, 'unused', now(), now())`,
      [endpointId, partnerCompany],
    );
    const seeding: Seeding = {
      db: database.db,
      sealer: createLeadSealer(container.leadKeys.sealing),
      companies: [...companies, partnerCompany],
      partnerCompany,
      endpointId,
      total: sizes.at(-1)!,
    };
    // A lead of the partner's written through the API: the one read and saved.
    const created = await app.inject({ method: 'POST', url: `${api}/leads`, headers: partner, payload: {} });
    const leadId = (created.json() as { id: string }).id;
    const loan = JSON.stringify({ downPayment: 90000, term: 48, purchaseIntention: 'WITHIN_A_MONTH' });
    await app.inject({ method: 'PUT', url: `${api}/leads/${leadId}/loan-info`, headers: partner, payload: loan });
    const deep = Buffer.from(`${new Date(t0 + year / 4).toISOString()}|ffffffff-ffff-ffff-ffff-ffffffffffff`).toString(
      'base64url',
    );
    const get = (name: string, path: string, headers: Record<string, string>): FixedRequest => ({
      name,
      weight: 1,
      base,
      method: 'GET',
      path,
      headers,
    });
    const cases: FixedRequest[] = [
      get('GET /leads/{id}', `${api}/leads/${leadId}`, partner),
      get('GET /leads, first page', `${api}/leads?limit=20`, partner),
      get('GET /leads, deep page', `${api}/leads?limit=20&cursor=${deep}`, partner),
      get('GET /leads?status=VERIFIED', `${api}/leads?limit=20&status=VERIFIED`, partner),
      get('GET /leads?outcome=FUNDED', `${api}/leads?limit=20&outcome=FUNDED`, partner),
      get('GET /admin/leads', '/admin/leads?limit=20', admin),
      get('GET /admin/leads, deep page', `/admin/leads?limit=20&cursor=${deep}`, admin),
      get('admin ?status=PIN_SENT', '/admin/leads?limit=20&status=PIN_SENT', admin),
      get('admin ?outcome=CONDITIONED', '/admin/leads?limit=20&outcome=CONDITIONED', admin),
      get('admin ?companyId=', `/admin/leads?limit=20&companyId=${companies[7]}`, admin),
      get('admin ?createdFrom&To (a week)', '/admin/leads?limit=20&createdFrom=2026-03-01&createdTo=2026-03-08', admin),
      get('funnel, a year', '/admin/reports/funnel?createdFrom=2025-11-01&createdTo=2026-11-01', admin),
      {
        name: 'PUT /leads/{id}/loan-info',
        weight: 1,
        base,
        method: 'PUT',
        path: `${api}/leads/${leadId}/loan-info`,
        headers: partner,
        body: loan,
      },
    ];
    console.log(
      `\nscale on ${database.db.engine}: each case at ${rate} req/s for ${seconds} s (the funnel at ${funnelRate}/s for ${funnelSeconds} s); p50 / p99 in ms`,
    );
    const results = new Map<number, Figures[]>();
    const starts = new Map<number, StartFigures>();
    let seeded = 0;
    for (const size of sizes) {
      const seedSeconds = await seedTo(seeding, seeded, size);
      seeded = size;
      const { rows } = await database.db.query<{ bytes: string }>(
        `select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c
         where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'm')`,
      );
      const gib = (Number(rows[0]!.bytes) / 2 ** 30).toFixed(2);
      console.log(`  ${size.toLocaleString('en')} leads seeded (+${seedSeconds.toFixed(0)} s), tables ${gib} GiB`);
      const figures: Figures[] = [];
      results.set(size, figures);
      // The reads go to a service process as `npm start` runs it: their pauses are the service's, not those
      // of this process, whose heap just seeded the leads. On PostgreSQL one started on the seeded schema,
      // on the embedded engine one started on a restored copy of the database (below).
      const readsAt = async (there: string) => {
        for (const c of parts.has('reads') ? cases : []) {
          const f = await measure({ ...c, base: there });
          figures.push(f);
          const failed = f.failures ? `  ${f.failures} failed` : '';
          console.log(`    ${c.name.padEnd(34)}${cell(`${f.p50.toFixed(1)} / ${f.p99.toFixed(1)}`, 16)}${failed}`);
        }
      };
      if (!embedded) {
        const reader = await serviceOnSchema(process.env.DATABASE_URL!, database.schema!, keys);
        await readsAt(reader.base).finally(() => reader.stop());
        continue;
      }
      const start = await startOnCopy(base, keys, async (there, copy) => {
        console.log(
          `    dist/main.js on a restored copy (backup ${(copy.backupBytes / 2 ** 20).toFixed(0)} MiB): ready in ` +
            `${(copy.startMs / 1000).toFixed(2)} s, RSS ${(copy.rssBytes / 2 ** 20).toFixed(0)} MiB after ${idleSeconds} s idle`,
        );
        await readsAt(there);
      });
      starts.set(size, start);
    }
    const save = cases.at(-1)!;
    // As many saves as beside the shortest work below, so that both p99 rest on as many answers.
    const alone = await measure(save, aloneSeconds);
    console.log(`\n  saves alone at ${rate} req/s: p50 ${alone.p50.toFixed(1)} ms, p99 ${alone.p99.toFixed(1)} ms`);
    if (parts.has('erasures')) {
      await workUnderWrites('1,000 erasures in a row', save, async () => {
        const { rows } = await database.db.query<{ id: string }>(
          `select id from leads where erased_at is null and company_id <> $1 order by created_at desc limit 1000`,
          [partnerCompany],
        );
        for (const { id } of rows) {
          await app.inject({ method: 'DELETE', url: `/admin/leads/${id}/personal-data`, headers: admin });
        }
        await container.leadKeys.shredAsked();
      });
    }
    if (parts.has('purge')) {
      let purged = 0;
      await workUnderWrites(`the retention purge (${config.piiRetentionDays} days)`, save, async () => {
        const res = await app.inject({ method: 'POST', url: '/admin/leads/purge', headers: admin, payload: {} });
        purged = (res.json() as { count: number }).count;
        await container.leadKeys.shredAsked();
      });
      console.log(`    ${purged.toLocaleString('en')} leads erased by the purge`);
    }
    if (parts.has('export')) {
      // On PostgreSQL the export and the saves beside it are answered by a service process of their own
      // (its memory and pauses are the service's, not the seeding bench's); the embedded database has one
      // process only, this one.
      const service = database.schema ? await serviceOnSchema(process.env.DATABASE_URL!, database.schema, keys) : null;
      try {
        const exporter = service
          ? { base: service.base, rss: service.rssBytes }
          : { base, rss: () => process.memoryUsage().rss };
        const saveThere = { ...save, base: exporter.base };
        if (service) {
          const there = await measure(saveThere, aloneSeconds);
          console.log(
            `  saves alone on the service process: p50 ${there.p50.toFixed(1)} ms, p99 ${there.p99.toFixed(1)} ms`,
          );
        }
        for (const format of ['csv', 'ndjson'] as const) {
          await workUnderWrites(`an export of every lead (${format})`, saveThere, () =>
            exportAll(exporter.base, format, exporter.rss),
          );
        }
      } finally {
        await service?.stop();
      }
    }
    if (parts.has('migration')) {
      await workUnderWrites('migration 025 again (three concurrent indexes)', save, async () => {
        await database.db.query(
          `drop index webhook_deliveries_finished_idx, webhook_deliveries_event_idx, webhook_events_occurred_idx`,
        );
        await database.db.query('delete from schema_migrations where version = 25');
        await migrate(database.db, { migrations: await readMigrations() });
      });
      // The funnel's months as 025 left them, then 026 and 028 again while partners create leads: each
      // lead's commit writes the day counts both migrations lock while they fill the months.
      for (const statement of [
        'drop trigger funnel_lead_months_count on funnel_lead_days',
        'drop trigger funnel_outcome_months_count on funnel_outcome_days',
        'drop function funnel_lead_months_count(), funnel_outcome_months_count(), funnel_months_add_leads, funnel_months_add_outcomes, funnel_verified',
        'drop table funnel_months',
        'delete from schema_migrations where version in (26, 28)',
      ]) {
        await database.db.query(statement);
      }
      const create: FixedRequest = { ...save, name: 'POST /leads', method: 'POST', path: `${api}/leads`, body: '{}' };
      const migrations = await readMigrations();
      await workUnderWrites(
        "migrations 026 and 028 again (the funnel's months)",
        create,
        async () => {
          await migrate(database.db, { migrations });
        },
        'lead creations',
      );
    }
    if (!parts.has('reads')) return;
    const [small, large] = [sizes[0]!, sizes.at(-1)!];
    console.log(`\n  p99 at ${large.toLocaleString('en')} against ${small.toLocaleString('en')} leads`);
    cases.forEach((c, i) => {
      const a = results.get(small)![i]!.p99;
      const b = results.get(large)![i]!.p99;
      const limit = embedded ? Infinity : isFunnel(c) ? 50 : 20;
      const within = embedded ? 2 : 1.5;
      const ratio = b / Math.max(a, 0.1);
      const verdict = ratio <= within && b < limit ? 'meets' : 'misses';
      const targets = embedded ? `≤${within}×` : `≤${within}×, <${limit} ms`;
      console.log(
        `    ${c.name.padEnd(34)}${cell(a.toFixed(1), 7)}${cell(b.toFixed(1), 8)}${cell(`${ratio.toFixed(2)}×`, 8)}  ${verdict} (${targets})`,
      );
    });
    const [startSmall, startLarge] = [starts.get(small), starts.get(large)];
    if (startSmall && startLarge) {
      const mib = (bytes: number) => bytes / 2 ** 20;
      console.log(
        `    ${'start to ready, s'.padEnd(34)}${cell((startSmall.startMs / 1000).toFixed(2), 7)}` +
          `${cell((startLarge.startMs / 1000).toFixed(2), 8)}${cell(`${(startLarge.startMs / startSmall.startMs).toFixed(2)}×`, 8)}`,
      );
      console.log(
        `    ${`RSS after ${idleSeconds} s idle, MiB`.padEnd(34)}${cell(mib(startSmall.rssBytes).toFixed(0), 7)}` +
          `${cell(mib(startLarge.rssBytes).toFixed(0), 8)}${cell(`${(startLarge.rssBytes / startSmall.rssBytes).toFixed(2)}×`, 8)}`,
      );
    }
  } finally {
    await app.close();
    await container.close();
    if (keep && database.schema) console.log(`\n  kept: schema ${database.schema} (drop it when done)`);
    else await database.drop();
  }
}
