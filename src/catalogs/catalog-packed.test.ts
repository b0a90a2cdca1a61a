import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findLine, packSnapshot, PackedCatalogError, unpackCatalog } from './catalog-packed.ts';

const vehicleLine = (versionId: number, year: number, name = `V${versionId}`) =>
  JSON.stringify([versionId, year, 1, 'MAKE', 10, 'MODEL', name, 'AUT']);

test('a packed catalog gives back every line, its key and its model year, across blocks', () => {
  const lines = Array.from({ length: 11 }, (_, i) => vehicleLine(100 + i * 3, 2018 + (i % 4), `Versión ñ ${i}`));
  const packed = unpackCatalog(packSnapshot(lines.join('\n'), 'vehicles', 4));
  assert.equal(packed.lineCount, 11);
  assert.deepEqual(
    [...packed.keys],
    lines.map((_, i) => 100 + i * 3),
  );
  assert.deepEqual(
    [...packed.years!],
    lines.map((_, i) => 2018 + (i % 4)),
  );
  // Out of order, and back: blocks inflated again after others pushed them out give the same lines.
  for (const i of [10, 0, 5, 3, 4, 9, 1, 8, 2, 7, 6, 0, 10]) assert.equal(packed.line(i), lines[i]);
  assert.equal(findLine(packed.keys, 115), 5);
  assert.equal(findLine(packed.keys, 116), -1);
});

test('a snapshot out of key order is packed in key order; ZIP codes are keyed by their digits', () => {
  const zips = [
    '["06700",["Roma Norte"],"Cuauhtémoc","CDMX","09","Ciudad de México"]',
    '["01000",["San Ángel"],"Álvaro Obregón","CDMX","09","Ciudad de México"]',
  ];
  const packed = unpackCatalog(packSnapshot(zips.join('\n'), 'zipCodes'));
  assert.deepEqual([...packed.keys], [1000, 6700]);
  assert.equal(packed.years, undefined);
  assert.equal(packed.line(0), zips[1]);
  assert.equal(packed.line(1), zips[0]);
});

test('a snapshot written by the database (spaces after commas) gives the same keys and years', () => {
  const packed = unpackCatalog(
    packSnapshot('[7, 2021, 1, "M", 2, "X", "V", "A"]\n[3, 2020, 1, "M", 2, "X", "V", "A"]', 'vehicles'),
  );
  assert.deepEqual([...packed.keys], [3, 7]);
  assert.deepEqual([...packed.years!], [2020, 2021]);
});

test('an empty catalog packs and answers nothing', () => {
  const packed = unpackCatalog(packSnapshot('', 'zipCodes'));
  assert.equal(packed.lineCount, 0);
  assert.equal(findLine(packed.keys, 1000), -1);
});

test('bytes that are not a packed catalog, or are cut short, are refused', () => {
  const good = packSnapshot([vehicleLine(1, 2020), vehicleLine(2, 2021)].join('\n'), 'vehicles');
  assert.throws(() => unpackCatalog(Buffer.from('not packed at all')), PackedCatalogError);
  assert.throws(() => unpackCatalog(good.subarray(0, good.length - 1)), PackedCatalogError);
  assert.throws(() => unpackCatalog(good.subarray(0, 20)), PackedCatalogError);
  // A Uint8Array (as a worker thread or the embedded engine hands it over) reads as a Buffer does.
  assert.equal(unpackCatalog(new Uint8Array(good)).line(1), vehicleLine(2, 2021));
});
