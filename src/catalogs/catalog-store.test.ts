import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Db } from '../db/index.ts';
import {
  CatalogFileError,
  parseVehiclesFile,
  parseZipCodesFile,
  sha256Hex,
  vehicleColumns,
  zipCodeColumns,
} from './catalog-file.ts';
import { buildZipIndex } from './catalog-index.ts';
import { catalogDb } from './catalog-db-fixture.ts';
import { createCatalogsRepository } from './catalogs.repository.ts';
import {
  CatalogsNotLoadedError,
  createCatalogStore,
  parseShippedCatalogs,
  shippedCatalogDir,
  shippedCatalogFiles,
} from './catalog-store.ts';
import { fullVolume } from '../../test/volume.ts';
import { shippedDir, shippedFile } from '../../test/shipped-catalogs.ts';

const migratedDb = async (): Promise<Db> => (await catalogDb()).db;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const csv = (...lines: string[]) => Buffer.from(lines.join('\n') + '\n', 'utf8');
const tinyVehicles = csv(vehicleColumns.join(','), '2031,1,ACME,1,ROADSTER,7,BASE,manual');
const tinyZips = csv(zipCodeColumns.join(','), '99001,Centro,Colonia,Ejemplo,,32,Zacatecas,001,0001,Urbano');

test('the shipped folder resolves from the module to the shipped files', () => {
  assert.ok(shippedCatalogDir.pathname.endsWith('/catalog-data/'));
  const bytes = readFileSync(new URL(shippedCatalogFiles.vehicles, shippedCatalogDir));
  assert.equal(sha256Hex(bytes), '496a4acc120eaf7b1f650d0f3bd04ed0e0a76ed6067a914ca40507c43bd37d6a');
});

test('the store refuses to serve before the catalogs are loaded', () => {
  const store = createCatalogStore();
  assert.equal(store.isLoaded(), false);
  assert.throws(() => store.current(), CatalogsNotLoadedError);
  assert.throws(() => store.lookup.findZipCode('06700'), CatalogsNotLoadedError);
});

const shippedRows = {
  vehicles: fullVolume ? 39_712 : parseVehiclesFile(shippedFile('vehicles')).rows.length,
  zipCodes: fullVolume ? 155_847 : parseZipCodesFile(shippedFile('zipCodes')).rows.length,
};

// One database through the shipped-data tests below, as an instance's life: first start, restart. Made
// when the first of them runs: made at import, it would boot beside the tests of the files run before this
// one in the same process.
let sharedDb: Promise<Db> | undefined;
const shared = () => (sharedDb ??= migratedDb());

test('first start imports both shipped catalogs into empty tables and serves them', async () => {
  const repo = createCatalogsRepository(await shared());
  const store = createCatalogStore();
  const started = performance.now();
  const imported = await store.importShippedIfEmpty(repo, shippedDir ? { dir: shippedDir } : {});
  console.log(
    `first start (parse + PGlite import + index of both catalogs): ${(performance.now() - started).toFixed(0)} ms`,
  );
  assert.deepEqual(
    imported.map((i) => [i.kind, i.rowCount]),
    [
      ['vehicles', shippedRows.vehicles],
      ['zipCodes', shippedRows.zipCodes],
    ],
  );
  assert.equal(store.current().zipCodes.info('06700')?.neighborhoods[0], 'Roma Norte');
  assert.equal(store.lookup.findVersion(372199)?.model, 'VERSA');
  globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  console.log(`after first start: heapUsed ${mib(heapUsed)}, rss ${mib(rss)} (PGlite included)`);
});

test('a restart imports nothing, loads the tables, and renders the same ETags', async () => {
  const repo = createCatalogsRepository(await shared());
  const first = createCatalogStore();
  await first.loadFromDatabase(repo);
  const store = createCatalogStore();
  const started = performance.now();
  assert.deepEqual(await store.importShippedIfEmpty(repo, shippedDir ? { dir: shippedDir } : {}), []);
  console.log(`restart (load both catalogs from PGlite + index): ${(performance.now() - started).toFixed(0)} ms`);
  const etag = (s: typeof store) => s.current().vehicles.versions(2020, 63, 1061)?.render('xml').etag;
  assert.equal(etag(store), etag(first));
  assert.equal(store.current().zipCodes.info('64000')?.state.id, '19');
});

