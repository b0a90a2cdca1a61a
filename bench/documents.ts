/**
 * `npm run bench -- documents`: document uploads (POST /leads/{leadId}/documents, multipart, 10 MiB files)
 * against a bare reference, for each store (`BENCH_DOCUMENTS_STORES`, default `embedded,postgres,s3`):
 *   - embedded: the service on PGlite in a fresh DATA_DIR; the reference on its own PGlite in another folder,
 *     both from the database the build prepared (dist/embedded-database);
 *   - postgres: the service on a scratch database of DATABASE_URL's server (default the local test server);
 *     the reference on another scratch database of the same server;
 *   - s3: DOCUMENT_STORE=s3 on the fake S3 server of the tests (test/s3-server.ts), run by this bench as a
 *     process of its own, with a scratch PostgreSQL database for the metadata; the reference writes to the
 *     same fake server, which forgets the objects after each round (it holds them in memory).
 * The service runs as `npm start` runs it (test/processes), as a sandbox, so the bench makes its CONDITIONED
 * leads through the API alone: a partner through the admin API, each lead created, filled, verified by the
 * PIN the sandbox reads back, then given a CONDITIONED decision of 10 conditions by POST /admin/leads/{id}/outcome.
 * One lead per concurrent upload, round r on condition r % 10 (10 documents a condition): no upload meets 409.
 *
 * The reference is this file run as a process of its own (`reference` below): a bare Fastify server with
 * @fastify/multipart, one route, that streams the file part into the same kind of store in chunks of the
 * same 256 KiB, with no sealing, typing, hashing or checks: an `insert` per chunk into a bytea table of the
 * same engine, bound as base64 text as the service's database store binds it (BENCH_DOCUMENTS_REFERENCE=binary:
 * as bytes), or a PutObject per chunk with the service's AWS SDK client settings. Both run with the Node options
 * and the allocator setting of `npm start`. The files are a PNG signature and random bytes (incompressible, as
 * the service's ciphertext is), sent by undici from this process.
 *
 * Per store: alternating rounds (a warm-up of each side, then BENCH_DOCUMENTS_ROUNDS of each, default 3) of
 * BENCH_DOCUMENTS_CONCURRENCY (20) uploads at once; MB/s (10^6 bytes of files a second, the round's wall
 * time from the first byte sent to the last answer), the ratio (median of the rounds' ratios; target 0.7),
 * the service process's RSS growth (its peak during the rounds, sampled and from VmHWM, minus its RSS before
 * the first upload; target 64 MiB), and the CPU of each party in cores: the server process, the store
 * (PostgreSQL's processes, or the fake S3 process; PGlite is inside the server) and this process (the
 * client), whose share of one core shows whether the load generator set the pace. Then one round of each side
 * with BENCH_DOCUMENTS_PDF_CONCURRENCY (5; 0: none) PDFs of the same size (the service reads each back and
 * parses it), no target. Every answer must be 201.
 * BENCH_DOCUMENTS_PROFILE=1 runs both servers with an inspector: their memory (process.memoryUsage()) sampled
 * through the rounds, and one more round of each under a V8 CPU profile of its main thread (BENCH_PROFILE_DIR
 * also keeps the profiles).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool as UndiciPool, WebSocket, request } from 'undici';
import {
  createScratchDatabase,
  freePort,
  newPartnerOn,
  projectRoot,
  startEnvironment,
  startNodeOptions,
  startServiceProcess,
  type Environment,
  type ScratchDatabase,
  type ServiceProcess,
} from '../test/processes/index.ts';
import type { S3ServerOptions } from '../test/s3-server.ts';
import { preparedEmbeddedDatabase } from '../src/db/open-database.ts';
import { cpuSnapshot, postgresSecondsBetween, processCpuSeconds } from './cpu-accounting.ts';
import { plainPdf } from '../test/document-files.ts';
import { leadSections } from './lead-writes.ts';
import { median } from './measure.ts';

const api = '/mx/b2b/autofin/api';
const thisFile = fileURLToPath(import.meta.url);
const chunkBytes = 256 * 1024;
/** The service's limit (src/documents/documents.routes.ts), and a file 4 KiB under it: 40 chunks. */
const maxFileBytes = 10 * 1024 * 1024;
const fileBytes = maxFileBytes - 4096;
const concurrency = Number(process.env.BENCH_DOCUMENTS_CONCURRENCY ?? 20);
const rounds = Number(process.env.BENCH_DOCUMENTS_ROUNDS ?? 3);
const profiling = process.env.BENCH_DOCUMENTS_PROFILE === '1';
/** Concurrent PDF uploads of the PDF round (0: none): the service reads each PDF back and parses it, one at a time. */
const pdfConcurrency = Number(process.env.BENCH_DOCUMENTS_PDF_CONCURRENCY ?? 5);
const conditionsPerLead = 10;
const target = { ratio: 0.7, rssMiB: 64 };
const s3Credentials = { accessKeyId: 'AKIABENCHDOCUMENTS', secretAccessKey: randomBytes(20).toString('hex') };
const bucket = 'autofin-bench';
const allStores = ['embedded', 'postgres', 's3'] as const;
type StoreName = (typeof allStores)[number];

