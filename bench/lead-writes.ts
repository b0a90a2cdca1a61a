/**
 * The write path: leads created and filled (create + six sections = 7 requests) by concurrent
 * partners, against a listening app, next to pgbench's single-row insert rate on the same
 * PostgreSQL at the same concurrency, measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import { currentThreadCpuSeconds } from './cpu-accounting.ts';
import { typescriptWorker } from '../src/shared/worker-threads.ts';

export interface WriteResult {
  leads: number;
  requests: number;
  seconds: number;
  leadsPerSecond: number;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  /** CPU seconds the load generator's own thread used (Linux), so it can be told apart from the service. */
  generatorCpuSeconds?: number;
}

const person = {
  firstName: 'Ana',
  secondName: 'María',
  lastName: 'López',
  secondLastName: 'García',
  rfc: 'LOGA900215A16',
  birthDate: '1990-02-15',
};

/** The six section writes of a lead, in the order a partner sends them: method, section, body. */
export function leadSections(phone: string) {
  return [
    ['PUT', 'loan-info', { downPayment: 80000, term: 48, purchaseIntention: 'WITHIN_A_MONTH' }],
    ['PUT', 'contact-info', { phone, email: `lead${phone}@example.com` }],
    ['PUT', 'address', { street: 'Av. Álvaro Obregón', number: '120', zipCode: '06700', neighborhood: 'Roma Norte' }],
    ['PUT', 'auto', { id: 371234, price: 340000 }],
    ['PUT', 'financial', { employmentType: 'Empleado', startDate: { year: 2015, month: 3 }, income: 60000 }],
    ['POST', 'person', person],
  ] as const;
}

/**
 * Runs the load in a worker thread, as autocannon does for the reads, so the client's own work
 * does not take the service's event loop.
 */
export function measureLeadWrites(
  baseUrl: string,
  token: string,
  concurrency: number,
  seconds: number,
  rate?: number,
): Promise<WriteResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(typescriptWorker, {
      argv: [import.meta.url],
      workerData: { baseUrl, token, concurrency, seconds, rate },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

if (!isMainThread && workerData?.baseUrl) {
  const { baseUrl, token, concurrency, seconds, rate } = workerData as {
    baseUrl: string;
    token: string;
    concurrency: number;
    seconds: number;
    rate?: number;
  };
  parentPort!.postMessage(await driveLeadWrites(baseUrl, token, concurrency, seconds, rate));
}

/**
 * `concurrency` partners each create and fill leads, one request at a time, for `seconds`: an
 * autocannon request sequence per connection (create, then the six sections of the lead it got).
 * With `rate`, the partners together send at most that many requests a second.
 */
async function driveLeadWrites(
  baseUrl: string,
  token: string,
  concurrency: number,
  seconds: number,
  rate?: number,
): Promise<WriteResult> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let phones = 0;
  let leads = 0;
  let errors = 0;
  type Context = { id?: string; sections?: ReturnType<typeof leadSections> };
  const expect = (wanted: number) => (status: number) => {
    if (status !== wanted) errors += 1;
  };
  const sectionRequests = [0, 1, 2, 3, 4, 5].map((i) => ({
    setupRequest(request: Record<string, unknown>, context: Context) {
      const [method, section, body] = context.sections![i];
      return {
        ...request,
        method,
        path: `/mx/b2b/autofin/api/leads/${context.id}/${section}`,
        body: JSON.stringify(body),
      };
    },
    onResponse(status: number, _body: string, context: Context) {
      const [method, section] = context.sections![i];
      expect(method === 'POST' || section === 'address' || section === 'financial' ? 200 : 204)(status);
      if (i === 5) leads += 1;
    },
  }));
  const started = performance.now();
  const cpuBefore = currentThreadCpuSeconds();
  const options = {
    url: baseUrl,
    connections: concurrency,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    headers,
    requests: [
      {
        method: 'POST',
        path: '/mx/b2b/autofin/api/leads',
        body: '{}',
        setupRequest(request: Record<string, unknown>, context: Context) {
          context.sections = leadSections(String(5500000000 + phones++));
          return request;
        },
        onResponse(status: number, body: string, context: Context) {
          expect(201)(status);
          context.id = status === 201 ? (JSON.parse(body) as { id: string }).id : 'missing';
        },
      },
      ...sectionRequests,
    ],
  };
  // Inside a worker thread autocannon answers raw per-instance results; aggregating gives the usual shape.
  const result = autocannon.aggregateResult([await autocannon(options)], options);
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = currentThreadCpuSeconds();
  return {
    generatorCpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    leads,
    requests: result.requests.total,
    seconds: elapsed,
    leadsPerSecond: leads / elapsed,
    requestsPerSecond: result.requests.total / elapsed,
    p99Ms: result.latency.p99,
    errors: errors + result.errors + result.timeouts,
  };
}

/** pgbench's single-row insert rate (transactions per second) on the given server. */
export function pgbenchInsertRate(databaseUrl: string, clients: number, seconds: number): number | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-pgbench-'));
  const script = join(dir, 'insert.sql');
  writeFileSync(script, "insert into autofin_bench_insert (v) values ('x');\n");
  const psql = spawnSync('psql', [
    databaseUrl,
    '-qc',
    'drop table if exists autofin_bench_insert; create table autofin_bench_insert (id bigserial primary key, v text)',
  ]);
  if (psql.status !== 0) return undefined;
  const run = spawnSync(
    'pgbench',
    ['-n', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', script, databaseUrl],
    { encoding: 'utf8' },
  );
  spawnSync('psql', [databaseUrl, '-qc', 'drop table if exists autofin_bench_insert']);
  const match = /tps = ([\d.]+)/.exec(run.stdout ?? '');
  return match ? Number(match[1]) : undefined;
}
