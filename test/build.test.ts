/**
 * The build `npm start` runs (scripts/build.mjs): one bundle in dist/, the packages that read files of
 * their own folder left outside it, the service's own files found from the project's folder, and a
 * current build not made again at every start.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  projectRoot,
  serviceArgs,
  startEnvironment,
  startNodeOptions,
  startServiceProcess,
} from './processes/index.ts';
import { isBuiltin } from 'node:module';
import { openDatabase } from '../src/db/index.ts';

const inRoot = (...parts: string[]) => join(projectRoot, ...parts);

before(() => {
  serviceArgs(); // brings the build up to date, as the whole-process tests do
});

/** The packages a bundle imports (not the ones bundled into it). */
function packagesImportedBy(file: string): string[] {
  const bundle = readFileSync(inRoot('dist', file), 'utf8');
  const specifiers = [...bundle.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
  const packageOf = (specifier: string) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/');
  return [...new Set(specifiers.filter((s) => !isBuiltin(s)).map(packageOf))].sort();
}

test('dist/ holds the entry, the bundles, their chunks and source maps, the prepared database and the stamp', () => {
  assert.deepEqual(readdirSync(inRoot('dist')).sort(), [
    '.built',
    'catalog-parse-worker.js',
    'catalog-parse-worker.js.map',
    'chunks',
    'embedded-database',
    'embedded-template.js',
    'embedded-template.js.map',
    'main.js',
    'service.js',
    'service.js.map',
    'tracing.js',
    'tracing.js.map',
  ]);
  // The entry turns on the compile cache, then imports the service's bundle.
  const entry = readFileSync(inRoot('dist', 'main.js'), 'utf8');
  assert.match(entry, /module\.enableCompileCache\?\.\(\);\nawait import\("\.\/service\.js"\);/);
  assert.deepEqual(packagesImportedBy('main.js'), []);
  // pino reads files of its own folder at run time (scripts/build.mjs says which; the Swagger packages are
  // bundled and given theirs). pg too: tracing's instrumentation patches it where it is loaded from node_modules.
  assert.deepEqual(packagesImportedBy('service.js'), ['pg', 'pino']);
  // Tracing's SDK, loaded only when tracing is configured (src/tracing/index.ts).
  assert.deepEqual(packagesImportedBy('tracing.js'), []);
  // The worker the catalog files are parsed in (src/shared/worker-threads.ts starts it from dist/).
  assert.deepEqual(packagesImportedBy('catalog-parse-worker.js'), []);
  // What only some configurations use is a chunk, imported where it is first needed.
  const chunks = readdirSync(inRoot('dist', 'chunks')).filter((name) => name.endsWith('.js'));
  for (const name of ['undici', 'nodemailer', 'pg-copy-streams']) {
    assert.ok(
      chunks.some((chunk) => chunk.startsWith(`${name}-`)),
      `no chunk of ${name} in ${chunks.join(', ')}`,
    );
  }
  const service = readFileSync(inRoot('dist', 'service.js'), 'utf8');
  // PGlite is imported when an embedded database is opened, never by a start on PostgreSQL.
  assert.match(service, /await import\("@electric-sql\/pglite"\)/);
  // No ES import of node:http: on Node 24 it loads Node's own HTTP client at every start.
  assert.doesNotMatch(service, /^import [^;]* from "node:http";/m);
});

test('the prepared embedded database holds the migrations and both catalogs, and nothing of an installation', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'autofin-prepared-'));
  try {
    cpSync(inRoot('dist', 'embedded-database', 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
    const db = await openDatabase({ dataDir });
    try {
      const applied = await db.query<{ version: number }>('select max(version) as version from schema_migrations');
      const migrations = readdirSync(inRoot('src', 'db', 'migrations')).filter((f) => f.endsWith('.sql'));
      assert.equal(Number(applied.rows[0]!.version), migrations.length);
      const meta = await db.query<{ kind: string; row_count: number }>(
        'select kind, row_count from catalog_meta order by kind',
      );
      assert.deepEqual(
        meta.rows.map((r) => r.kind),
        ['vehicles', 'zipCodes'],
      );
      for (const row of meta.rows) assert.ok(row.row_count > 1000, `${row.kind}: ${row.row_count} rows`);
      for (const table of ['companies', 'credentials', 'operators', 'leads']) {
        const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
        assert.equal(rows[0]!.n, 0, `${table} is empty`);
      }
    } finally {
      await db.close();
    }
    assert.deepEqual(readdirSync(inRoot('dist', 'embedded-database')).sort(), ['key', 'pgdata']);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the bundled service finds its own files and its packages theirs: stylesheet, API document and page, guide', async () => {
  const service = await startServiceProcess({ ADMIN_TOKEN: 'a'.repeat(32), AUTOFIN_ENV: 'sandbox' });
  try {
    const ready = await fetch(`${service.base}/health/ready`);
    // The migrations ran and the shipped catalogs were imported, parsed by dist/catalog-parse-worker.js.
    assert.equal(ready.status, 200);
    const css = await fetch(`${service.base}/console/assets/console.css`);
    assert.equal(css.status, 200);
    assert.equal(await css.text(), readFileSync(inRoot('src', 'console', 'assets', 'console.css'), 'utf8'));
    const document = await fetch(`${service.base}/mx/b2b/autofin/api/openapi.json`);
    assert.equal(document.status, 200);
    assert.equal(((await document.json()) as { info: { title: string } }).info.title.length > 0, true);
    const page = await fetch(`${service.base}/docs/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /swagger-ui/i);
    // Swagger UI's own files, found in its folder of node_modules by the bundle; the document in YAML.
    const script = await fetch(`${service.base}/docs/static/swagger-ui-bundle.js`);
    assert.equal(script.status, 200);
    assert.equal(
      await script.text(),
      readFileSync(inRoot('node_modules', '@fastify', 'swagger-ui', 'static', 'swagger-ui-bundle.js'), 'utf8'),
    );
    const logo = await fetch(`${service.base}/docs/static/logo.svg`);
    assert.equal(logo.status, 200);
    assert.match(logo.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    const yaml = await fetch(`${service.base}/docs/yaml`);
    assert.equal(yaml.status, 200);
    assert.match(await yaml.text(), /^openapi: 3\.1\.0\n/);
    const guide = await fetch(`${service.base}/docs/sandbox.md`);
    assert.equal(await guide.text(), readFileSync(inRoot('docs', 'sandbox.md'), 'utf8'));
  } finally {
    await service.stop();
  }
});

test('npm start and the whole-process tests start the service with the same memory settings', async () => {
  const { scripts } = JSON.parse(readFileSync(inRoot('package.json'), 'utf8')) as { scripts: Record<string, string> };
  const assignments = Object.entries(startEnvironment).map(([name, value]) => `${name}=${value}`);
  assert.equal(
    scripts.start,
    `${assignments.join(' ')} node ${startNodeOptions.join(' ')} --env-file-if-exists=.env dist/main.js`,
  );
  const service = await startServiceProcess({ ADMIN_TOKEN: 'a'.repeat(32) });
  try {
    const environ = readFileSync(`/proc/${service.pid}/environ`, 'utf8').split('\0');
    for (const assignment of assignments) assert.ok(environ.includes(assignment), assignment);
    const args = readFileSync(`/proc/${service.pid}/cmdline`, 'utf8').split('\0');
    for (const option of startNodeOptions) assert.ok(args.includes(option), option);
  } finally {
    await service.stop();
  }
});

test('a build newer than every source is not made again', () => {
  const stamp = inRoot('dist', '.built');
  const before = statSync(stamp).mtimeMs;
  const out = execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  assert.equal(out, '');
  assert.equal(statSync(stamp).mtimeMs, before);
});
