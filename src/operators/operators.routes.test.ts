import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertError, assertNoContent } from '../../test/lead-fixture.ts';

type Method = 'GET' | 'POST' | 'DELETE';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

let t: TestApp;
let analystKey: string;
let adminKey: string;

const call = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
async function createOperator(payload: object, headers = t.admin) {
  const res = await call('POST', '/admin/operators', headers, payload);
  assert.equal(res.statusCode, 201, show(res));
  return res.json() as {
    id: string;
    name: string;
    role: string;
    email: string | null;
    key: string;
    createdAt: string;
  };
}

describe('operators and roles on the admin API', () => {
  before(async () => {
    t = await buildTestApp();
    analystKey = (await createOperator({ name: 'Ana', role: 'analyst' })).key;
    adminKey = (await createOperator({ name: 'Beto', role: 'admin', email: 'beto@lender.example' })).key;
  });
  after(() => t.close());

  operatorTests();
  roleTests();
});

/** Creating operators, with and without a password. */
function operatorTests(): void {
  test(
    'the admin token creates an operator: 201 with the ' + 'key shown once, the list shows it without the key',
    async () => {
      const created = await createOperator({
        name: 'Carla',
        role: 'analyst',
        email: 'Carla@Lender.example',
        password: 'una contraseña larga',
      });
      assert.match(created.key, /^op_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.role, 'analyst');
      assert.equal(created.email, 'Carla@Lender.example');
      assert.ok(!Number.isNaN(Date.parse(created.createdAt)));
      const list = await call('GET', '/admin/operators', t.admin);
      assert.equal(list.statusCode, 200, show(list));
      const listed = list.json().items.find((o: { id: string }) => o.id === created.id);
      assert.deepEqual(listed, {
        id: created.id,
        name: 'Carla',
        role: 'analyst',
        email: 'Carla@Lender.example',
        createdAt: created.createdAt,
      });
      assert.ok(!list.body.includes(created.key) && !list.body.includes('contraseña'));
      const stored = await t.database.db.query<{ key_hash: string; password_hash: string }>(
        'select key_hash, password_hash from operators where id = $1',
        [created.id],
      );
      assert.match(stored.rows[0].key_hash, /^sha256:[0-9a-f]{64}$/);
      assert.match(stored.rows[0].password_hash, /^scrypt\$/);
    },
  );

  test(
    'a password needs an e-mail and 12+ characters; an ' + 'e-mail in use (any case) is refused: 400 / 40015',
    async () => {
      const noEmail = await call('POST', '/admin/operators', t.admin, {
        name: 'X',
        role: 'admin',
        password: 'twelve chars ok',
      });
      assert.deepEqual(
        assertError(noEmail, 400, 40015, 'Bad Request').additionalData.errors.map((e: { field: string }) => e.field),
        ['password'],
      );
      const short = await call('POST', '/admin/operators', t.admin, {
        name: 'X',
        role: 'admin',
        email: 'x@lender.example',
        password: 'short',
      });
      assert.deepEqual(
        assertError(short, 400, 40015, 'Bad Request').additionalData.errors.map((e: { field: string }) => e.field),
        ['password'],
      );
      const badRole = await call('POST', '/admin/operators', t.admin, { name: 'X', role: 'root' });
      assert.deepEqual(
        assertError(badRole, 400, 40015, 'Bad Request').additionalData.errors.map((e: { field: string }) => e.field),
        ['role'],
      );
      const taken = await call('POST', '/admin/operators', t.admin, {
        name: 'X',
        role: 'admin',
        email: 'BETO@lender.example',
      });
      assert.deepEqual(
        assertError(taken, 400, 40015, 'Bad Request').additionalData.errors.map((e: { field: string }) => e.field),
        ['email'],
      );
    },
  );

  test('a name of spaces is 400 / 40015 on name; a name is kept without its outer spaces', async () => {
    const before = (await call('GET', '/admin/operators', t.admin)).json().items.length;
    const blank = await call('POST', '/admin/operators', t.admin, { name: '   ', role: 'analyst' });
    assert.deepEqual(assertError(blank, 400, 40015, 'Bad Request').additionalData.errors, [
      { field: 'name', errorDetail: 'must not be blank' },
    ]);
    assert.equal((await call('GET', '/admin/operators', t.admin)).json().items.length, before, 'nothing created');
    const padded = await call('POST', '/admin/operators', t.admin, { name: '  Ana Crédito  ', role: 'analyst' });
    assert.equal(padded.statusCode, 201, show(padded));
    assert.equal(padded.json().name, 'Ana Crédito');
  });
}

