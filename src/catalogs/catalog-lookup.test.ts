import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseVehiclesFile, parseZipCodesFile, type ZipSettlementRow } from './catalog-file.ts';
import { buildCatalogIndex, buildVehicleIndex, buildZipIndex, type CatalogIndex } from './catalog-index.ts';
import { createCatalogLookup } from './catalog-lookup.ts';

const shipped = (name: string) => readFileSync(new URL(`../../catalog-data/${name}`, import.meta.url));
const index = buildCatalogIndex(
  parseVehiclesFile(shipped('mx-vehicles.csv.gz')).rows,
  parseZipCodesFile(shipped('mx-zip-codes.csv.gz')).rows,
);
const lookup = createCatalogLookup(() => index);

test('findVersion gives the version with its year, make and model', () => {
  assert.deepEqual(lookup.findVersion(364818), {
    versionId: 364818,
    year: 2020,
    makeId: 63,
    make: 'NISSAN',
    modelId: 1061,
    model: 'VERSA',
    version: 'SENSE MT 1.6L C/A EE BA STD., 05 OCUP.',
  });
  assert.equal(lookup.findVersion(0), undefined);
  assert.equal(lookup.findVersion(-364818), undefined);
});

test('findZipCode gives the ZIP code information, or undefined', () => {
  assert.equal(lookup.findZipCode('06700')?.municipality, 'Cuauhtémoc');
  assert.equal(lookup.findZipCode('44100')?.city, 'Guadalajara');
  assert.equal(lookup.findZipCode('99999'), undefined);
});

const matchCases: [zip: string, given: string, matched: boolean, stored: string][] = [
  ['06700', 'Roma Norte', true, 'Roma Norte'],
  ['06700', 'roma norte', true, 'Roma Norte'],
  ['06700', '  ROMA   NORTE ', true, 'Roma Norte'],
  ['01000', 'san angel', true, 'San Ángel'],
  ['01000', 'SAN ÁNGEL', true, 'San Ángel'],
  ['64000', 'la finca', true, 'La Finca'],
  ['06700', 'Roma Sur', false, 'Roma Sur'],
  ['06700', 'Roma', false, 'Roma'],
  ['06700', '', false, ''],
  ['99999', 'Roma Norte', false, 'Roma Norte'],
];

for (const [zip, given, matched, stored] of matchCases) {
  test(`matchNeighborhood(${zip}, "${given}") is ${matched ? 'matched' : 'not matched'} as "${stored}"`, () => {
    assert.deepEqual(lookup.matchNeighborhood(zip, given), { matched, neighborhood: stored });
  });
}

test('ñ and ü are folded too: "Pena" matches "Peña", "Guero" matches "Güero"', () => {
  const row = (settlement: string, settlementId: string): ZipSettlementRow => ({
    zipCode: '12345',
    settlement,
    settlementType: 'Colonia',
    municipality: 'M',
    city: '',
    stateCode: '01',
    stateName: 'Aguascalientes',
    municipalityCode: '001',
    settlementId,
    zone: 'Rural',
  });
  const small: CatalogIndex = {
    vehicles: buildVehicleIndex([]),
    zipCodes: buildZipIndex([row('La Peña', '0001'), row('El Güero', '0002')]),
  };
  const smallLookup = createCatalogLookup(() => small);
  assert.deepEqual(smallLookup.matchNeighborhood('12345', 'la pena'), { matched: true, neighborhood: 'La Peña' });
  assert.deepEqual(smallLookup.matchNeighborhood('12345', 'EL GUERO'), { matched: true, neighborhood: 'El Güero' });
});

test('the lookup reads the index in force at each call', () => {
  let current: CatalogIndex = { vehicles: buildVehicleIndex([]), zipCodes: buildZipIndex([]) };
  const following = createCatalogLookup(() => current);
  assert.equal(following.findZipCode('06700'), undefined);
  current = index;
  assert.equal(following.findZipCode('06700')?.zipCode, '06700');
});
