import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Db } from '../db/index.ts';
import { createManualClock } from '../shared/clock.ts';
import { parseVehiclesFile, parseZipCodesFile, type VehicleRow, type ZipSettlementRow } from './catalog-file.ts';
import { catalogDb, catalogMigration } from './catalog-db-fixture.ts';
import { createCatalogsRepository, type CatalogsRepository } from './catalogs.repository.ts';
import { vehiclesOfSnapshot, zipCodesOfSnapshot, type ZipCodeGroup } from './catalog-stored-form.ts';
import { unpackCatalog } from './catalog-packed.ts';
import { fullVolume } from '../../test/volume.ts';

const migratedDb = async (): Promise<Db> => (await catalogDb()).db;

/** A stored snapshot read back as what it holds, with its sha256. */
async function storedVehicles(repo: CatalogsRepository) {
  const stored = await repo.loadSnapshot('vehicles');
  return stored && { sha256: stored.sha256, catalog: vehiclesOfSnapshot(stored.snapshot) };
}
async function storedZipCodes(repo: CatalogsRepository) {
  const stored = await repo.loadSnapshot('zipCodes');
  return stored && { sha256: stored.sha256, catalog: zipCodesOfSnapshot(stored.snapshot) };
}

const vehicle = (versionId: number, version = `V${versionId}`): VehicleRow => ({
  year: 2020,
  makeId: 63,
  make: 'NISSAN',
  modelId: 1061,
  model: 'VERSA',
  versionId,
  version,
  transmission: 'manual',
});

const settlement = (zipCode: string, settlementId: string, name: string): ZipSettlementRow => ({
  zipCode,
  settlement: name,
  settlementType: 'Colonia',
  municipality: 'Cuauhtémoc',
  city: '',
  stateCode: '09',
  stateName: 'Ciudad de México',
  municipalityCode: '015',
  settlementId,
  zone: 'Urbano',
});

test('vehicles and settlements read back exactly as written, with their meta row', async () => {
  const clock = createManualClock(new Date('2026-03-01T10:00:00Z'));
  const db = await migratedDb();
  const repo = createCatalogsRepository(db, clock);
  assert.equal(await repo.meta('vehicles'), undefined);
  const vehicles = [vehicle(2, 'A "quoted" {brace}, comma \\ backslash'), vehicle(1, 'Ñandú')];
  await repo.replaceVehicles(vehicles, 'sha-v');
  const zips = [settlement('06700', '0001', 'Roma Norte'), settlement('01000', '0001', 'San Ángel')];
  await repo.replaceZipCodes(zips, 'sha-z');

  assert.deepEqual(await repo.loadVehicles(), [vehicles[1], vehicles[0]]);
  assert.deepEqual(await repo.loadZipCodes(), [zips[1], zips[0]]);
  assert.deepEqual(await repo.meta('vehicles'), {
    kind: 'vehicles',
    rowCount: 2,
    sha256: 'sha-v',
    importedAt: new Date('2026-03-01T10:00:00Z'),
  });
  assert.equal((await repo.meta('zipCodes'))?.rowCount, 2);
  await db.close();
});

/** A snapshot's ZIP codes in ZIP code order, each one's settlements sorted. */
const inOrder = (groups: ZipCodeGroup[]) =>
  groups
    .sort((a, b) => a.zipCode.localeCompare(b.zipCode))
    .map((g) => ({ ...g, settlements: [...g.settlements].sort() }));

test('an import stores its snapshot: the settlements grouped by ZIP code with the city some of them give', async () => {
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  assert.equal(await storedZipCodes(repo), undefined);
  const withCity = { ...settlement('06700', '0002', 'Roma Sur'), city: 'Ciudad de México' };
  await repo.replaceZipCodes(
    [settlement('06700', '0001', 'Roma Norte'), withCity, settlement('01000', '0001', 'San Ángel')],
    'sha',
  );
  const stored = await storedZipCodes(repo);
  assert.equal(stored?.sha256, 'sha');
  assert.deepEqual(inOrder(stored!.catalog), [
    {
      zipCode: '01000',
      settlements: ['San Ángel'],
      municipality: 'Cuauhtémoc',
      city: '',
      stateCode: '09',
      stateName: 'Ciudad de México',
    },
    {
      zipCode: '06700',
      settlements: ['Roma Norte', 'Roma Sur'],
      municipality: 'Cuauhtémoc',
      city: 'Ciudad de México',
      stateCode: '09',
      stateName: 'Ciudad de México',
    },
  ]);
  await db.close();
});

