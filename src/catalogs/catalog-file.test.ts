import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import {
  CatalogFileError,
  parseCatalogFile,
  parseVehiclesFile,
  parseZipCodesFile,
  vehicleColumns,
  zipCodeColumns,
} from './catalog-file.ts';

const shipped = (name: string) => readFileSync(new URL(`../../catalog-data/${name}`, import.meta.url));
const csv = (...lines: string[]) => Buffer.from(lines.join('\n') + '\n', 'utf8');

const vehicleHeader = vehicleColumns.join(',');
const zipHeader = zipCodeColumns.join(',');
const versa = '2020,63,NISSAN,1061,VERSA,372199,NUEVO SENSE 4P L4 1.6L ABS BA EBD AC CVT 5 OCUP,automatic';
const versa2 = '2020,63,NISSAN,1061,VERSA,372200,NUEVO SENSE 4P L4 1.6L ABS BA EBD AC STD 5 OCUP,manual';
const roma = '06700,Roma Norte,Colonia,Cuauhtémoc,Ciudad de México,09,Ciudad de México,015,0001,Urbano';

/** Asserts the file is refused at `line` with a reason matching `reason`. */
function assertRefused(parse: () => unknown, line: number, reason: RegExp): void {
  assert.throws(parse, (err: unknown) => {
    assert.ok(err instanceof CatalogFileError, `expected CatalogFileError, got ${String(err)}`);
    assert.equal(err.line, line, err.message);
    assert.match(err.reason, reason);
    if (line > 0) assert.match(err.message, new RegExp(`^line ${line}: `));
    return true;
  });
}

test('the shipped vehicle file parses whole, with the checksum the README states', () => {
  const file = parseVehiclesFile(shipped('mx-vehicles.csv.gz'));
  assert.equal(file.rows.length, 39_712);
  assert.equal(file.sha256, '496a4acc120eaf7b1f650d0f3bd04ed0e0a76ed6067a914ca40507c43bd37d6a');
  const row = file.rows.find((r) => r.versionId === 372199);
  assert.deepEqual(row, {
    year: 2020,
    makeId: 63,
    make: 'NISSAN',
    modelId: 1061,
    model: 'VERSA',
    versionId: 372199,
    version: 'NUEVO SENSE 4P L4 1.6L ABS BA EBD AC CVT 5 OCUP',
    transmission: 'automatic',
  });
});

test('the shipped ZIP code file parses whole, with the checksum the README states', () => {
  const file = parseCatalogFile('zipCodes', shipped('mx-zip-codes.csv.gz'));
  assert.equal(file.rows.length, 155_847);
  assert.equal(new Set(file.rows.map((r) => r.zipCode)).size, 32_009);
  assert.equal(file.sha256, '9f91290c74e3da8d7af11098644bd3720ec852884a025df1d19bae615b342cc5');
  assert.deepEqual(file.rows[0], {
    zipCode: '01000',
    settlement: 'San Ángel',
    settlementType: 'Colonia',
    municipality: 'Álvaro Obregón',
    city: 'Ciudad de México',
    stateCode: '09',
    stateName: 'Ciudad de México',
    municipalityCode: '010',
    settlementId: '0001',
    zone: 'Urbano',
  });
});

test('plain and gzip-compressed files give the same rows; only the checksum of the bytes differs', () => {
  const plain = csv(vehicleHeader, versa, versa2);
  const zipped = gzipSync(plain);
  const a = parseVehiclesFile(plain);
  const b = parseVehiclesFile(zipped);
  assert.deepEqual(a.rows, b.rows);
  assert.notEqual(a.sha256, b.sha256);
});

test('CRLF line endings, a byte-order mark and trailing blank lines are accepted', () => {
  const text = `\ufeff${vehicleHeader}\r\n${versa}\r\n${versa2}\r\n\r\n`;
  assert.equal(parseVehiclesFile(Buffer.from(text)).rows.length, 2);
});

