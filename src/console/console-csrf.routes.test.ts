import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient } from '../../test/console-client.ts';

const password = 'correct horse battery';

async function operator(t: TestApp, role: 'admin' | 'analyst', email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/operators',
    headers: t.admin,
    payload: { name: `Ana ${role}`, role, email, password },
  });
  assert.equal(res.statusCode, 201, show(res));
  return res.json() as { id: string };
}

describe('operator console: CSRF tokens belong to their session', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
    await operator(t, 'admin', 'admin@lender.mx');
  });
  after(() => t.close());

  test("another session's token, or the sign-in page's, is refused with the CSRF cookie it came with", async () => {
    const attacker = consoleClient(t.app);
    await attacker.signIn('admin@lender.mx', password);
    await attacker.get('/console/companies');
    const victim = consoleClient(t.app);
    await victim.signIn('admin@lender.mx', password);
    // The attacker plants their CSRF cookie in the victim's browser and posts their own token.
    victim.cookies.set('autofin_csrf', attacker.cookies.get('autofin_csrf')!);
    const res = await victim.post('/console/companies', { _csrf: attacker.csrf(), name: 'Plantada SA' });
    assert.equal(res.statusCode, 403);
    // A token from before sign-in no longer works once signed in.
    const fresh = consoleClient(t.app);
    await fresh.get('/console/sign-in');
    const preSession = fresh.csrf();
    await fresh.post('/console/sign-in', { email: 'admin@lender.mx', password });
    assert.equal((await fresh.post('/console/companies', { _csrf: preSession, name: 'Tardía SA' })).statusCode, 403);
    await fresh.get('/console/companies');
    assert.equal((await fresh.post('/console/companies', { name: 'Legítima SA' })).statusCode, 303);
    const names = (await t.app.inject({ method: 'GET', url: '/admin/companies', headers: t.admin }))
      .json()
      .items.map((c: { name: string }) => c.name);
    assert.ok(names.includes('Legítima SA'));
    assert.ok(!names.includes('Plantada SA') && !names.includes('Tardía SA'));
  });
});