/** What the reference process writes to: its own PGlite folder, a PostgreSQL database, or a bucket. */
type ReferenceStore =
  | { kind: 'pglite'; dataDir: string; binary: boolean }
  | { kind: 'postgres'; url: string; binary: boolean }
  | { kind: 's3'; endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string };

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------
// The reference server and the fake S3 server, each run as this file in a process of its own.

/** The statement of the service's database store (src/documents/database-document-store.ts). */
const insertChunk = `insert into document_chunks (object_id, seq, body) values ($1, $2, decode($3, 'base64'))
  on conflict (object_id, seq) do update set body = excluded.body`;
/** BENCH_DOCUMENTS_REFERENCE=binary: the chunk bound as bytes (a binary parameter), not as base64 text. */
const insertBinary = `insert into document_chunks (object_id, seq, body) values ($1, $2, $3)
  on conflict (object_id, seq) do update set body = excluded.body`;
const binaryReference = process.env.BENCH_DOCUMENTS_REFERENCE === 'binary';
/**
 * BENCH_DOCUMENTS_MALLOC=default: both servers without the MALLOC_MMAP_THRESHOLD_ `npm start` sets, i.e. with
 * glibc's own (adaptive) threshold, under which a freed 256 KiB buffer is reused rather than unmapped.
 */
const defaultMalloc = process.env.BENCH_DOCUMENTS_MALLOC === 'default';
const chunkTable = `create table if not exists document_chunks (
  object_id uuid not null, seq integer not null, body bytea not null, primary key (object_id, seq))`;

async function openReferenceStore(
  store: ReferenceStore,
): Promise<(objectId: string, seq: number, body: Buffer) => Promise<void>> {
  if (store.kind === 'pglite') {
    const { createPglite } = await import('../src/db/pglite-db.ts');
    const db = await createPglite(join(store.dataDir, 'pgdata'));
    await db.query(chunkTable);
    return async (objectId, seq, body) => {
      await db.query(store.binary ? insertBinary : insertChunk, [
        objectId,
        seq,
        store.binary ? body : body.toString('base64'),
      ]);
    };
  }
  if (store.kind === 'postgres') {
    const { default: pg } = await import('pg');
    // The service's pool size (src/db/postgres-db.ts).
    const pool = new pg.Pool({ connectionString: store.url, max: 20 });
    await pool.query(chunkTable);
    return async (objectId, seq, body) => {
      await pool.query(store.binary ? insertBinary : insertChunk, [
        objectId,
        seq,
        store.binary ? body : body.toString('base64'),
      ]);
    };
  }
  const { PutObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const { NodeHttpHandler } = await import('@smithy/node-http-handler');
  // The service's client settings (src/documents/s3-document-store.ts).
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: store.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
    maxAttempts: 2,
    requestHandler: new NodeHttpHandler({
      connectionTimeout: 2_000,
      requestTimeout: 5_000,
      throwOnRequestTimeout: true,
      socketTimeout: 5_000,
    }),
  });
  return async (objectId, seq, body) => {
    await client.send(new PutObjectCommand({ Bucket: store.bucket, Key: `documents/${objectId}/${seq}`, Body: body }));
  };
}

