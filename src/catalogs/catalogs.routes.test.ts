import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';

let t: TestApp;
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `${api}${url}`, headers: { ...t.partner.headers, ...headers } });

describe('catalog routes over the shipped data', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  lookupTests();
  answerTests();
});

/** Years, versions and ZIP codes as the shipped data has them. */
function lookupTests(): void {
  test('lists model years 2000 to 2026 as Catalogue items', async () => {
    const res = await get('/catalogs/years');
    assert.equal(res.statusCode, 200, show(res));
    const years = res.json();
    assert.deepEqual(years[0], { id: '2000', name: '2000' });
    assert.ok(years.some((y: { id: string }) => y.id === '2026'));
  });

  test('2020 Nissan Versa lists its 15 versions sorted by name', async () => {
    const brands = (await get('/catalogs/years/2020/brands')).json();
    assert.deepEqual(
      brands.find((b: { name: string }) => b.name === 'NISSAN'),
      { id: '63', name: 'NISSAN' },
    );
    const names = brands.map((b: { name: string }) => b.name);
    assert.deepEqual(
      names,
      [...names].sort((a: string, b: string) => a.localeCompare(b, 'en')),
    );
    const models = (await get('/catalogs/years/2020/brands/63/models')).json();
    assert.deepEqual(
      models.find((m: { id: string }) => m.id === '1061'),
      { id: '1061', name: 'VERSA' },
    );
    const res = await get('/catalogs/years/2020/brands/63/models/1061/versions');
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.json().length, 15);
    assert.match(res.headers['content-type'] as string, /application\/json/);
  });

  test('06700 is Roma Norte in Cuauhtémoc, Ciudad de México (state 09)', async () => {
    const res = await get('/catalogs/zip-code/06700');
    assert.equal(res.statusCode, 200, show(res));
    const zip = res.json();
    assert.equal(zip.zipCode, '06700');
    assert.ok(zip.neighborhoods.includes('Roma Norte'));
    assert.equal(zip.municipality, 'Cuauhtémoc');
    assert.equal(zip.city, 'Ciudad de México');
    assert.deepEqual(zip.state, { id: '09', name: 'Ciudad de México' });
  });

  test('06760 is Roma Sur; 64000 is in Monterrey, Nuevo León', async () => {
    assert.deepEqual((await get('/catalogs/zip-code/06760')).json().neighborhoods, ['Roma Sur']);
    const monterrey = (await get('/catalogs/zip-code/64000')).json();
    assert.equal(monterrey.municipality, 'Monterrey');
    assert.deepEqual(monterrey.state, { id: '19', name: 'Nuevo León' });
  });
}

/** Unknown entries, malformed ids, XML and caching. */
function answerTests(): void {
  test('unknown year, brand, model or a model of another brand answer 404 / 4041', async () => {
    for (const url of [
      '/catalogs/years/1999/brands',
      '/catalogs/years/2020/brands/99999/models',
      '/catalogs/years/2020/brands/63/models/99999/versions',
      '/catalogs/years/2020/brands/1/models/1061/versions',
      '/catalogs/years/2001/brands/63/models/1061/versions',
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, `${url}: ${show(res)}`);
      assert.equal(res.json().code, 4041);
      assert.equal(res.json().message, 'Catalog entry not found');
    }
  });

  test('an unknown ZIP code answers 404 / 4042', async () => {
    const res = await get('/catalogs/zip-code/00001');
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(res.json().code, 4042);
  });

  test('non-integer or out-of-range ids and malformed ZIP codes answer 400 / 40015', async () => {
    for (const url of [
      '/catalogs/years/abc/brands',
      '/catalogs/years/2020.5/brands',
      '/catalogs/years/0/brands',
      '/catalogs/years/99999999999/brands',
      '/catalogs/years/2020/brands/x/models',
      '/catalogs/zip-code/6700',
      '/catalogs/zip-code/067000',
      '/catalogs/zip-code/0670a',
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 400, `${url}: ${show(res)}`);
      assert.equal(res.json().code, 40015);
      assert.ok(res.json().additionalData.errors.length > 0, show(res));
    }
  });

  test('Accept: application/xml answers XML with Clave and Nombre', async () => {
    const res = await get('/catalogs/years/2020/brands/63/models', { accept: 'application/xml' });
    assert.equal(res.statusCode, 200, show(res));
    assert.match(res.headers['content-type'] as string, /application\/xml/);
    assert.match(
      res.body,
      /<Clave>1061<\/Clave><Nombre>VERSA<\/Nombre>|<Clave>1061<\/Clave>\s*<Nombre>VERSA<\/Nombre>/,
    );
    const zip = await get('/catalogs/zip-code/06700', { accept: 'application/xml' });
    assert.match(zip.body, /<ZipCodeInformation>/);
    assert.match(zip.body, /Roma Norte/);
  });

  test('answers carry ETag and Cache-Control; a matching If-None-Match gets 304', async () => {
    const first = await get('/catalogs/zip-code/06700');
    const etag = first.headers.etag as string;
    assert.match(etag, /^"[^"]+"$/);
    assert.match(first.headers['cache-control'] as string, /max-age=\d+/);
    const again = await get('/catalogs/zip-code/06700', { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    const xml = await get('/catalogs/zip-code/06700', { accept: 'application/xml', 'if-none-match': etag });
    assert.equal(xml.statusCode, 200, 'the XML representation has its own ETag');
    assert.notEqual(xml.headers.etag, etag);
  });

  test('catalogs need a bearer token', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${api}/catalogs/years` });
    assert.equal(res.statusCode, 401, show(res));
    assert.equal(res.json().code, 4010);
  });
}
