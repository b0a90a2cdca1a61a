import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { adminToken, api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { vehicleColumns, zipCodeColumns } from '../catalogs/catalog-file.ts';

const csv = (...lines: string[]) => Buffer.from(lines.join('\n') + '\n', 'utf8');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A small valid vehicle catalog: `count` versions of one model year 2031 model. */
function vehiclesCsv(count = 2): Buffer {
  const rows = Array.from(
    { length: count },
    (_, i) => `2031,9001,ACME,9101,ROADSTER,${900_001 + i},BASE ${i + 1},manual`,
  );
  return csv(vehicleColumns.join(','), ...rows);
}

const zipsCsv = csv(
  zipCodeColumns.join(','),
  '99001,Centro,Colonia,Ejemplo,Villa Ejemplo,32,Zacatecas,001,0001,Urbano',
  '99001,El Mirador,Colonia,Ejemplo,Villa Ejemplo,32,Zacatecas,001,0002,Urbano',
);

let t: TestApp;

const put = (kind: string, payload: Buffer | string, contentType = 'text/csv', headers = t.admin) =>
  t.app.inject({
    method: 'PUT',
    url: `/admin/catalogs/${kind}`,
    headers: { ...headers, 'content-type': contentType },
    payload,
  });
const read = (url: string) => t.app.inject({ method: 'GET', url: `${api}${url}`, headers: t.partner.headers });
/** What a partner sees of the shipped and the test catalogs: compared before and after a refused import. */
const partnerView = async () => {
  const view: Record<string, unknown> = {};
  for (const url of [
    '/catalogs/years',
    '/catalogs/years/2020/brands',
    '/catalogs/years/2031/brands',
    '/catalogs/zip-code/06700',
    '/catalogs/zip-code/99001',
  ]) {
    const res = await read(url);
    view[url] = res.statusCode === 200 ? res.body : `${res.statusCode} ${res.json().code}`;
  }
  return view;
};

describe('admin catalog import', () => {
  before(async () => {
    t = await buildTestApp({ ownCatalogStore: true });
  });
  after(() => t.close());

  refusedFileTests();
  acceptedFileTests();
});

/** Refused files: each names its problem and changes nothing. */
function refusedFileTests(): void {
  test(
    'a malformed vehicles file is refused with its line, ' + 'and the partner API still serves the old catalog',
    async () => {
      const before = await partnerView();
      const bad = csv(
        vehicleColumns.join(','),
        '2031,9001,ACME,9101,ROADSTER,900001,BASE,manual',
        '2031,9001,ACME,9101,ROADSTER,900002,BASE 2,tiptronic',
      );
      const res = await put('vehicles', bad);
      assert.equal(res.statusCode, 400, show(res));
      const body = res.json();
      assert.equal(body.code, 40015);
      assert.equal(body.additionalData.line, 3);
      assert.deepEqual(body.additionalData.errors, [
        { field: 'line 3', errorDetail: 'transmission must be automatic or manual, got "tiptronic"' },
      ]);
      assert.deepEqual(await partnerView(), before);
    },
  );

  test('a file-level problem (corrupt gzip) names the file, line 0, and changes nothing', async () => {
    const before = await partnerView();
    const corrupt = Buffer.concat([gzipSync(zipsCsv).subarray(0, 20)]);
    const res = await put('zip-codes', corrupt, 'application/gzip');
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(res.json().additionalData.line, 0);
    assert.equal(res.json().additionalData.errors[0].field, 'file');
    assert.match(res.json().additionalData.errors[0].errorDetail, /gzip/);
    assert.deepEqual(await partnerView(), before);
  });

  test('a wrong header is refused at line 1', async () => {
    const res = await put('zip-codes', csv('zip,name', '99001,Centro'));
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(res.json().additionalData.errors[0].field, 'line 1');
    assert.match(res.json().additionalData.errors[0].errorDetail, /header/);
  });
}

/** Accepted files, the body limits and who may import. */
function acceptedFileTests(): void {
  test('a plain CSV vehicle catalog replaces the old one and the partner API serves it at once', async () => {
    const file = vehiclesCsv(3);
    const res = await put('vehicles', file);
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(res.json(), { kind: 'vehicles', rowCount: 3, sha256: sha256(file) });
    assert.deepEqual((await read('/catalogs/years')).json(), [{ id: '2031', name: '2031' }]);
    assert.deepEqual((await read('/catalogs/years/2031/brands')).json(), [{ id: '9001', name: 'ACME' }]);
    assert.equal((await read('/catalogs/years/2031/brands/9001/models/9101/versions')).json().length, 3);
    assert.equal((await read('/catalogs/years/2020/brands')).statusCode, 404);
    const meta = await t.container.catalogs.imports.meta('vehicles');
    assert.equal(meta?.sha256, sha256(file));
  });

  test('a gzip ZIP-code catalog sent as application/gzip replaces the old one', async () => {
    const file = gzipSync(zipsCsv);
    const res = await put('zip-codes', file, 'application/gzip');
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(res.json(), { kind: 'zipCodes', rowCount: 2, sha256: sha256(file) });
    const zip = await read('/catalogs/zip-code/99001');
    assert.equal(zip.statusCode, 200, show(zip));
    assert.deepEqual(zip.json().neighborhoods, ['Centro', 'El Mirador']);
    assert.equal((await read('/catalogs/zip-code/06700')).statusCode, 404);
  });

  test('application/octet-stream is accepted too, and a body over 64 KiB is fine on these routes', async () => {
    const file = gzipSync(vehiclesCsv(3000));
    const plain = vehiclesCsv(3000);
    assert.ok(plain.length > 64 * 1024);
    const res = await put('vehicles', plain, 'text/csv; charset=utf-8');
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.json().rowCount, 3000);
    const again = await put('vehicles', file, 'application/octet-stream');
    assert.equal(again.statusCode, 200, show(again));
    assert.equal(again.json().sha256, sha256(file));
  });

  test('the 64 KiB limit still holds everywhere else', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/companies',
      headers: { ...t.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(70 * 1024) }),
    });
    assert.equal(res.statusCode, 413, show(res));
    assert.equal(res.json().code, 4130);
  });

  test('a file over 64 MiB is 413 / 4130', async () => {
    const res = await put('vehicles', Buffer.alloc(64 * 1024 * 1024 + 1, 0x41), 'application/octet-stream');
    assert.equal(res.statusCode, 413, show(res));
    assert.equal(res.json().code, 4130);
  });

  test('a JSON body is 415 / 4150 and an empty body is 400 / 40015', async () => {
    const json = await put('vehicles', JSON.stringify({ file: 'x' }), 'application/json');
    assert.equal(json.statusCode, 415, show(json));
    assert.equal(json.json().code, 4150);
    const xml = await put('vehicles', '<x/>', 'application/xml');
    assert.equal(xml.statusCode, 415, show(xml));
    const empty = await t.app.inject({ method: 'PUT', url: '/admin/catalogs/vehicles', headers: t.admin });
    assert.equal(empty.statusCode, 400, show(empty));
    assert.equal(empty.json().code, 40015);
    assert.equal(empty.json().additionalData.errors[0].field, 'file');
  });

  test('without the admin token, or with a partner token, the import is 401 and changes nothing', async () => {
    const before = await partnerView();
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer ${t.partner.token}` },
      { authorization: `Bearer ${adminToken}x` },
    ]) {
      const res = await put('vehicles', vehiclesCsv(1), 'text/csv', headers);
      assert.equal(res.statusCode, 401, show(res));
      assert.equal(res.json().code, 4010);
    }
    assert.deepEqual(await partnerView(), before);
  });
}

describe('admin catalog import without ADMIN_TOKEN', () => {
  test('does not exist (404)', async () => {
    const t = await buildTestApp({ env: { ADMIN_TOKEN: '' } });
    try {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/admin/catalogs/vehicles',
        headers: { 'content-type': 'text/csv' },
        payload: 'x',
      });
      assert.equal(res.statusCode, 404, show(res));
    } finally {
      await t.close();
    }
  });
});