test('an import stores its snapshot: the vehicles by version id, with the sha256 of the same import', async () => {
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  assert.equal(await storedVehicles(repo), undefined);
  const vehicles = [vehicle(2, 'A "quoted" {brace}, comma \\ backslash'), vehicle(1, 'Ñandú')];
  await repo.replaceVehicles(vehicles, 'sha-1');
  assert.deepEqual(await storedVehicles(repo), { sha256: 'sha-1', catalog: [vehicles[1], vehicles[0]] });
  await repo.replaceVehicles([vehicle(3)], 'sha-2');
  assert.deepEqual(await storedVehicles(repo), { sha256: 'sha-2', catalog: [vehicle(3)] });
  await db.close();
});

test('migrations 014, 020 and 021 give the catalogs imported before them the forms an import writes now', async () => {
  const vehicles = [vehicle(2, 'Ñandú'), vehicle(1)];
  const zips = [
    settlement('06700', '0002', 'Roma Sur'),
    { ...settlement('06700', '0001', 'Roma Norte'), city: 'CDMX' },
    settlement('01000', '0001', 'San Ángel'),
  ];
  // Imported before: the rows and meta rows as the imports before migration 014 wrote them.
  const { db: before, engine } = await catalogDb({ snapshots: false });
  const plain = createCatalogsRepository(before);
  await before.query(
    `insert into catalog_vehicle (version_id, year, make_id, make, model_id, model, version, transmission)
    select * from json_to_recordset($1::json) as r(version_id int, year int, make_id int, make text, model_id int,
      model text, version text, transmission text)`,
    [
      JSON.stringify(
        vehicles.map((v) => ({
          version_id: v.versionId,
          year: v.year,
          make_id: v.makeId,
          make: v.make,
          model_id: v.modelId,
          model: v.model,
          version: v.version,
          transmission: v.transmission,
        })),
      ),
    ],
  );
  await before.query(
    `insert into catalog_zip_settlement (zip_code, settlement, settlement_type, municipality, city,
      state_code, state_name, municipality_code, settlement_id, zone)
    select * from json_to_recordset($1::json) as r(zip_code text, settlement text, settlement_type text,
      municipality text, city text, state_code text, state_name text, municipality_code text, settlement_id text,
      zone text)`,
    [
      JSON.stringify(
        zips.map((z) => ({
          zip_code: z.zipCode,
          settlement: z.settlement,
          settlement_type: z.settlementType,
          municipality: z.municipality,
          city: z.city,
          state_code: z.stateCode,
          state_name: z.stateName,
          municipality_code: z.municipalityCode,
          settlement_id: z.settlementId,
          zone: z.zone,
        })),
      ),
    ],
  );
  await before.query(`insert into catalog_meta (kind, row_count, sha256, imported_at)
    values ('vehicles', 2, 'sha-v', now()), ('zipCodes', 3, 'sha-z', now())`);
  await engine.exec(catalogMigration('014_catalog_snapshots.sql'));
  await engine.exec(catalogMigration('020_catalog_snapshot_lines.sql'));
  // Imported now.
  const now = await migratedDb();
  const repo = createCatalogsRepository(now);
  await repo.replaceVehicles(vehicles, 'sha-v');
  await repo.replaceZipCodes(zips, 'sha-z');

  const byVersion = (rows: VehicleRow[] | undefined) => rows?.sort((a, b) => a.versionId - b.versionId);
  assert.deepEqual(byVersion((await storedVehicles(plain))?.catalog), byVersion((await storedVehicles(repo))?.catalog));
  const migrated = await storedZipCodes(plain);
  assert.equal(migrated?.sha256, 'sha-z');
  assert.deepEqual(inOrder(migrated!.catalog), inOrder((await storedZipCodes(repo))!.catalog));
  assert.equal(inOrder(migrated!.catalog)[1].city, 'CDMX');

  // Migration 021 adds the packed form; the first load packs each snapshot and stores it, once.
  await engine.exec(catalogMigration('021_catalog_packed.sql'));
  const packedCount = async () =>
    Number((await before.query<{ n: number }>('select count(packed)::int as n from catalog_meta')).rows[0].n);
  assert.equal(await packedCount(), 0);
  const upgradedForms: Uint8Array[] = [];
  for (const kind of ['vehicles', 'zipCodes'] as const) {
    const upgraded = await plain.loadPacked(kind);
    upgradedForms.push(upgraded!.packed);
    const written = await repo.loadPacked(kind);
    assert.equal(upgraded?.sha256, written?.sha256);
    const [a, b] = [unpackCatalog(upgraded!.packed), unpackCatalog(written!.packed)];
    assert.deepEqual([...a.keys], [...b.keys], kind);
    assert.deepEqual(a.years && [...a.years], b.years && [...b.years], kind);
    // The settlements of a ZIP code may come in another order (the answer sorts them).
    const entry = (line: string) => {
      const values = JSON.parse(line) as unknown[];
      return kind === 'zipCodes' ? [values[0], [...(values[1] as string[])].sort(), ...values.slice(2)] : values;
    };
    for (let i = 0; i < a.lineCount; i++) assert.deepEqual(entry(a.line(i)), entry(b.line(i)), kind);
  }
  assert.equal(await packedCount(), 2);
  // Stored as packed: later loads read it back as it is.
  assert.deepEqual(Buffer.from((await plain.loadPacked('vehicles'))!.packed), Buffer.from(upgradedForms[0]));
  await before.close();
  await now.close();
});

