/**
 * Parsing in a worker thread gives what parsing in this thread gives, refuses what it refuses with
 * the same line and reason, and leaves the event loop free meanwhile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CatalogFileError, parseVehiclesFile, parseZipCodesFile, sha256Hex, vehicleColumns } from './catalog-file.ts';
import { parseCatalogInWorker } from './catalog-parsing.ts';
import { shippedCatalogDir, shippedCatalogFiles } from './catalog-store.ts';
import { storedVehicles, storedZipCodes } from './catalog-stored-form.ts';
import { shippedFile } from '../../test/shipped-catalogs.ts';

const shipped = (kind: keyof typeof shippedCatalogFiles) =>
  readFileSync(new URL(shippedCatalogFiles[kind], shippedCatalogDir));

test('a shipped file parsed in a worker gives the stored forms parsing here gives', async () => {
  // Whole in the reliability run, a slice of each in `npm test` (test/shipped-catalogs.ts).
  const vehicles = shippedFile('vehicles');
  assert.deepEqual(await parseCatalogInWorker('vehicles', vehicles), storedVehicles(parseVehiclesFile(vehicles)));
  const zipCodes = shippedFile('zipCodes');
  assert.deepEqual(await parseCatalogInWorker('zipCodes', zipCodes), storedZipCodes(parseZipCodesFile(zipCodes)));
});

test('a refused file rejects with the CatalogFileError parsing here throws: its line and reason', async () => {
  const bytes = Buffer.from(
    `${vehicleColumns.join(',')}\n2020,1,ACME,1,ROADSTER,7,BASE,manual\n2020,1,ACME,1,ROADSTER,7,BASE,manual\n`,
  );
  const here = (() => {
    try {
      parseVehiclesFile(bytes);
    } catch (error) {
      return error;
    }
  })();
  assert.ok(here instanceof CatalogFileError);
  const there = await parseCatalogInWorker('vehicles', bytes).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(there instanceof CatalogFileError, `a CatalogFileError, got ${String(there)}`);
  assert.deepEqual([there.line, there.reason], [3, here.reason]);
  assert.match(there.message, /^line 3: version_id 7 is repeated/);
});

test('bytes that are a view on a larger buffer are parsed as those bytes only', async () => {
  const file = Buffer.from(`${vehicleColumns.join(',')}\n2020,1,ACME,1,ROADSTER,7,BASE,manual\n`);
  const around = Buffer.concat([Buffer.from('garbage before\n'), file, Buffer.from('garbage after')]);
  const view = around.subarray(15, 15 + file.length);
  const stored = await parseCatalogInWorker('vehicles', view);
  assert.equal(stored.rowCount, 1);
  assert.equal(stored.sha256, sha256Hex(file));
  assert.equal(around.toString('utf8', 0, 14), 'garbage before', 'the caller keeps its buffer');
});

test('the event loop keeps turning while the shipped ZIP codes are parsed', async () => {
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 10);
  try {
    await parseCatalogInWorker('zipCodes', shipped('zipCodes'));
  } finally {
    clearInterval(ticker);
  }
  // Parsing them here holds the event loop for the whole parse (0.5-1.5 s): no tick at all.
  assert.ok(ticks >= 10, `the event loop turned ${ticks} times during the parse`);
});
