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
import { Pool } from 'undici';

export interface WriteResult {
  leads: number;
  requests: number;
  seconds: number;
  leadsPerSecond: number;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

const person = { firstName: 'Ana', secondName: 'María', lastName: 'López', secondLastName: 'García', rfc: 'LOGA900215A16', birthDate: '1990-02-15' };

function sections(phone: string) {
  return [
    ['PUT', 'loan-info', { downPayment: 80000, term: 48, purchaseIntention: 'WITHIN_A_MONTH' }],
    ['PUT', 'contact-info', { phone, email: `lead${phone}@example.com` }],
    ['PUT', 'address', { street: 'Av. Álvaro Obregón', number: '120', zipCode: '06700', neighborhood: 'Roma Norte' }],
    ['PUT', 'auto', { id: 371234, price: 340000 }],
    ['PUT', 'financial', { employmentType: 'Empleado', startDate: { year: 2015, month: 3 }, income: 60000 }],
    ['POST', 'person', person],
  ] as const;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Runs the load in a worker thread, as autocannon does for the reads, so the client's own work
 * does not take the service's event loop.
 */
export function measureLeadWrites(baseUrl: string, token: string, concurrency: number, seconds: number): Promise<WriteResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker-bootstrap.mjs', import.meta.url), {
      workerData: { module: import.meta.url, baseUrl, token, concurrency, seconds },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

if (!isMainThread && workerData?.baseUrl) {
  const { baseUrl, token, concurrency, seconds } = workerData as { baseUrl: string; token: string; concurrency: number; seconds: number };
  parentPort!.postMessage(await driveLeadWrites(baseUrl, token, concurrency, seconds));
}

/** `concurrency` partners each create and fill leads, one request at a time, for `seconds`. */
async function driveLeadWrites(baseUrl: string, token: string, concurrency: number, seconds: number): Promise<WriteResult> {
  const pool = new Pool(baseUrl, { connections: concurrency, pipelining: 1 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const latencies: number[] = [];
  let leads = 0;
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  const timed = async (method: 'POST' | 'PUT', path: string, body: unknown, expect: number) => {
    const started = performance.now();
    const res = await pool.request({ method, path, headers, body: JSON.stringify(body) });
    const text = await res.body.text();
    latencies.push(performance.now() - started);
    if (res.statusCode !== expect) errors += 1;
    return text;
  };
  const worker = async (n: number) => {
    let i = 0;
    while (Date.now() < deadline) {
      const phone = String(5500000000 + n * 1_000_000 + i++);
      const { id } = JSON.parse(await timed('POST', '/mx/b2b/autofin/api/leads', {}, 201)) as { id: string };
      for (const [method, section, body] of sections(phone)) {
        await timed(method, `/mx/b2b/autofin/api/leads/${id}/${section}`, body, method === 'POST' || section === 'address' || section === 'financial' ? 200 : 204);
      }
      leads += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, n) => worker(n)));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    leads, requests: latencies.length, seconds: elapsed, leadsPerSecond: leads / elapsed,
    requestsPerSecond: latencies.length / elapsed, p99Ms: percentile(latencies, 99), errors,
  };
}

/** pgbench's single-row insert rate (transactions per second) on the given server. */
export function pgbenchInsertRate(databaseUrl: string, clients: number, seconds: number): number | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-pgbench-'));
  const script = join(dir, 'insert.sql');
  writeFileSync(script, "insert into autofin_bench_insert (v) values ('x');\n");
  const psql = spawnSync('psql', [databaseUrl, '-qc', 'drop table if exists autofin_bench_insert; create table autofin_bench_insert (id bigserial primary key, v text)']);
  if (psql.status !== 0) return undefined;
  const run = spawnSync('pgbench', ['-n', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', script, databaseUrl], { encoding: 'utf8' });
  spawnSync('psql', [databaseUrl, '-qc', 'drop table if exists autofin_bench_insert']);
  const match = /tps = ([\d.]+)/.exec(run.stdout ?? '');
  return match ? Number(match[1]) : undefined;
}
