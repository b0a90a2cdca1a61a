import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';

interface Operation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  requestBody?: { required?: boolean };
  responses?: Record<
    string,
    {
      description: string;
      headers?: Record<string, { $ref?: string }>;
      content?: Record<string, { schema?: { $ref?: string }; examples?: Record<string, { value: { code: number } }> }>;
    }
  >;
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  components: {
    schemas: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
};

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
const publicPaths = new Set(['/health/live', '/health/ready', '/auth/token']);

let t: TestApp;
let doc: Document;
let operations: [string, Operation][];

function openapiTests1() {
  test('GET /mx/b2b/autofin/api/openapi.json is public JSON declaring OpenAPI 3.1', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${api}/openapi.json` });
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.match(doc.openapi, /^3\.1\./);
    assert.ok(operations.length > 10, `operations: ${operations.map(([name]) => name).join(', ')}`);
  });

  test("the spec's schemas are named components", () => {
    for (const name of [
      'ErrorResponse',
      'Catalogue',
      'StateCatalog',
      'ZipCodeInformation',
      'TokenRequest',
      'TokenResponse',
    ]) {
      assert.ok(
        doc.components.schemas[name],
        `${name} missing from components.schemas: ${Object.keys(doc.components.schemas).join(', ')}`,
      );
    }
  });

  test('every $ref points at a schema or header the document defines', () => {
    const refs = new Set<string>();
    JSON.stringify(doc, (key, value) => {
      if (key === '$ref') refs.add(value);
      return value;
    });
    assert.ok(refs.size > 0);
    for (const ref of refs) {
      const [, kind, name] = /^#\/components\/(schemas|headers)\/(.+)$/.exec(ref) ?? [];
      assert.ok(kind, ref);
      assert.ok(doc.components[kind as 'schemas' | 'headers'][name], `dangling ${ref}`);
    }
  });

  test('servers gives the API base: the sandbox of npm start by default', () => {
    const [server] = doc.servers;
    const url = server.url.replace(/\{(\w+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
    assert.equal(url, 'http://127.0.0.1:3000');
  });

  test('every answer has a description of its own, and says its X-Request-Id', () => {
    for (const [name, op] of operations) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        assert.ok(
          response.description && response.description !== 'Default Response',
          `${name} ${status}: ${response.description}`,
        );
        assert.equal(
          response.headers?.['X-Request-Id']?.$ref,
          '#/components/headers/X-Request-Id',
          `${name} ${status}`,
        );
      }
    }
  });

  test('error examples carry the codes the service answers, per status', () => {
    const codesOf = (op: Operation, status: string) =>
      Object.values(op.responses?.[status]?.content?.['application/json']?.examples ?? {}).map(
        (example) => example.value.code,
      );
    const zip = doc.paths[`${api}/catalogs/zip-code/{zipCode}`].get;
    assert.deepEqual(codesOf(zip, '404'), [4042]);
    assert.deepEqual(codesOf(doc.paths[`${api}/catalogs/years/{yearId}/brands`].get, '404'), [4041]);
    assert.deepEqual(codesOf(doc.paths[`${api}/leads/{leadId}`].get, '404'), [4040]);
    assert.deepEqual(codesOf(doc.paths[`${api}/leads/{leadId}/contact`].put, '400'), [400]);
    assert.ok(codesOf(doc.paths[`${api}/leads/{leadId}/pin`].post, '400').every((code) => code === 4003));
    for (const [name, op] of operations) {
      for (const status of Object.keys(op.responses ?? {}).filter((s) => Number(s) >= 400)) {
        const codes = codesOf(op, status);
        assert.ok(codes.length > 0, `${name} ${status} has no example`);
        for (const code of codes)
          assert.ok(
            code === Number(status) || String(code).startsWith(status === '412' ? '6' : status.slice(0, 2)),
            `${name} ${status}: ${code}`,
          );
      }
    }
  });
}

function openapiTests2() {
  test('429s say Retry-After; partner answers their rate limit; a created lead its Location', () => {
    for (const [name, op] of operations) {
      const limited = op.responses?.['429'];
      if (limited) assert.ok(limited.headers?.['Retry-After'], `${name} 429 without Retry-After`);
      if (name.split(' ')[1].startsWith(`${api}/`)) {
        const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'))!;
        assert.ok(success[1].headers?.['X-RateLimit-Remaining'], `${name} ${success[0]}`);
      }
    }
    const create = doc.paths[`${api}/leads`].post;
    assert.ok(create.responses?.['201'].headers?.Location);
    assert.ok(doc.paths[`${api}/catalogs/years`].get.responses?.['200'].headers?.ETag);
  });

  test('the create-lead and re-encryption bodies are optional; other bodies are required', () => {
    const optional = [`POST ${api}/leads`, 'POST /admin/keys/reencrypt'];
    for (const [name, op] of operations) {
      if (!op.requestBody) continue;
      assert.equal(op.requestBody.required, !optional.includes(name), name);
    }
  });

  test('request and response bodies refer to their named schemas', () => {
    const token = doc.paths['/auth/token'].post as Operation & {
      requestBody: { content: Record<string, { schema: { $ref?: string } }> };
    };
    assert.equal(token.requestBody.content['application/json'].schema.$ref, '#/components/schemas/TokenRequest');
    const zip = doc.paths[`${api}/catalogs/zip-code/{zipCode}`].get;
    assert.equal(
      zip.responses?.['200'].content?.['application/json'].schema?.$ref,
      '#/components/schemas/ZipCodeInformation',
    );
  });

  test('every operation has a summary or a description', () => {
    for (const [name, op] of operations) {
      assert.ok(
        (op.summary ?? '').trim() || (op.description ?? '').trim(),
        `${name} has neither summary nor description`,
      );
    }
  });

  test('every operation declares its 4xx and 5xx answers, as ErrorResponses', () => {
    for (const [name, op] of operations) {
      const clientErrors = Object.keys(op.responses ?? {}).filter((status) => /^[45]\d\d$/.test(status));
      assert.ok(
        clientErrors.includes('405') && clientErrors.includes('500'),
        `${name}: ${Object.keys(op.responses ?? {}).join(', ')}`,
      );
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
        assert.ok(op.responses?.['401'], `${name} declares no 401`);
      } else {
        assert.ok(publicPaths.has(path), `${name} is neither partner, admin nor a known public route`);
        assert.deepEqual(op.security, [], name);
      }
    }
    assert.ok(doc.components.securitySchemes.bearerAuth);
  });

  test('the readiness probe declares its 503 ErrorResponse', () => {
    const ready = doc.paths['/health/ready'].get;
    assert.equal(
      ready.responses?.['503'].content?.['application/json'].schema?.$ref,
      '#/components/schemas/ErrorResponse',
    );
  });

  test('the document itself, the docs UI and metrics are not listed as operations', () => {
    for (const path of Object.keys(doc.paths)) {
      assert.ok(!path.startsWith('/docs') && path !== '/metrics' && path !== `${api}/openapi.json`, path);
    }
  });
}

function openapiTests3() {
  test('/docs answers 200 HTML without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<html/i);
  });

  test('/docs "Try it out" calls the origin the page was read from, whatever the port', async () => {
    for (const host of ['127.0.0.1:4567', 'sandbox.lender.mx']) {
      const res = await t.app.inject({ method: 'GET', url: '/docs/json', headers: { host } });
      assert.equal(res.statusCode, 200, show(res));
      assert.equal(res.json().servers[0].url, `http://${host}`);
    }
  });
}

describe('OpenAPI document and interactive docs', () => {
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
  openapiTests1();
  openapiTests2();
  openapiTests3();
});