test('a replace removes every old row', async () => {
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  await repo.replaceVehicles([vehicle(1), vehicle(2), vehicle(3)], 'old');
  await repo.replaceVehicles([vehicle(4)], 'new');
  assert.deepEqual(
    (await repo.loadVehicles()).map((v) => v.versionId),
    [4],
  );
  assert.equal((await repo.meta('vehicles'))?.sha256, 'new');
  await db.close();
});

test('a replace that fails part way leaves the old catalog and its meta untouched', async () => {
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  await repo.replaceVehicles([vehicle(1), vehicle(2)], 'old');
  // The repeated key is the last row, after the delete has run and the other rows were copied.
  const rows = Array.from({ length: 5_010 }, (_, i) => vehicle(100 + i));
  rows.push(vehicle(100));
  await assert.rejects(repo.replaceVehicles(rows, 'new'), /duplicate key/);
  assert.deepEqual(
    (await repo.loadVehicles()).map((v) => v.versionId),
    [1, 2],
  );
  assert.equal((await repo.meta('vehicles'))?.sha256, 'old');
  assert.deepEqual(await storedVehicles(repo), { sha256: 'old', catalog: [vehicle(1), vehicle(2)] });
  await db.close();
});

test('a reader during a replace sees the old catalog or the new one, never a mix', async () => {
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  const old = Array.from({ length: 15_000 }, (_, i) => vehicle(i + 1));
  await repo.replaceVehicles(old, 'old');
  const fresh = Array.from({ length: 15_000 }, (_, i) => vehicle(100_000 + i));
  const counts: number[] = [];
  const reads = Array.from({ length: 5 }, () =>
    db
      .query<{ n: number; fresh: number }>(
        'select count(*)::int as n, count(*) filter (where version_id >= 100000)::int as fresh from catalog_vehicle',
      )
      .then((r) => counts.push(r.rows[0].n === r.rows[0].fresh ? -r.rows[0].n : r.rows[0].fresh)),
  );
  await Promise.all([repo.replaceVehicles(fresh, 'new'), ...reads]);
  // -N: N rows all new; 0: only old rows. Anything else would be a mix.
  for (const c of counts) assert.ok(c === 0 || c === -fresh.length, `a reader saw a mix: ${counts}`);
  await db.close();
});

// `npm test` imports a slice of each shipped file (every ZIP code of Mexico City's 06xxx included);
// `npm run test:reliability` the whole files (test/volume.ts).
test(`the shipped catalogs import ${fullVolume ? 'in full' : 'in part'} and read back unchanged`, async () => {
  const db = await migratedDb();
  const repo = createCatalogsRepository(db);
  const vehicles = parseVehiclesFile(readFileSync(new URL('../../catalog-data/mx-vehicles.csv.gz', import.meta.url)));
  const zips = parseZipCodesFile(readFileSync(new URL('../../catalog-data/mx-zip-codes.csv.gz', import.meta.url)));
  if (!fullVolume) {
    vehicles.rows = vehicles.rows.slice(0, 5_000);
    zips.rows = zips.rows.filter((z) => z.zipCode.startsWith('06') || z.zipCode.startsWith('64'));
  }

  let started = performance.now();
  await repo.replaceVehicles(vehicles.rows, vehicles.sha256);
  const vehicleMs = performance.now() - started;
  started = performance.now();
  await repo.replaceZipCodes(zips.rows, zips.sha256);
  const zipMs = performance.now() - started;
  console.log(
    `${db.engine} COPY: vehicles ${vehicles.rows.length} rows in ${vehicleMs.toFixed(0)} ms, ` +
      `ZIP settlements ${zips.rows.length} rows in ${zipMs.toFixed(0)} ms`,
  );

  started = performance.now();
  const loadedVehicles = await repo.loadVehicles();
  const loadedZips = await repo.loadZipCodes();
  console.log(`${db.engine} load of both catalogs: ${(performance.now() - started).toFixed(0)} ms`);
  const byVersion = (a: VehicleRow, b: VehicleRow) => a.versionId - b.versionId;
  assert.deepEqual(loadedVehicles, [...vehicles.rows].sort(byVersion));
  assert.equal(loadedZips.length, fullVolume ? 155_847 : zips.rows.length);
  assert.deepEqual(
    loadedZips.filter((z) => z.zipCode === '06700'),
    zips.rows.filter((z) => z.zipCode === '06700'),
  );
  assert.deepEqual(await repo.meta('zipCodes').then((m) => [m?.rowCount, m?.sha256]), [loadedZips.length, zips.sha256]);
  await db.close();
});
