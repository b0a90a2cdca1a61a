/**
 * Tracing in the real service process (`dist/main.js`, as `npm start` runs it): the bundle loads
 * dist/tracing.js, the database's statements are spans (PGlite's own wrapper, or the `pg`
 * instrumentation patching the `pg` kept outside the bundle), and a graceful stop exports the
 * spans still batched (the schedule here is ten minutes, so nothing is exported before the stop).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ensurePgliteTemplate } from '../test-templates.ts';
import { startOtlpReceiver, spanKind, type OtlpReceiver } from '../otlp-receiver.ts';
import { createScratchDatabase, newPartnerOn, startServiceProcess } from '../processes/index.ts';

const adminToken = 'e2e-admin-token-0123456789abcdef';
const serverUrl = process.env.DATABASE_URL;

let otlp: OtlpReceiver;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let dataDir: string | undefined;

/** A DATA_DIR holding the migrated test template with its catalogs: a restart, not a first start. */
async function seededDataDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-tracing-'));
  const template = readFileSync(await ensurePgliteTemplate());
  const pglite = await PGlite.create({ dataDir: join(dir, 'pgdata'), loadDataDir: new Blob([template]) });
  await pglite.close();
  return dir;
}

before(async () => {
  otlp = await startOtlpReceiver();
  if (serverUrl) scratch = await createScratchDatabase(serverUrl);
  else dataDir = await seededDataDir();
});
after(async () => {
  await otlp.close();
  await scratch?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("a traced request's spans, statements included, are exported when the process stops", async () => {
  const service = await startServiceProcess(
    {
      ADMIN_TOKEN: adminToken,
      AUTOFIN_ENV: 'test',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      ...(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: dataDir! }),
    },
    { timeoutMs: 115_000 },
  );
  const traceId = randomBytes(16).toString('hex');
  let stopped: number | null;
  try {
    const partner = await newPartnerOn(service.base, adminToken);
    const res = await fetch(`${service.base}/mx/b2b/autofin/api/leads`, {
      method: 'POST',
      headers: {
        ...partner.headers,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${'ab'.repeat(8)}-01`,
      },
      body: '{}',
    });
    assert.equal(res.status, 201, await res.text());
    assert.equal(otlp.spans.length, 0, 'nothing exported before the stop');
  } finally {
    stopped = await service.stop();
  }
  assert.equal(stopped, 0, service.output());
  assert.ok(otlp.contentTypes.every((type) => type.startsWith('application/x-protobuf')));
  const spans = otlp.spans.filter((span) => span.traceId === traceId);
  const server = spans.find((span) => span.kind === spanKind.server);
  assert.equal(server?.attributes['http.route'], '/mx/b2b/autofin/api/leads', JSON.stringify(spans));
  assert.equal(server?.attributes['http.response.status_code'], 201);
  const statements = spans.filter((span) => span.attributes['db.system'] === 'postgresql');
  assert.ok(
    statements.some((span) => /insert into leads/i.test(String(span.attributes['db.query.text']))),
    JSON.stringify(spans),
  );
  const lines = service
    .output()
    .split('\n')
    .filter((line) => line.includes(`"traceId":"${traceId}"`));
  assert.ok(
    lines.some((line) => line.includes('request completed')),
    service.output(),
  );
});