/** The bare reference: one route, the file part streamed into the store in 256 KiB chunks, nothing else. */
async function referenceProcess(store: ReferenceStore): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { default: fastifyMultipart } = await import('@fastify/multipart');
  const put = await openReferenceStore(store);
  const app = Fastify({ logger: false });
  await app.register(fastifyMultipart, {
    limits: { fileSize: maxFileBytes, files: 2, fields: 8, fieldSize: 1024, parts: 10, headerPairs: 50 },
  });
  app.post('/upload', async (request, reply) => {
    const objectId = randomUUID();
    let seq = 0;
    let size = 0;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      for await (const piece of part.file as AsyncIterable<Buffer>) {
        size += piece.length;
        pending.push(piece);
        pendingBytes += piece.length;
        // As the service: a chunk is written once more bytes follow it.
        while (pendingBytes > chunkBytes) {
          const all = Buffer.concat(pending, pendingBytes);
          await put(objectId, seq++, all.subarray(0, chunkBytes));
          pending = [all.subarray(chunkBytes)];
          pendingBytes -= chunkBytes;
        }
      }
      if (pendingBytes > 0) await put(objectId, seq++, Buffer.concat(pending, pendingBytes));
    }
    return reply.code(201).send({ id: objectId, size, chunks: seq });
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`listening ${base}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

/** The tests' fake S3 server; on a `count` message it answers the objects and bytes it holds, and forgets them. */
async function s3Process(): Promise<void> {
  const { startS3Server } = await import('../test/s3-server.ts');
  const server = await startS3Server(JSON.parse(process.argv[3]) as S3ServerOptions);
  process.on('message', () => {
    let bytes = 0;
    for (const body of server.objects.values()) bytes += body.length;
    process.send!({ objects: server.objects.size, bytes, requests: server.requests.length });
    server.objects.clear();
    server.requests.length = 0;
  });
  process.stdout.write(`listening ${server.endpoint}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

interface Helper {
  child: ChildProcess;
  pid: number;
  base: string;
  stop(): Promise<void>;
}

/** This file as a process in `role`, with the options `npm start` gives the service; resolves once it listens. */
async function startHelper(role: 'reference' | 's3', argument: object, inspectPort?: number): Promise<Helper> {
  const inspect = inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
  const child = spawn(
    process.execPath,
    [...startNodeOptions, ...inspect, '--import', 'tsx', thisFile, role, JSON.stringify(argument)],
    {
      cwd: projectRoot,
      env: { ...process.env, ...(defaultMalloc ? {} : startEnvironment) },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the ${role} process exited ${code}: ${out}`)));
  });
  return {
    child,
    pid: child.pid!,
    base,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The fake S3 server's count of what it holds since the last count (which it then forgets). */
function s3Count(s3: Helper): Promise<{ objects: number; bytes: number; requests: number }> {
  return new Promise((resolve) => {
    s3.child.once('message', (message) => resolve(message as { objects: number; bytes: number; requests: number }));
    s3.child.send('count');
  });
}

// ---------------------------------------------------------------------------------------------------------
// Leads, uploads and measurements, in the bench's process.

const adminToken = randomBytes(16).toString('hex');

async function call(base: string, method: 'GET' | 'POST' | 'PUT', path: string, headers: object, body?: unknown) {
  const res = await request(`${base}${path}`, {
    method,
    headers: body === undefined ? { ...headers } : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** `count` CONDITIONED leads of a new partner, each with 10 conditions: [leadId, conditionIds][]. */
async function conditionedLeads(base: string, count: number) {
  const { headers } = await newPartnerOn(base, adminToken);
  const admin = { authorization: `Bearer ${adminToken}` };
  const conditions = Array.from({ length: conditionsPerLead }, (_, k) => ({
    code: 'OTHER',
    description: `Documento ${k + 1}`,
  }));
  const make = async (k: number) => {
    const { id } = (await call(base, 'POST', `${api}/leads`, headers, {})) as { id: string };
    for (const [method, section, body] of leadSections(String(5520000000 + k)))
      await call(base, method, `${api}/leads/${id}/${section}`, headers, body);
    await call(base, 'POST', `${api}/leads/${id}/pin`, headers, { channel: 'SMS' });
    const messages = (await call(base, 'GET', `${api}/sandbox/leads/${id}/messages`, headers)) as {
      items: { body: string }[];
    };
    const pin = /\b(\d{6})\b/.exec(messages.items[0]?.body ?? '')?.[1];
    if (!pin) throw new Error(`no PIN message for lead ${id}`);
    await call(base, 'POST', `${api}/leads/${id}/pin/confirmation`, headers, { pin });
    const outcome = (await call(base, 'POST', `/admin/leads/${id}/outcome`, admin, {
      status: 'CONDITIONED',
      conditions,
    })) as { conditions: { id: string }[] };
    return { leadId: id, conditionIds: outcome.conditions.map((c) => c.id) };
  };
  return { headers, leads: await Promise.all(Array.from({ length: count }, (_, k) => make(k))) };
}

/** The multipart body of one upload: conditionId, type, then the file (as test/document-files.ts writes it). */
function uploadBody(conditionId: string, file: Buffer, fileName: string) {
  const boundary = `----autofinbench${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="conditionId"\r\n\r\n${conditionId}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nPROOF_OF_INCOME\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const procStatus = (pid: number, field: string) => {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};
const rssOf = (pid: number) => procStatus(pid, 'VmRSS');
/** Resets the process's peak resident set (VmHWM) to its current one; false where the kernel refuses. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

interface Side {
  label: string;
  pid: number;
  pool: UndiciPool;
  /** The path of the k-th upload of round r. */
  path: (k: number, round: number) => string;
  headers: Record<string, string>;
  /** The conditionId of the k-th upload of round r (the reference ignores it). */
  conditionId: (k: number, round: number) => string;
  /** The store's own processes: the fake S3 server, or PostgreSQL's (read from /proc). */
  storePid?: number;
  postgres: boolean;
}

interface Round {
  ms: number;
  rate: number;
  statuses: Map<number, number>;
  latencies: number[];
  cpu: { server: number; store: number; client: number; machine: number };
  /** The server process's highest RSS during the round (sampled every 20 ms, and VmHWM when it could be reset). */
  peakRss: number;
  peakFromHwm: boolean;
}

/** `concurrency` uploads at once of `file`, each to its own lead; every answer must be 201. */
async function uploadRound(
  side: Side,
  round: number,
  file: Buffer,
  extension: 'png' | 'pdf',
  count = concurrency,
): Promise<Round> {
  const bodies = Array.from({ length: count }, (_, k) =>
    uploadBody(side.conditionId(k, round), file, `bench-${round}-${k}.${extension}`),
  );
  const peakReset = resetPeak(side.pid);
  let peakRss = rssOf(side.pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(side.pid))), 20);
  const before = {
    server: processCpuSeconds(side.pid),
    store: side.storePid ? processCpuSeconds(side.storePid) : 0,
    client: process.cpuUsage(),
    snapshot: cpuSnapshot(),
  };
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  const started = performance.now();
  const uploads = Promise.all(
    bodies.map(async ({ body, contentType }, k) => {
      const sent = performance.now();
      const res = await side.pool.request({
        path: side.path(k, round),
        method: 'POST',
        headers: { ...side.headers, 'content-type': contentType },
        body,
      });
      const text = await res.body.text();
      latencies.push(performance.now() - sent);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode !== 201)
        throw new Error(`${side.label}, round ${round}, upload ${k}: ${res.statusCode} ${text.slice(0, 300)}`);
    }),
  );
  try {
    await uploads;
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  if (peakReset) peakRss = Math.max(peakRss, procStatus(side.pid, 'VmHWM'));
  const after = cpuSnapshot();
  const client = process.cpuUsage(before.client);
  const seconds = ms / 1000;
  const postgresSeconds =
    side.postgres && before.snapshot && after ? postgresSecondsBetween(before.snapshot, after) : 0;
  return {
    ms,
    rate: mbps(count * file.length, ms),
    statuses,
    latencies,
    cpu: {
      server: (processCpuSeconds(side.pid) - before.server) / seconds,
      store: ((side.storePid ? processCpuSeconds(side.storePid) - before.store : 0) + postgresSeconds) / seconds,
      client: (client.user + client.system) / 1e6 / seconds,
      machine: before.snapshot && after ? (after.machineBusy - before.snapshot.machineBusy) / seconds : NaN,
    },
    peakRss,
    peakFromHwm: peakReset,
  };
}

/** The PNG signature, then random bytes: incompressible, as the service's sealed chunks are. */
function pngFile(bytes: number): Buffer {
  const file = randomBytes(bytes);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(file);
  return file;
}

/** A one-page PDF (test/document-files.ts) and a comment of random bytes (no line ends) up to `bytes`. */
async function pdfFile(bytes: number): Promise<Buffer> {
  const pdf = await plainPdf();
  const pad = randomBytes(bytes - pdf.length - 2).map((b) => (b === 0x0a || b === 0x0d ? 0x20 : b));
  return Buffer.concat([pdf, Buffer.from('%'), pad, Buffer.from('\n')]);
}

interface StoreSetup {
  name: string;
  /** Settings of the service's environment for this store. */
  env: Record<string, string>;
  reference: ReferenceStore;
  storePid?: number;
  postgres: boolean;
  /** Forgets what a round stored (the fake S3 server holds every object in memory); answers a count. */
  afterRound?: (uploads: number) => Promise<string>;
}

const cores = (x: number) => x.toFixed(2);
const pct = (x: number) => `${Math.round(x * 100)} %`;

/** The service and the reference of one store, in alternating rounds; prints the store's lines. */
async function measureStore(setup: StoreSetup, common: Environment): Promise<void> {
  const settled = { timeoutMs: 240_000, ready: 'health' } as const;
  let service: ServiceProcess | undefined;
  let reference: Helper | undefined;
  const pools: UndiciPool[] = [];
  try {
    const env = { ...common, ...setup.env };
    if (setup.postgres && setup.env.DATABASE_URL) {
      // A first start migrates the scratch database and imports the catalogs; the measured process starts on it
      // as every later start does (a process measured right after an import is still collecting its garbage).
      await (await startServiceProcess(env, settled)).stop();
    }
    const inspectPorts = profiling ? [await freePort(), await freePort()] : undefined;
    service = await startServiceProcess(
      inspectPorts ? { ...env, NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPorts[0]}` } : env,
      settled,
    );
    if (setup.reference.kind === 'pglite') {
      // The reference's engine starts from the database the service's first start copies (dist/embedded-database):
      // a database made here (initdb) would leave the reference's RSS hundreds of MiB above its steady size.
      const prepared = preparedEmbeddedDatabase();
      if (prepared) cpSync(prepared, join(setup.reference.dataDir, 'pgdata'), { recursive: true });
    }
    reference = await startHelper('reference', setup.reference, inspectPorts?.[1]);
    const { headers, leads } = await conditionedLeads(service.base, concurrency);
    const servicePool = new UndiciPool(service.base, { connections: concurrency });
    const referencePool = new UndiciPool(reference.base, { connections: concurrency });
    pools.push(servicePool, referencePool);
    const sides: [Side, Side] = [
      {
        label: `${setup.name}, service`,
        pid: service.pid,
        pool: servicePool,
        path: (k) => `${api}/leads/${leads[k].leadId}/documents`,
        headers,
        conditionId: (k, round) => leads[k].conditionIds[round % conditionsPerLead],
        storePid: setup.storePid,
        postgres: setup.postgres,
      },
      {
        label: `${setup.name}, reference`,
        pid: reference.pid,
        pool: referencePool,
        path: () => '/upload',
        headers: {},
        conditionId: (k, round) => leads[k].conditionIds[round % conditionsPerLead],
        storePid: setup.storePid,
        postgres: setup.postgres,
      },
    ];
    const file = pngFile(fileBytes);
    await sleep(1_000); // the service settles after the leads were made
    const inspectors = inspectPorts ? await Promise.all(inspectPorts.map(inspectorOf)) : undefined;
    const memory = inspectors?.map(sampleMemory);
    const rssBefore = [rssOf(sides[0].pid), rssOf(sides[1].pid)];
    const peaks = [0, 0];
    const notes: string[] = [];
    const run = async (side: 0 | 1, round: number, count = concurrency) => {
      const result = await uploadRound(sides[side], round, file, 'png', count);
      peaks[side] = Math.max(peaks[side], result.peakRss);
      if (setup.afterRound) notes.push(await setup.afterRound(count));
      return result;
    };
    // A warm-up of each, a quarter of the uploads (JIT, connections, the store's first pages): in the peak RSS,
    // not in the rates.
    const warmUploads = Math.max(1, Math.round(concurrency / 4));
    const warm = [await run(0, 0, warmUploads), await run(1, 0, warmUploads)];
    const measured: [Round, Round][] = [];
    for (let round = 1; round <= rounds; round++) measured.push([await run(0, round), await run(1, round)]);
    const rssAfter = [rssOf(sides[0].pid), rssOf(sides[1].pid)];
    const memories = memory && (await Promise.all(memory.map((stop) => stop())));
    // PDFs, fewer at once, after the PNG rounds (their RSS apart): the service reads each back and parses it.
    const pdf = pdfConcurrency > 0 ? await pdfFile(fileBytes) : undefined;
    const pdfRounds = pdf ? [await uploadRound(sides[0], rounds + 1, pdf, 'pdf', pdfConcurrency)] : [];
    if (pdf) {
      if (setup.afterRound) await setup.afterRound(pdfConcurrency);
      pdfRounds.push(await uploadRound(sides[1], rounds + 1, pdf, 'pdf', pdfConcurrency));
      if (setup.afterRound) await setup.afterRound(pdfConcurrency);
    }
    const ratios = measured.map(([s, r]) => s.rate / r.rate);
    const ratio = median(ratios);
    const rates = [median(measured.map(([s]) => s.rate)), median(measured.map(([, r]) => r.rate))];
    const growth = [peaks[0] - rssBefore[0], peaks[1] - rssBefore[1]];
    // CPU of the server process per MB of files: steadier than MB/s on a machine other work shares.
    const cpuPerMB = (r: Round) => (r.cpu.server * 1000) / r.rate;
    const cpuMs = [median(measured.map(([s]) => cpuPerMB(s))), median(measured.map(([, r]) => cpuPerMB(r)))];
    const uploads = measured.length * concurrency + warmUploads;
    console.log(
      `  ${setup.name.padEnd(44)}${rates[0].toFixed(1).padStart(9)}${rates[1].toFixed(1).padStart(11)}` +
        `${ratio.toFixed(2).padStart(7)}${mib(growth[0]).padStart(12)}${mib(growth[1]).padStart(11)}` +
        `  ratio ${ratio >= target.ratio ? 'meets' : 'misses'} ${target.ratio}, RSS growth ` +
        `${growth[0] <= target.rssMiB * 2 ** 20 ? 'meets' : 'misses'} ${target.rssMiB} MiB`,
    );
    const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];
    const describe = (r: Round) =>
      `${r.rate.toFixed(1)} MB/s in ${(r.ms / 1000).toFixed(2)} s (upload p50 ${(p(r.latencies, 0.5) / 1000).toFixed(2)} s, ` +
      `max ${(Math.max(...r.latencies) / 1000).toFixed(2)} s), CPU server ${cores(r.cpu.server)} store ` +
      `${cores(r.cpu.store)} client ${pct(r.cpu.client)} of a core, machine ${cores(r.cpu.machine)} of ${cpus().length}`;
    const indent = `    `;
    console.log(
      `${indent}rounds' ratios ${ratios.map((x) => x.toFixed(2)).join(', ')}; server CPU per MB: service ` +
        `${cpuMs[0].toFixed(1)} ms, reference ${cpuMs[1].toFixed(1)} ms (× ${(cpuMs[0] / cpuMs[1]).toFixed(2)}); ` +
        `${uploads} uploads a side, all 201; ` +
        `RSS service ${mib(rssBefore[0])} before, peak ${mib(peaks[0])}, ${mib(rssAfter[0])} after; reference ` +
        `${mib(rssBefore[1])}, ${mib(peaks[1])}, ${mib(rssAfter[1])}`,
    );
    if (!warm[0].peakFromHwm) console.log(`${indent}(peak RSS sampled every 20 ms: VmHWM could not be reset)`);
    const row = (label: string, who: string, r: Round) =>
      console.log(`${indent}${label.padEnd(22)}${who.padEnd(10)}${describe(r)}`);
    row(`warm-up, ${warmUploads} uploads`, 'service', warm[0]);
    row('', 'reference', warm[1]);
    for (const [k, [s, r]] of measured.entries()) {
      row(`round ${k + 1}`, 'service', s);
      row('', 'reference', r);
    }
    if (pdfRounds.length === 2) {
      const [s, r] = pdfRounds;
      row(`PDF, ${pdfConcurrency} uploads`, 'service', s);
      row('', 'reference', r);
      console.log(
        `${indent}PDF ratio ${(s.rate / r.rate).toFixed(2)} (no target); the service's peak RSS in its PDF round ` +
          `${mib(s.peakRss)}, ${mib(s.peakRss - rssBefore[0])} over its RSS before the first upload`,
      );
    }
    const busiest = Math.max(...measured.flatMap(([s, r]) => [s.cpu.client, r.cpu.client]));
    if (busiest >= 0.9) console.log(`${indent}the client used ${pct(busiest)} of a core: it may have set the pace`);
    if (notes.length) console.log(`${indent}fake S3 server, each round: ${[...new Set(notes)].join('; ')}`);
    if (inspectors && memories) {
      for (const [k, side] of sides.entries()) {
        console.log(memoryLine(side.label, memories[k]));
        await profileRound(side.label, inspectors[k], side, file, rounds + 2);
        if (setup.afterRound) await setup.afterRound(concurrency);
        inspectors[k].close();
      }
    }
  } finally {
    await Promise.all(pools.map((pool) => pool.close()));
    await reference?.stop();
    await service?.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------
// BENCH_DOCUMENTS_PROFILE=1: both servers run with an inspector; their memory (process.memoryUsage()) is sampled
// through all the rounds, and one more round of each runs under a V8 CPU profile of its main thread.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
type Inspector = Awaited<ReturnType<typeof inspectorOf>>;
type Memory = { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };

/** A minimal Chrome DevTools protocol client on a process's inspector. */
async function inspectorOf(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.error ? { error: message.error } : message.result);
  });
  const post = <T>(method: string, params: object = {}): Promise<T> => {
    const id = ++next;
    socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => waiting.set(id, resolve as (result: unknown) => void));
  };
  return {
    post,
    async memory(): Promise<Memory> {
      const expression = 'JSON.stringify(process.memoryUsage())';
      const answer = await post<{ result: { value: string } }>('Runtime.evaluate', { expression, returnByValue: true });
      return JSON.parse(answer.result.value) as Memory;
    },
    close: () => socket.close(),
  };
}

