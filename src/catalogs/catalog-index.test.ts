import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { RenderCache } from './render-cache.ts';
import { parseVehiclesFile, parseZipCodesFile, type VehicleRow, type ZipSettlementRow } from './catalog-file.ts';
import {
  buildCatalogIndex,
  buildVehicleIndex,
  buildZipIndex,
  compareNames,
  vehicleIndexOfSnapshot,
  zipIndexOfSnapshot,
  type CatalogItem,
  type CatalogList,
} from './catalog-index.ts';
import { groupZipRows, vehicleSnapshot, zipCodeSnapshot, zipGroupsSnapshot } from './catalog-stored-form.ts';

const shipped = (name: string) => readFileSync(new URL(`../../catalog-data/${name}`, import.meta.url));
const vehicleRows = parseVehiclesFile(shipped('mx-vehicles.csv.gz')).rows;
const zipRows = parseZipCodesFile(shipped('mx-zip-codes.csv.gz')).rows;
const heapBefore = process.memoryUsage().heapUsed;
const index = buildCatalogIndex(vehicleRows, zipRows);

const items = (list: CatalogList | undefined): readonly CatalogItem[] => {
  assert.ok(list, 'expected a list, got undefined');
  return list.value;
};
const names = (list: CatalogList | undefined) => items(list).map((i) => i.name);
const isSorted = (values: readonly string[]) => values.every((v, i) => i === 0 || compareNames(values[i - 1], v) <= 0);

test('years list every model year, id and name both the year as text, ascending', () => {
  const years = items(index.vehicles.years());
  assert.equal(years.length, 27);
  assert.deepEqual(years[0], { id: '2000', name: '2000' });
  assert.deepEqual(years.at(-1), { id: '2026', name: '2026' });
  assert.ok(isSorted(years.map((y) => y.name)));
});

test('2020 lists its brands sorted by name, NISSAN with id 63', () => {
  const brands = items(index.vehicles.brands(2020));
  assert.equal(brands.length, 50);
  assert.deepEqual(
    brands.find((b) => b.name === 'NISSAN'),
    { id: '63', name: 'NISSAN' },
  );
  assert.ok(isSorted(brands.map((b) => b.name)));
  assert.equal(brands[0].name, 'ACURA');
});

test('2020 NISSAN VERSA (model 1061) has its 15 versions, sorted by name', () => {
  assert.deepEqual(
    items(index.vehicles.models(2020, 63)).find((m) => m.name === 'VERSA'),
    { id: '1061', name: 'VERSA' },
  );
  const versions = items(index.vehicles.versions(2020, 63, 1061));
  assert.equal(versions.length, 15);
  assert.deepEqual(versions[0], { id: '364821', name: 'ADVANCE AT 1.6L C/A EE BA AUT., 05 OCUP.' });
  assert.ok(versions.some((v) => v.name === 'NUEVO PLATINUM 4P L4 1.6L VP ABS EBD AC NAVI CVT 5 OC'));
  assert.ok(isSorted(versions.map((v) => v.name)));
});

test('every list of the vehicle catalog is sorted by name', () => {
  for (const year of items(index.vehicles.years())) {
    const brands = items(index.vehicles.brands(Number(year.id)));
    assert.ok(isSorted(brands.map((b) => b.name)));
    for (const brand of brands) {
      const models = items(index.vehicles.models(Number(year.id), Number(brand.id)));
      assert.ok(isSorted(models.map((m) => m.name)), `${year.id}/${brand.name}`);
      for (const model of models) {
        assert.ok(isSorted(names(index.vehicles.versions(Number(year.id), Number(brand.id), Number(model.id)))));
      }
    }
  }
});

test('a year, brand or model that does not exist, or not in that combination, is undefined', () => {
  assert.equal(index.vehicles.brands(1999), undefined);
  assert.equal(index.vehicles.models(2020, 999), undefined);
  // VERSA is a NISSAN: not under TOYOTA (id of TOYOTA looked up in the same year).
  const toyota = items(index.vehicles.brands(2020)).find((b) => b.name === 'TOYOTA');
  assert.ok(toyota);
  assert.equal(index.vehicles.versions(2020, Number(toyota.id), 1061), undefined);
  // LUCINO (1031) is a NISSAN sold only in 2000 in this catalog.
  assert.equal(items(index.vehicles.versions(2000, 63, 1031)).length > 0, true);
  assert.equal(index.vehicles.versions(2020, 63, 1031), undefined);
  assert.equal(index.vehicles.versions(2020, 63, 1.5), undefined);
});