test(
  'after a restart every ZIP code answers the same JSON ' + 'and XML bodies as the index built from the file',
  async () => {
    const repo = createCatalogsRepository(await shared());
    const restarted = createCatalogStore();
    await restarted.loadFromDatabase(repo);
    const file = shippedFile('zipCodes');
    const fromFile = buildZipIndex(parseZipCodesFile(file).rows);
    const zips = restarted.current().zipCodes;
    assert.equal(zips.zipCodeCount, fromFile.zipCodeCount);
    let compared = 0;
    for (let n = 0; n < 100_000; n++) {
      const code = String(n).padStart(5, '0');
      const expected = fromFile.zipCode(code);
      assert.equal(zips.zipCode(code) === undefined, expected === undefined, code);
      if (!expected) continue;
      assert.equal(zips.zipCode(code)!.render('json').etag, expected.render('json').etag, code);
      if (n % 7 === 0) assert.deepEqual(zips.zipCode(code)!.render('xml'), expected.render('xml'), code);
      compared++;
    }
    assert.equal(compared, fromFile.zipCodeCount);
  },
);

test('a malformed import is refused and changes neither the tables nor the index', async () => {
  const repo = createCatalogsRepository(await shared());
  const store = createCatalogStore();
  await store.loadFromDatabase(repo);
  const before = store.current();
  const bad = gzipSync(csv(zipCodeColumns.join(','), '06700,Roma Norte,Colonia,Cuauhtémoc,,9,CDMX,015,0001,Urbano'));
  await assert.rejects(
    store.importFile(repo, 'zipCodes', bad),
    (err: unknown) => err instanceof CatalogFileError && err.line === 2,
  );
  assert.equal(store.current(), before);
  assert.equal((await repo.meta('zipCodes'))?.rowCount, shippedRows.zipCodes);
});

test('an import swaps the index at once; other instances pick it up with refreshIfChanged', async () => {
  const repo = createCatalogsRepository(await shared());
  const [importer, other] = [createCatalogStore(), createCatalogStore()];
  await importer.loadFromDatabase(repo);
  await other.loadFromDatabase(repo);
  const before = importer.current();
  assert.deepEqual(await importer.importFile(repo, 'vehicles', tinyVehicles), {
    kind: 'vehicles',
    rowCount: 1,
    sha256: sha256Hex(tinyVehicles),
  });
  assert.deepEqual(importer.current().vehicles.years().value, [{ id: '2031', name: '2031' }]);
  assert.equal(importer.current().zipCodes, before.zipCodes, 'the ZIP catalog is kept as it was');
  assert.equal(before.vehicles.version(372199)?.model, 'VERSA', 'a request holding the old index still reads it whole');
  assert.equal(importer.lookup.findVersion(372199), undefined);

  assert.equal(other.lookup.findVersion(7), undefined);
  assert.deepEqual(await other.refreshIfChanged(repo), ['vehicles']);
  assert.equal(other.lookup.findVersion(7)?.make, 'ACME');
  assert.deepEqual(await other.refreshIfChanged(repo), []);
});

test('the shipped folder may also be given as a path; present catalogs are not re-imported', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-catalogs-'));
  writeFileSync(join(dir, shippedCatalogFiles.vehicles), gzipSync(tinyVehicles));
  writeFileSync(join(dir, shippedCatalogFiles.zipCodes), tinyZips);
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  await repo.replaceVehicles(
    [
      {
        year: 2030,
        makeId: 2,
        make: 'OTHER',
        modelId: 2,
        model: 'M',
        versionId: 9,
        version: 'V',
        transmission: 'automatic',
      },
    ],
    'x',
  );
  const store = createCatalogStore();
  assert.deepEqual(
    (await store.importShippedIfEmpty(repo, { dir })).map((i) => i.kind),
    ['zipCodes'],
  );
  assert.equal(store.lookup.findVersion(9)?.make, 'OTHER');
  assert.deepEqual(store.lookup.findZipCode('99001')?.city, 'Ejemplo');
  await db.close();
});