test('a header with other, missing or reordered columns is refused at line 1', () => {
  assertRefused(
    () => parseVehiclesFile(csv('year,make_id,make,model_id,model,version_id,version', versa)),
    1,
    /header must be exactly/,
  );
  const reordered = ['make_id', 'year', ...vehicleColumns.slice(2)].join(',');
  assertRefused(() => parseVehiclesFile(gzipSync(csv(reordered, versa))), 1, /header must be exactly/);
  assertRefused(() => parseZipCodesFile(csv(vehicleHeader, versa)), 1, /header must be exactly "zip_code,/);
});

test('empty files, header-only files and corrupt gzip data are refused', () => {
  assertRefused(() => parseVehiclesFile(Buffer.alloc(0)), 1, /empty/);
  assertRefused(() => parseVehiclesFile(csv(vehicleHeader)), 0, /no rows/);
  const zipped = gzipSync(csv(vehicleHeader, versa));
  assertRefused(() => parseVehiclesFile(zipped.subarray(0, zipped.length - 10)), 0, /gzip/);
});

test('a bad row is refused with its line number, in plain and gzip files alike', () => {
  const bad = versa2.replace(',manual', ',cvt');
  for (const encode of [(b: Buffer) => b, (b: Buffer) => gzipSync(b)]) {
    assertRefused(
      () => parseVehiclesFile(encode(csv(vehicleHeader, versa, bad))),
      3,
      /transmission must be automatic or manual/,
    );
  }
});

const vehicleCases: [string, string, RegExp][] = [
  ['year before 1900', versa.replace('2020,', '1899,'), /year must be an integer from 1900 to 2100/],
  ['year not a number', versa.replace('2020,', '20x0,'), /year must be an integer/],
  ['id beyond int32', versa.replace('372199', '2147483648'), /version_id must be an integer from 1 to 2147483647/],
  ['negative id', versa.replace(',63,', ',-63,'), /make_id must be an integer/],
  ['empty make name', versa.replace('NISSAN', ''), /make is empty/],
  ['untrimmed model', versa.replace('VERSA', ' VERSA'), /model has untrimmed or repeated spaces/],
  ['repeated version_id', versa2.replace('372200', '372199'), /version_id 372199 is repeated \(first on line 2\)/],
  [
    'one model id, two names',
    versa2.replace('VERSA', 'SENTRA'),
    /model_id 1061 is make_id\/model 63\/SENTRA here but make_id\/model 63\/VERSA on line 2/,
  ],
  [
    'one model id, two makes',
    versa2.replace('63,NISSAN', '64,NISSAN2'),
    /model_id 1061 is make_id\/model 64\/VERSA here but make_id\/model 63\/VERSA on line 2/,
  ],
  [
    'one make id, two names',
    versa2.replace('NISSAN,1061', 'DATSUN,1061'),
    /make_id 63 is "DATSUN" here but "NISSAN" on line 2/,
  ],
  [
    'one make name, two ids',
    versa2.replace('63,NISSAN,1061', '64,NISSAN,1062'),
    /make NISSAN is make_id 64 here but make_id 63 on line 2/,
  ],
  ['a control character', versa2.replace('STD', 'S\u0007TD'), /control character or is not valid UTF-8/],
];

for (const [what, row, reason] of vehicleCases) {
  test(`a vehicle row with ${what} is refused at its line`, () => {
    assertRefused(() => parseVehiclesFile(csv(vehicleHeader, versa, row)), 3, reason);
  });
}

const zipCases: [string, string, RegExp][] = [
  ['a 4-digit ZIP code', roma.replace('06700', '6700'), /zip_code must be 5 digits, got "6700"/],
  ['a 1-digit state code', roma.replace(',09,', ',9,'), /state_code must be 2 digits/],
  ['state code 00', roma.replace(',09,', ',00,'), /state_code must be an INEGI state code/],
  ['an empty settlement', roma.replace('Roma Norte', ''), /settlement is empty/],
  ['a repeated settlement id', roma, /zip_code\/settlement_id 06700\/0001 is repeated \(first on line 2\)/],
  [
    'another municipality',
    roma.replace('015,0001', '016,0002'),
    /zip_code 06700 is in state\/municipality 09\/016 here but in state\/municipality 09\/015 on line 2/,
  ],
  [
    'another city',
    roma.replace('Ciudad de México,09', 'Toluca,09').replace('0001', '0002'),
    /the city of zip_code 06700 is "Toluca"/,
  ],
  [
    'another state name',
    roma.replace('09,Ciudad de México', '09,CDMX').replace('0001', '0002'),
    /state_code 09 is "CDMX"/,
  ],
];

for (const [what, row, reason] of zipCases) {
  test(`a ZIP code row with ${what} is refused at its line`, () => {
    assertRefused(() => parseZipCodesFile(gzipSync(csv(zipHeader, roma, row))), 3, reason);
  });
}

test('settlements of one ZIP code may leave the city empty while others name it', () => {
  const noCity = roma.replace('Roma Norte', 'Otra').replace('Ciudad de México,09', ',09').replace('0001', '0002');
  assert.equal(parseZipCodesFile(csv(zipHeader, roma, noCity)).rows[1].city, '');
});

test('bytes that are not UTF-8 (a Latin-1 export) are refused at the first line they occur', () => {
  const latin1 = Buffer.from(
    `${zipHeader}\n${roma.replace('Roma Norte', 'Roma')}\n${roma.replace('0001', '0002')}\n`,
    'latin1',
  );
  assertRefused(() => parseZipCodesFile(latin1), 2, /not valid UTF-8/);
});

test('malformed CSV (wrong field count, unclosed quote, blank line inside) is refused at its line', () => {
  assertRefused(() => parseVehiclesFile(csv(vehicleHeader, versa, '2020,63,NISSAN')), 3, /expected 8 fields, got 3/);
  assertRefused(
    () => parseVehiclesFile(csv(vehicleHeader, versa, versa2.replace('NUEVO', '"NUEVO'))),
    3,
    /malformed CSV/,
  );
  assertRefused(() => parseVehiclesFile(csv(vehicleHeader, versa, '', versa2)), 3, /expected 8 fields, got 1/);
});

test('a quoted field spanning lines is refused at the line its record starts on', () => {
  const spanning = versa2.replace('NUEVO SENSE', '"NUEVO\nSENSE').replace(',manual', '",manual');
  assertRefused(
    () => parseVehiclesFile(csv(vehicleHeader, versa, spanning, versa.replace('372199', '1'))),
    3,
    /control character/,
  );
});