test('a version id gives its year, make and model', () => {
  assert.deepEqual(index.vehicles.version(372199), {
    versionId: 372199,
    year: 2020,
    makeId: 63,
    make: 'NISSAN',
    modelId: 1061,
    model: 'VERSA',
    version: 'NUEVO SENSE 4P L4 1.6L ABS BA EBD AC CVT 5 OCUP',
  });
  assert.equal(index.vehicles.version(1), undefined);
  assert.equal(index.vehicles.versionCount, 39_712);
});

test('ZIP code answers: Roma Norte, Roma Sur, Monterrey, Guadalajara', () => {
  assert.deepEqual(index.zipCodes.info('06700'), {
    zipCode: '06700',
    neighborhoods: ['Roma Norte'],
    municipality: 'Cuauhtémoc',
    city: 'Ciudad de México',
    state: { id: '09', name: 'Ciudad de México' },
  });
  assert.deepEqual(index.zipCodes.info('06760')?.neighborhoods, ['Roma Sur']);
  assert.deepEqual(index.zipCodes.info('64000'), {
    zipCode: '64000',
    neighborhoods: ['La Finca', 'Monterrey Centro'],
    municipality: 'Monterrey',
    city: 'Monterrey',
    state: { id: '19', name: 'Nuevo León' },
  });
  const gdl = index.zipCodes.info('44100');
  assert.deepEqual([gdl?.city, gdl?.state], ['Guadalajara', { id: '14', name: 'Jalisco' }]);
  assert.equal(index.zipCodes.zipCodeCount, 32_009);
});

test('a ZIP code without a SEPOMEX city answers its municipality as the city', () => {
  const info = index.zipCodes.info('10630');
  assert.equal(info?.municipality, 'La Magdalena Contreras');
  assert.equal(info?.city, 'La Magdalena Contreras');
});

test('neighborhoods are unique and sorted, accents folded (Á sorts with A)', () => {
  const settlement = (name: string, id: string): ZipSettlementRow => ({
    zipCode: '99999',
    settlement: name,
    settlementType: 'Colonia',
    municipality: 'M',
    city: '',
    stateCode: '32',
    stateName: 'Zacatecas',
    municipalityCode: '001',
    settlementId: id,
    zone: 'Urbano',
  });
  const zips = buildZipIndex(
    ['Centro', 'Ángeles', 'San Andrés', 'Bosques', 'San Andrés', 'angeles'].map((n, i) => settlement(n, `000${i}`)),
  );
  assert.deepEqual(zips.info('99999')?.neighborhoods, ['angeles', 'Ángeles', 'Bosques', 'Centro', 'San Andrés']);
  assert.deepEqual(
    index.zipCodes.info('02240')?.neighborhoods.filter((n) => n === 'San Andrés'),
    ['San Andrés'],
  );
});

test('an unknown ZIP code is undefined', () => {
  assert.equal(index.zipCodes.zipCode('00000'), undefined);
  assert.equal(index.zipCodes.info('6700'), undefined);
});

test('JSON bodies are the values; XML uses Catalogues/Catalogue/Clave/Nombre', () => {
  const answer = index.vehicles.versions(2020, 63, 1061)!;
  assert.deepEqual(JSON.parse(answer.render('json').body.toString()), answer.value);
  const xml = index.vehicles.brands(2020)!.render('xml');
  assert.equal(xml.contentType, 'application/xml; charset=utf-8');
  assert.match(
    xml.body.toString(),
    new RegExp(
      '^<\\?xml version="1\\.0" encoding="UTF-8"\\?><Catalogues>' +
        '<Catalogue><Clave>1</Clave><Nombre>ACURA</Nombre></Catalogue>',
    ),
  );
  const parsed = new XMLParser({ parseTagValue: false }).parse(xml.body.toString());
  assert.equal(parsed.Catalogues.Catalogue.length, 50);
});

