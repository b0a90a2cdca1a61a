import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';

interface Operation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
// Probes answer no client error by design: there is nothing a caller can get wrong.
const probes = new Set(['/health/live', '/health/ready']);

describe('OpenAPI document and interactive docs', () => {
  let t: TestApp;
  let doc: Document;
  let operations: [string, Operation][];
  before(async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: `${api}/openapi.json` });
    assert.equal(res.statusCode, 200, show(res));
    doc = res.json();
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => methods.has(method))
        .map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
    );
  });
  after(() => t.close());

  test('GET /mx/b2b/autofin/api/openapi.json is public JSON declaring OpenAPI 3.1', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${api}/openapi.json` });
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.match(doc.openapi, /^3\.1\./);
    assert.ok(operations.length > 10, `operations: ${operations.map(([name]) => name).join(', ')}`);
  });

  test('the spec\'s schemas are named components', () => {
    for (const name of ['ErrorResponse', 'Catalogue', 'StateCatalog', 'ZipCodeInformation', 'TokenRequest', 'TokenResponse']) {
      assert.ok(doc.components.schemas[name], `${name} missing from components.schemas: ${Object.keys(doc.components.schemas).join(', ')}`);
    }
  });

  test('every $ref points at a schema the document defines', () => {
    const refs = new Set<string>();
    JSON.stringify(doc, (key, value) => {
      if (key === '$ref') refs.add(value);
      return value;
    });
    assert.ok(refs.size > 0);
    for (const ref of refs) {
      assert.match(ref, /^#\/components\/schemas\//, ref);
      assert.ok(doc.components.schemas[ref.slice('#/components/schemas/'.length)], `dangling ${ref}`);
    }
  });

  test('request and response bodies refer to their named schemas', () => {
    const token = doc.paths['/auth/token'].post as Operation & { requestBody: { content: Record<string, { schema: { $ref?: string } }> } };
    assert.equal(token.requestBody.content['application/json'].schema.$ref, '#/components/schemas/TokenRequest');
    const zip = doc.paths[`${api}/catalogs/zip-code/{zipCode}`].get;
    assert.equal(zip.responses?.['200'].content?.['application/json'].schema?.$ref, '#/components/schemas/ZipCodeInformation');
  });

  test('every operation has a summary or a description', () => {
    for (const [name, op] of operations) {
      assert.ok((op.summary ?? '').trim() || (op.description ?? '').trim(), `${name} has neither summary nor description`);
    }
  });

  test('every operation but the health probes declares a 4xx answer, as an ErrorResponse', () => {
    for (const [name, op] of operations) {
      if (probes.has(name.split(' ')[1])) continue;
      const clientErrors = Object.keys(op.responses ?? {}).filter((status) => /^4\d\d$/.test(status));
      assert.ok(clientErrors.length > 0, `${name} declares no 4xx: ${Object.keys(op.responses ?? {}).join(', ')}`);
      for (const status of clientErrors) {
        const schema = op.responses?.[status].content?.['application/json']?.schema;
        assert.equal(schema?.$ref, '#/components/schemas/ErrorResponse', `${name} ${status}`);
      }
    }
  });

  test('partner operations declare the bearer token and a 401; admin operations the admin token', () => {
    for (const [name, op] of operations) {
      const path = name.split(' ')[1];
      if (path.startsWith(`${api}/`)) {
        assert.deepEqual(op.security, [{ bearerAuth: [] }], name);
        assert.ok(op.responses?.['401'], `${name} declares no 401`);
      } else if (path.startsWith('/admin/')) {
        assert.deepEqual(op.security, [{ adminToken: [] }], name);
      }
    }
    assert.ok(doc.components.securitySchemes.bearerAuth);
  });

  test('the readiness probe declares its 503 ErrorResponse', () => {
    const ready = doc.paths['/health/ready'].get;
    assert.equal(ready.responses?.['503'].content?.['application/json'].schema?.$ref, '#/components/schemas/ErrorResponse');
  });

  test('the document itself, the docs UI and metrics are not listed as operations', () => {
    for (const path of Object.keys(doc.paths)) {
      assert.ok(!path.startsWith('/docs') && path !== '/metrics' && path !== `${api}/openapi.json`, path);
    }
  });

  test('/docs answers 200 HTML without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<html/i);
  });
});