/** process.memoryUsage() every 50 ms until stopped: the first reading and the highest of each field. */
function sampleMemory(inspector: Inspector) {
  let sampling = true;
  let first: Memory | undefined;
  let peak: Memory | undefined;
  const done = (async () => {
    while (sampling) {
      const now = await inspector.memory();
      first ??= now;
      peak = peak ? { ...peak } : { ...now };
      for (const key of Object.keys(now) as (keyof Memory)[]) peak[key] = Math.max(peak[key], now[key]);
      await sleep(50);
    }
  })();
  return async () => {
    sampling = false;
    await done;
    await inspector.post('HeapProfiler.collectGarbage');
    return { first: first!, peak: peak!, collected: await inspector.memory() };
  };
}

function memoryLine(label: string, m: Awaited<ReturnType<ReturnType<typeof sampleMemory>>>): string {
  const field = (key: keyof Memory) => `${key} ${mib(m.first[key])} → ${mib(m.peak[key])} (${mib(m.collected[key])})`;
  return (
    `    ${label}, memory over the rounds, first reading → highest (after a full GC at the end): ` +
    (['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'] as const).map(field).join(', ')
  );
}

/** The source file of a frame of the bundle (dist/*.js), through its source map; the URL for anything else. */
function sourceOf(maps: Map<string, SourceMap | null>) {
  const root = pathToFileURL(projectRoot).href;
  const short = (url: string) => url.replace(/^.*?\/node_modules\//, 'node_modules/').replace(root, '');
  return (frame: ProfileNode['callFrame']): string => {
    if (!frame.url.startsWith(`${root}dist/`)) return short(frame.url);
    if (!maps.has(frame.url)) {
      try {
        maps.set(frame.url, new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(frame.url)}.map`, 'utf8'))));
      } catch {
        maps.set(frame.url, null);
      }
    }
    const entry = maps.get(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    const source = entry && 'originalSource' in entry ? entry.originalSource : frame.url;
    return short(source).replace(/^.*?\/src\//, 'src/');
  };
}

/**
 * One more round of `side` under a V8 CPU profile of its main thread. Prints the self time by source file and
 * by function (native code counted under the function calling it), and the inclusive time by the nearest
 * frame of the server's own code (src/ for the service, bench/ for the reference): which of its functions
 * the time was spent under.
 */
async function profileRound(name: string, inspector: Inspector, side: Side, file: Buffer, round: number) {
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 500 });
  await inspector.post('Profiler.start');
  const result = await uploadRound(side, round, file, 'png');
  const { profile } = await inspector.post<{
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  }>('Profiler.stop');
  const profileDir = process.env.BENCH_PROFILE_DIR;
  if (profileDir) {
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(join(profileDir, `documents-${name.replace(/\W+/g, '-')}.cpuprofile`), JSON.stringify(profile));
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const source = sourceOf(new Map());
  /** The nearest frame with a script (native code and builtins count for the script calling them). */
  const owner = (id: number): ProfileNode => {
    let node = byId.get(id)!;
    while (!node.callFrame.url && !node.callFrame.functionName.startsWith('(') && parentOf.has(node.id)) {
      node = byId.get(parentOf.get(node.id)!)!;
    }
    return node;
  };
  // The reference runs through tsx, whose names of its closures are not the source's.
  const nameOf = (node: ProfileNode) =>
    node.callFrame.url.includes('/bench/') ? 'the reference’s own code' : node.callFrame.functionName || '(anonymous)';
  const own = (node: ProfileNode) => /^(src|bench)\//.test(source(node.callFrame));
  const nearestOwn = (id: number): string => {
    for (let node: ProfileNode | undefined = byId.get(id); node; node = byId.get(parentOf.get(node.id) ?? -1)) {
      if (node.callFrame.url && own(node)) return `${nameOf(node)} (${source(node.callFrame)})`;
    }
    return '(no frame of its own: HTTP, multipart parsing, GC, timers)';
  };
  const tally = () => new Map<string, number>();
  const [bySource, byFunction, byOwn] = [tally(), tally(), tally()];
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  let total = 0;
  profile.samples.forEach((id, i) => {
    const self = byId.get(id)!;
    if (self.callFrame.functionName === '(idle)') return;
    const micros = profile.timeDeltas[i] ?? 0;
    total += micros;
    const node = owner(id);
    const file = node.callFrame.url ? source(node.callFrame) : node.callFrame.functionName;
    add(bySource, file, micros);
    const fn = self.callFrame.functionName || '(anonymous)';
    add(
      byFunction,
      self.callFrame.url ? `${fn} (${file})` : `${fn} ← ${node.callFrame.functionName} (${file})`,
      micros,
    );
    add(byOwn, nearestOwn(id), micros);
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `      ${pct(v / total).padStart(5)}  ${k}`)
      .join('\n');
  console.log(
    `    profiled round, ${name}: ${result.rate.toFixed(1)} MB/s, server CPU ${cores(result.cpu.server)} cores, ` +
      `main thread sampled ${(total / 1e6).toFixed(2)} s (wall time, not idle) of ${(result.ms / 1000).toFixed(2)} s`,
  );
  console.log('    self time by source file:');
  console.log(top(bySource, 12));
  console.log('    self time by function:');
  console.log(top(byFunction, 12));
  console.log('    time under the nearest function of its own code:');
  console.log(top(byOwn, 10));
}

// ---------------------------------------------------------------------------------------------------------

function chosenStores(): StoreName[] {
  const names = (process.env.BENCH_DOCUMENTS_STORES ?? allStores.join(','))
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(allStores as readonly string[]).includes(n));
  if (unknown.length || !names.length)
    throw new Error(`BENCH_DOCUMENTS_STORES: ${unknown.join(', ') || 'none'}; the stores are ${allStores.join(', ')}`);
  return allStores.filter((s) => names.includes(s));
}

export async function documentUploads(): Promise<void> {
  const stores = chosenStores();
  const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const common: Environment = {
    ...(defaultMalloc ? { MALLOC_MMAP_THRESHOLD_: undefined } : {}),
    // A sandbox: the `log` SMS provider and the PIN read back make the leads through the API alone.
    AUTOFIN_ENV: 'sandbox',
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    RATE_LIMIT_PER_MINUTE: '10000000',
    // 20 files of 10 MiB at once may take longer than the default 30 s to arrive on a slow store.
    REQUEST_TIMEOUT_MS: '300000',
    TOKEN_SIGNING_KEY: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  console.log(
    `document uploads: ${concurrency} at once of a ${fileBytes.toLocaleString('en')}-byte PNG (signature + random ` +
      `bytes), undici from this process, one lead each; a warm-up and ${rounds} alternating rounds of each side per ` +
      `store${pdfConcurrency > 0 ? `, then ${pdfConcurrency} PDFs of the same size at once` : ''}; the database ` +
      `reference binds each chunk ${binaryReference ? 'as bytes (BENCH_DOCUMENTS_REFERENCE=binary)' : 'as base64 text, as the service'}; ` +
      `${defaultMalloc ? 'glibc’s own mmap threshold (BENCH_DOCUMENTS_MALLOC=default)' : 'MALLOC_MMAP_THRESHOLD_=131072 as npm start'}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log(
    `  ${'store'.padEnd(44)}${'MB/s'.padStart(9)}${'reference'.padStart(11)}${'ratio'.padStart(7)}` +
      `${'RSS growth'.padStart(12)}${'reference'.padStart(11)}  target ratio ≥ ${target.ratio}, RSS growth ≤ ${target.rssMiB} MiB`,
  );
  const folders: string[] = [];
  const databases: ScratchDatabase[] = [];
  let s3: Helper | undefined;
  try {
    for (const store of stores) {
      if (store === 'embedded') {
        const dataDir = mkdtempSync(join(tmpdir(), 'autofin-bench-documents-'));
        const referenceDir = mkdtempSync(join(tmpdir(), 'autofin-bench-documents-ref-'));
        folders.push(dataDir, referenceDir);
        await measureStore(
          {
            name: 'embedded (PGlite), fresh DATA_DIR',
            env: { DATA_DIR: dataDir },
            reference: { kind: 'pglite', dataDir: referenceDir, binary: binaryReference },
            postgres: false,
          },
          common,
        );
      } else if (store === 'postgres') {
        const database = await createScratchDatabase(serverUrl, 'autofin_bench_documents');
        const referenceDatabase = await createScratchDatabase(serverUrl, 'autofin_bench_documents_ref');
        databases.push(database, referenceDatabase);
        await measureStore(
          {
            name: 'PostgreSQL (scratch databases)',
            env: { DATABASE_URL: database.url },
            reference: { kind: 'postgres', url: referenceDatabase.url, binary: binaryReference },
            postgres: true,
          },
          common,
        );
      } else {
        const database = await createScratchDatabase(serverUrl, 'autofin_bench_documents_s3');
        databases.push(database);
        s3 = await startHelper('s3', { bucket, ...s3Credentials });
        const fake = s3;
        await measureStore(
          {
            name: 'S3 (fake server; metadata on PostgreSQL)',
            env: {
              DATABASE_URL: database.url,
              DOCUMENT_STORE: 's3',
              S3_BUCKET: bucket,
              S3_ENDPOINT: fake.base,
              S3_FORCE_PATH_STYLE: 'true',
              AWS_ACCESS_KEY_ID: s3Credentials.accessKeyId,
              AWS_SECRET_ACCESS_KEY: s3Credentials.secretAccessKey,
            },
            reference: { kind: 's3', endpoint: fake.base, bucket, ...s3Credentials },
            storePid: fake.pid,
            postgres: true,
            afterRound: async (uploads) => {
              const count = await s3Count(fake);
              const expected = uploads * Math.ceil(fileBytes / chunkBytes);
              if (count.objects !== expected)
                throw new Error(`the fake S3 server holds ${count.objects} objects after a round, not ${expected}`);
              return `${count.objects} objects (${mib(count.bytes)}) in ${count.requests} requests`;
            },
          },
          common,
        );
      }
    }
    console.log(
      '  MB/s: 10^6 bytes of files a second over the round (medians); ratio: the median of the rounds’ ratios; RSS ' +
        'growth: the server process’s peak during the rounds (warm-up included) minus its RSS before the first upload',
    );
    console.log(
      '  CPU in cores over each round: server (the service or the reference, all threads), store (PostgreSQL’s ' +
        'processes, and the fake S3 process for S3; PGlite runs inside the server), client (this process) and the ' +
        'machine; server CPU per MB: the median of the rounds’',
    );
  } finally {
    await s3?.stop();
    await Promise.all(databases.map((d) => d.drop()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}

// Run as a helper process: `node --import tsx bench/documents.ts reference '<store JSON>'` or `… s3 '{}'`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const role = process.argv[2];
  if (role === 'reference') await referenceProcess(JSON.parse(process.argv[3]) as ReferenceStore);
  else if (role === 's3') await s3Process();
  else throw new Error('usage: bench/documents.ts reference <store JSON> | s3 <options JSON>');
}