test('XML escapes markup characters in names', () => {
  const row: VehicleRow = {
    year: 2021,
    makeId: 1,
    make: 'A&B <Motors>',
    modelId: 2,
    model: `"Q" 'S'`,
    versionId: 3,
    version: 'x < y & z > w',
    transmission: 'manual',
  };
  const vehicles = buildVehicleIndex([row]);
  const brandsXml = vehicles.brands(2021)!.render('xml').body.toString();
  assert.match(brandsXml, /<Nombre>A&amp;B &lt;Motors&gt;<\/Nombre>/);
  const versionsXml = vehicles.versions(2021, 1, 2)!.render('xml').body.toString();
  assert.match(versionsXml, /<Nombre>x &lt; y &amp; z &gt; w<\/Nombre>/);
  assert.equal(
    new XMLParser().parse(vehicles.models(2021, 1)!.render('xml').body.toString()).Catalogues.Catalogue.Nombre,
    `"Q" 'S'`,
  );
});

test('the ZIP code XML follows ZipCodeInformation', () => {
  const body = index.zipCodes.zipCode('64000')!.render('xml').body.toString();
  assert.equal(
    body,
    '<?xml version="1.0" encoding="UTF-8"?><ZipCodeInformation><zipCode>64000</zipCode>' +
      '<neighborhoods><neighborhood>La Finca</neighborhood><neighborhood>Monterrey Centro</neighborhood>' +
      '</neighborhoods><municipality>Monterrey</municipality><city>Monterrey</city>' +
      '<state><id>19</id><name>Nuevo León</name></state></ZipCodeInformation>',
  );
});

test('ETags are strong, differ between JSON and XML, and are stable across renders and rebuilds', () => {
  const answer = index.zipCodes.zipCode('06700')!;
  const json = answer.render('json');
  const xml = answer.render('xml');
  assert.match(json.etag, /^"[A-Za-z0-9_-]{43}"$/);
  assert.notEqual(json.etag, xml.etag);
  assert.equal(answer.render('json'), json, 'rendered once, then reused');
  const rebuilt = buildCatalogIndex(vehicleRows.slice().reverse(), zipRows.slice().reverse());
  assert.equal(rebuilt.zipCodes.zipCode('06700')!.render('xml').etag, xml.etag);
  assert.equal(
    rebuilt.vehicles.versions(2020, 63, 1061)!.render('json').etag,
    index.vehicles.versions(2020, 63, 1061)!.render('json').etag,
  );
  assert.notEqual(index.vehicles.brands(2020)!.render('json').etag, index.vehicles.brands(2021)!.render('json').etag);
});

test('rendered bodies stay within the byte budget of their cache, and a dropped body renders the same again', () => {
  const cache = new RenderCache(64 * 1024);
  const zips = buildZipIndex(zipRows, cache);
  const first = zips.zipCode('06700')!.render('json');
  assert.equal(zips.zipCode('06700')!.render('json'), first, 'a hit answers the body already rendered');
  const codes = [...new Set(zipRows.map((r) => r.zipCode))].filter((c) => c !== '06700').slice(0, 2_000);
  for (const code of codes) zips.zipCode(code)!.render('json');
  assert.ok(cache.bytes <= cache.budgetBytes, `${cache.bytes} bytes held over a budget of ${cache.budgetBytes}`);
  assert.ok(cache.count > 50 && cache.count < codes.length, `${cache.count} bodies held`);
  const again = zips.zipCode('06700')!.render('json');
  assert.notEqual(again, first, 'the least recently used body was dropped');
  assert.deepEqual(again, first);
});

test('the ZIP index of rows grouped elsewhere answers the same bodies as the one of the rows', () => {
  const shuffled = groupZipRows(zipRows).map((g) => ({ ...g, settlements: g.settlements.slice().reverse() }));
  const grouped = zipIndexOfSnapshot(zipGroupsSnapshot(shuffled.reverse()));
  for (const code of ['06700', '64000', '01000', '99999']) {
    assert.deepEqual(grouped.zipCode(code)?.render('json'), index.zipCodes.zipCode(code)?.render('json'), code);
    assert.deepEqual(grouped.zipCode(code)?.render('xml'), index.zipCodes.zipCode(code)?.render('xml'), code);
  }
  assert.equal(grouped.zipCodeCount, index.zipCodes.zipCodeCount);
});

