import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminToken, buildTestApp, type TestApp } from '../../test/helper.ts';
import { passwordMatches } from '../operators/index.ts';
import { createDemoOperator } from './demo-operator.ts';

let t: TestApp;
describe('the sandbox demo operator', () => {
  before(async () => {
    t = await buildTestApp({ env: { AUTOFIN_ENV: 'sandbox' } });
  });
  after(() => t.close());

  test('the demo operator is an admin listed with its e-mail, and the password it answers verifies', async () => {
    const demo = await createDemoOperator(t.container.operators);
    assert.equal(demo.email, 'operador@demo.autofin.test');
    assert.match(demo.password, /^[A-Za-z0-9_-]{20,}$/);

    const list = await t.app.inject({
      method: 'GET',
      url: '/admin/operators',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    assert.equal(list.statusCode, 200);
    const listed = list.json().items.filter((o: { email: string | null }) => o.email === demo.email);
    assert.equal(listed.length, 1);
    assert.equal(listed[0].name, 'Operador demo');
    assert.equal(listed[0].role, 'admin');

    const { rows } = await t.database.db.query<{ password_hash: string }>(
      'select password_hash from operators where id = $1',
      [listed[0].id],
    );
    assert.ok(
      await passwordMatches(demo.password, rows[0].password_hash),
      'the stored hash verifies against the password',
    );
    assert.equal(await passwordMatches('not-the-demo-password', rows[0].password_hash), false);
    assert.ok(!t.logs.some((line) => line.includes(demo.password)), 'the password never reaches a log line');
  });
});
