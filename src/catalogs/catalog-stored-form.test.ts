import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VehicleRow, ZipSettlementRow } from './catalog-file.ts';
import {
  copyText,
  groupZipRows,
  storedVehicles,
  storedZipCodes,
  vehiclesOfSnapshot,
  vehicleTable,
  zipCodesOfSnapshot,
  zipTable,
} from './catalog-stored-form.ts';

const vehicle = (versionId: number, version: string): VehicleRow => ({
  year: 2020,
  makeId: 63,
  make: 'NISSAN',
  modelId: 1061,
  model: 'VERSA',
  versionId,
  version,
  transmission: 'manual',
});
const settlement = (zipCode: string, settlementId: string, name: string, city = ''): ZipSettlementRow => ({
  zipCode,
  settlement: name,
  settlementType: 'Colonia',
  municipality: 'Cuauhtémoc',
  city,
  stateCode: '09',
  stateName: 'Ciudad de México',
  municipalityCode: '015',
  settlementId,
  zone: 'Urbano',
});

test(
  "the COPY text has a line a row in the table's column " + 'order: numbers bare, every text quoted, quotes doubled',
  () => {
    assert.equal(
      copyText(vehicleTable, [vehicle(7, 'SENSE "PLUS", 1.6'), vehicle(8, 'Ñ {x} \\')]),
      '7,2020,63,"NISSAN",1061,"VERSA","SENSE ""PLUS"", 1.6","manual"\n' +
        '8,2020,63,"NISSAN",1061,"VERSA","Ñ {x} \\","manual"\n',
    );
    // An empty city is "" (an empty string), not an empty field (which a COPY reads as NULL).
    assert.equal(
      copyText(zipTable, [settlement('06700', '0001', 'Roma Norte')]),
      '"06700","Roma Norte","Colonia","Cuauhtémoc","","09","Ciudad de México","015","0001","Urbano"\n',
    );
    assert.equal(copyText(zipTable, []), '');
  },
);

test('a snapshot reads back as the rows (vehicles) and the groups (ZIP codes) it was made of, in key order', () => {
  const vehicles = [vehicle(8, 'ADVANCE'), vehicle(7, 'SENSE')];
  const stored = storedVehicles({ rows: vehicles, sha256: 'sha-v' });
  assert.deepEqual([stored.kind, stored.rowCount, stored.sha256], ['vehicles', 2, 'sha-v']);
  assert.deepEqual(vehiclesOfSnapshot(stored.snapshot), [vehicles[1], vehicles[0]], 'by version id');

  const rows = [
    settlement('06700', '0001', 'Roma Norte'),
    settlement('06700', '0002', 'Roma Sur', 'Ciudad de México'),
    settlement('01000', '0001', 'San Ángel'),
  ];
  const zips = storedZipCodes({ rows, sha256: 'sha-z' });
  assert.equal(zips.rowCount, 3);
  const groups = groupZipRows(rows);
  assert.deepEqual(zipCodesOfSnapshot(zips.snapshot), [groups[1], groups[0]], 'by ZIP code');
  assert.equal(zips.snapshot.split('\n').length, 2, 'a line a ZIP code');
  assert.deepEqual(groups[0], {
    zipCode: '06700',
    settlements: ['Roma Norte', 'Roma Sur'],
    municipality: 'Cuauhtémoc',
    city: 'Ciudad de México',
    stateCode: '09',
    stateName: 'Ciudad de México',
  });
});