/** What each role and credential may do. */
function roleTests(): void {
  test('an admin operator key manages operators and companies like the admin token', async () => {
    const other = await createOperator({ name: 'Dora', role: 'analyst' }, bearer(adminKey));
    assert.equal((await call('GET', '/admin/operators', bearer(adminKey))).statusCode, 200);
    const company = await call('POST', '/admin/companies', bearer(adminKey), { name: 'Autos Dora' });
    assert.equal(company.statusCode, 201, show(company));
    assertNoContent(await call('DELETE', `/admin/operators/${other.id}`, bearer(adminKey)));
  });

  test('an analyst lists companies but every admin-only route answers 403 / 4030 and changes nothing', async () => {
    const companies = await call('GET', '/admin/companies', bearer(analystKey));
    assert.equal(companies.statusCode, 200, show(companies));
    const before = companies.json().items.length;
    const refused: [Method, string, object?][] = [
      ['POST', '/admin/companies', { name: 'Nope' }],
      ['POST', `/admin/companies/${t.partner.companyId}/credentials`],
      ['DELETE', `/admin/credentials/${t.partner.consumerKey}`],
      ['POST', `/admin/companies/${t.partner.companyId}/affiliates`, { user_type: 'SELLER' }],
      ['POST', '/admin/operators', { name: 'Me', role: 'admin' }],
      ['GET', '/admin/operators'],
      ['DELETE', `/admin/operators/${randomUUID()}`],
    ];
    for (const [method, url, payload] of refused) {
      assertError(await call(method, url, bearer(analystKey), payload), 403, 4030, 'Forbidden');
    }
    const catalog = await t.app.inject({
      method: 'PUT',
      url: '/admin/catalogs/vehicles',
      headers: { ...bearer(analystKey), 'content-type': 'text/csv' },
      payload: 'not,a,catalog\n',
    });
    assertError(catalog, 403, 4030, 'Forbidden');
    assert.equal((await call('GET', '/admin/companies', t.admin)).json().items.length, before);
    const partnerRead = await t.app.inject({
      method: 'GET',
      url: `/mx/b2b/autofin/api/leads`,
      headers: t.partner.headers,
    });
    assert.equal(partnerRead.statusCode, 200, 'the credential the analyst tried to revoke still works');
  });

  test('a partner token, an unknown key and a deleted operator key answer 401 / 4010', async () => {
    const gone = await createOperator({ name: 'Eva', role: 'admin' });
    assert.equal((await call('GET', '/admin/operators', bearer(gone.key))).statusCode, 200);
    assertNoContent(await call('DELETE', `/admin/operators/${gone.id}`, t.admin));
    for (const headers of [
      bearer(gone.key),
      bearer(`op_${'x'.repeat(43)}`),
      { authorization: t.partner.headers.authorization },
    ]) {
      assertError(await call('GET', '/admin/companies', headers), 401, 4010, 'Unauthorized');
      assertError(await call('GET', '/admin/operators', headers), 401, 4010, 'Unauthorized');
    }
    const listed = (await call('GET', '/admin/operators', t.admin)).json().items.map((o: { id: string }) => o.id);
    assert.ok(!listed.includes(gone.id), 'a deleted operator disappears from the list');
    assertError(await call('DELETE', `/admin/operators/${gone.id}`, t.admin), 404, 4049, 'Operator not found');
    assertError(await call('DELETE', `/admin/operators/${randomUUID()}`, t.admin), 404, 4049, 'Operator not found');
  });
}