test('with storeAfter, the shipped files are parsed at once but nothing is written until it settles', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-catalogs-'));
  writeFileSync(join(dir, shippedCatalogFiles.vehicles), tinyVehicles);
  writeFileSync(join(dir, shippedCatalogFiles.zipCodes), tinyZips);
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  const store = createCatalogStore();
  let listening = () => {};
  const importing: string[] = [];
  const imported = store.importShippedIfEmpty(repo, {
    dir,
    onImporting: (kind) => importing.push(kind),
    storeAfter: new Promise<void>((resolve) => (listening = resolve)),
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(importing.sort(), ['vehicles', 'zipCodes'], 'both files are being parsed');
  assert.equal(await repo.meta('vehicles'), undefined);
  assert.equal(await repo.meta('zipCodes'), undefined);
  assert.equal(store.isLoaded(), false);
  listening();
  assert.deepEqual(
    (await imported).map((i) => [i.kind, i.rowCount]),
    [
      ['vehicles', 1],
      ['zipCodes', 1],
    ],
  );
  assert.equal((await repo.meta('zipCodes'))?.sha256, sha256Hex(tinyZips));
  assert.equal(store.lookup.findVersion(7)?.make, 'ACME');
  await db.close();
});

test('shipped files parsed ahead (a new embedded database) are stored as parsed, the larger first', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-catalogs-'));
  writeFileSync(join(dir, shippedCatalogFiles.vehicles), tinyVehicles);
  writeFileSync(
    join(dir, shippedCatalogFiles.zipCodes),
    csv(
      zipCodeColumns.join(','),
      ...Array.from({ length: 50 }, (_, i) => `${99100 + i},Centro,Colonia,Ejemplo,,32,Zacatecas,001,0001,Urbano`),
    ),
  );
  const parsing = parseShippedCatalogs(['vehicles', 'zipCodes'], dir);
  assert.deepEqual(
    (await parsing).map((p) => p.kind),
    ['zipCodes', 'vehicles'],
    'the larger file first',
  );
  await Promise.all((await parsing).map((p) => p.parsed));
  // The files are gone: what is stored can only come from the parses handed in.
  rmSync(dir, { recursive: true });
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  const store = createCatalogStore();
  const importing: string[] = [];
  const onImporting = (kind: string) => importing.push(kind);
  const imported = await store.importShippedIfEmpty(repo, { dir, parsing, onImporting });
  assert.deepEqual(
    imported.map((i) => [i.kind, i.rowCount]),
    [
      ['vehicles', 1],
      ['zipCodes', 50],
    ],
  );
  assert.deepEqual(importing, ['zipCodes', 'vehicles']);
  assert.equal(store.lookup.findVersion(7)?.make, 'ACME');
  assert.equal(store.lookup.findZipCode('99149')?.city, 'Ejemplo');
  await db.close();
});

test('parses handed in for other catalogs than the missing ones are not used', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-catalogs-'));
  writeFileSync(join(dir, shippedCatalogFiles.vehicles), tinyVehicles);
  writeFileSync(join(dir, shippedCatalogFiles.zipCodes), tinyZips);
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  await repo.replaceVehicles(
    [
      {
        year: 2030,
        makeId: 2,
        make: 'OTHER',
        modelId: 2,
        model: 'M',
        versionId: 9,
        version: 'V',
        transmission: 'automatic',
      },
    ],
    'x',
  );
  const store = createCatalogStore();
  const parsing = parseShippedCatalogs(['vehicles', 'zipCodes'], dir);
  assert.deepEqual(
    (await store.importShippedIfEmpty(repo, { dir, parsing })).map((i) => i.kind),
    ['zipCodes'],
  );
  assert.equal(store.lookup.findVersion(9)?.make, 'OTHER', 'the stored vehicles are kept');
  assert.equal(store.lookup.findVersion(7), undefined);
  await db.close();
});

test('an unreadable shipped file handed in fails the import with its error', async () => {
  const parsing = parseShippedCatalogs(['vehicles'], join(tmpdir(), 'autofin-no-such-folder'));
  const db = await migratedDb();
  const store = createCatalogStore();
  await assert.rejects(store.importShippedIfEmpty(createCatalogsRepository(db), { parsing }), { code: 'ENOENT' });
  await db.close();
});

test('closes the shared database', async () => {
  await (await shared()).close();
});