test('an answer is made once, on first use: the same frozen value each time, before and after rendering', () => {
  const fresh = buildCatalogIndex(vehicleRows, zipRows);
  const zip = fresh.zipCodes.zipCode('06700')!;
  const first = zip.value;
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.neighborhoods));
  assert.equal(fresh.zipCodes.info('06700'), first);
  zip.render('json');
  assert.equal(zip.value, first);
  const brands = fresh.vehicles.brands(2020)!;
  const list = brands.value;
  assert.ok(Object.isFrozen(list) && list.every((item) => Object.isFrozen(item)));
  assert.equal(brands.value, list);
  assert.deepEqual(list, index.vehicles.brands(2020)!.value);
});

test('building an index parses no line of its snapshot; an answer parses its own lines on first use', () => {
  const vehicles = vehicleSnapshot(vehicleRows);
  const zips = zipCodeSnapshot(zipRows);
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = (text: string) => {
    parsed++;
    return parse(text) as unknown;
  };
  try {
    const index = { vehicles: vehicleIndexOfSnapshot(vehicles), zipCodes: zipIndexOfSnapshot(zips) };
    assert.equal(parsed, 0);
    assert.equal(index.zipCodes.zipCodeCount, new Set(zipRows.map((r) => r.zipCode)).size);
    assert.equal(index.vehicles.versionCount, vehicleRows.length);
    assert.equal(index.zipCodes.info('06700')?.zipCode, '06700');
    assert.equal(parsed, 1, "one ZIP code's line");
    assert.equal(index.vehicles.version(364821)?.model, 'VERSA');
    assert.equal(parsed, 2, "one version's line");
    const of2020 = vehicleRows.filter((r) => r.year === 2020).length;
    assert.equal(index.vehicles.brands(2020)?.value.length, 50);
    assert.equal(parsed, 2 + of2020, "the lines of 2020's vehicles, once");
    assert.ok(index.vehicles.models(2020, 63));
    assert.equal(parsed, 2 + of2020);
  } finally {
    JSON.parse = parse;
  }
});

test('a snapshot written by the database (spaces after commas), or out of key order, answers the same', () => {
  const vehicles = vehicleIndexOfSnapshot(
    '[8, 2021, 63, "NISSAN", 1061, "VERSA", "ADVANCE", "automatic"]\n' +
      '[7, 2020, 63, "NISSAN", 1061, "VERSA", "SENSE \\"PLUS\\"", "manual"]',
  );
  assert.deepEqual(vehicles.years().value, [
    { id: '2020', name: '2020' },
    { id: '2021', name: '2021' },
  ]);
  assert.deepEqual(vehicles.versions(2020, 63, 1061)?.value, [{ id: '7', name: 'SENSE "PLUS"' }]);
  assert.deepEqual(vehicles.version(8), {
    versionId: 8,
    year: 2021,
    makeId: 63,
    make: 'NISSAN',
    modelId: 1061,
    model: 'VERSA',
    version: 'ADVANCE',
  });
  assert.equal(vehicles.version(9), undefined);
  assert.equal(vehicles.brands(1999), undefined);
  assert.equal(vehicles.versions(2021, 63, 1061)?.value.length, 1);
  const zips = zipIndexOfSnapshot(
    '["06700", ["Roma Sur", "Roma Norte"], "Cuauhtémoc", "Ciudad de México", "09", "Ciudad de México"]\n' +
      '["01000", ["San Ángel"], "Álvaro Obregón", "", "09", "Ciudad de México"]',
  );
  assert.equal(zips.zipCodeCount, 2);
  assert.deepEqual(zips.info('06700'), {
    zipCode: '06700',
    neighborhoods: ['Roma Norte', 'Roma Sur'],
    municipality: 'Cuauhtémoc',
    city: 'Ciudad de México',
    state: { id: '09', name: 'Ciudad de México' },
  });
  assert.equal(zips.info('01000')?.city, 'Álvaro Obregón', 'no city: the municipality stands in');
  assert.equal(zips.info('0100'), undefined);
  assert.equal(vehicleIndexOfSnapshot('').versionCount, 0);
  assert.equal(zipIndexOfSnapshot('').zipCode('01000'), undefined);
});

test('memory: heap used by the index of both shipped catalogs', () => {
  globalThis.gc?.();
  const heap = process.memoryUsage();
  console.log(
    `heap used with rows + index: ${(heap.heapUsed / 2 ** 20).toFixed(1)} MiB ` +
      `(index built on top of ${(heapBefore / 2 ** 20).toFixed(1)} MiB), rss ${(heap.rss / 2 ** 20).toFixed(1)} MiB`,
  );
});
