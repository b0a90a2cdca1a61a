/**
 * The operators page: a refused "Nuevo operador" form answers the same page (400), each message in
 * Spanish beside its field and what was typed kept (never the password); a blank name is refused;
 * deleting an operator goes through a confirmation page first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertBeside, consoleClient, consoleOperator, type ConsoleClient } from '../../test/console-client.ts';

const password = 'correct horse battery';

let t: TestApp;
let admin: ConsoleClient;

const noEnglish = (body: string) => assert.doesNotMatch(body, /must |is not an|requires email|errorDetail/);

describe('operator console: the operators page', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    const email = await consoleOperator(t.app, t.admin, 'admin', password);
    admin = consoleClient(t.app);
    assert.equal((await admin.signIn(email, password)).statusCode, 303);
  });
  after(() => t.close());

  test('a space-only name is refused beside the name, the other values kept', async () => {
    await admin.get('/console/operators');
    const res = await admin.post('/console/operators', {
      name: '   ',
      email: 'marta@lender.mx',
      role: 'officer',
      password: '',
    });
    assert.equal(res.statusCode, 400, show(res));
    assertBeside(res.body, 'name', /^Falta el nombre\.$/);
    assert.match(res.body, /id="email" name="email"[^>]* value="marta@lender\.mx"/);
    assert.match(res.body, /<option value="officer" selected>/);
    assert.match(res.body, /No se creó el operador: revisa los datos marcados\./);
    noEnglish(res.body);
  });

  test('a bad e-mail and a password without one are refused beside their fields; no password comes back', async () => {
    await admin.get('/console/operators');
    const name = 'Marta <Ñ> '.repeat(3).trim();
    const res = await admin.post('/console/operators', {
      name,
      email: 'marta-at-lender',
      role: 'analyst',
      password: 'short-secret',
    });
    assert.equal(res.statusCode, 400, show(res));
    assertBeside(res.body, 'email', /^Escribe un correo electrónico completo/);
    assert.match(res.body, /id="email" name="email"[^>]* value="marta-at-lender"/);
    assert.match(res.body, /id="name" name="name"[^>]* value="Marta &lt;Ñ&gt; Marta &lt;Ñ&gt; Marta &lt;Ñ&gt;"/);
    assert.match(res.body, /<option value="analyst" selected>/);
    assert.doesNotMatch(res.body, /short-secret/);
    noEnglish(res.body);
    const noEmail = await admin.post('/console/operators', { name: 'Marta', email: '', role: 'analyst', password });
    assert.equal(noEmail.statusCode, 400);
    assertBeside(noEmail.body, 'password', /^Una contraseña necesita un correo electrónico para entrar\.$/);
    assert.doesNotMatch(noEmail.body, new RegExp(password));
  });

  test('a name longer than the form takes and an e-mail already used are refused beside their fields', async () => {
    await admin.get('/console/operators');
    const long = await admin.post('/console/operators', { name: 'x'.repeat(201), role: 'analyst' });
    assert.equal(long.statusCode, 400, show(long));
    assertBeside(long.body, 'name', /^Escribe a lo más 200 caracteres\.$/);
    assert.match(long.body, new RegExp(`value="${'x'.repeat(201)}"`));
    const first = await admin.post('/console/operators', { name: 'Rosa', email: 'rosa@lender.mx', role: 'analyst' });
    assert.equal(first.statusCode, 200, show(first));
    const again = await admin.post('/console/operators', { name: 'Rosa bis', email: 'rosa@lender.mx', role: 'admin' });
    assert.equal(again.statusCode, 400, show(again));
    assertBeside(again.body, 'email', /^Ese correo electrónico ya es de otro operador\.$/);
    assert.match(again.body, /value="Rosa bis"/);
    assert.match(again.body, /<option value="admin" selected>/);
  });

  test('deleting an operator is confirmed on a page of its own; "Cancelar" goes back', async () => {
    const created = await admin.post('/console/operators', { name: 'Pablo', role: 'analyst' });
    assert.equal(created.statusCode, 200, show(created));
    const link =
      /<a href="(\/console\/operators\/([0-9a-f-]{36})\/delete)" aria-label="Borrar a Pablo">Borrar<\/a>/.exec(
        created.body,
      );
    assert.ok(link, 'the row links to the confirmation');
    const confirm = await admin.get(link[1]);
    assert.equal(confirm.statusCode, 200, show(confirm));
    assert.match(confirm.body, /¿Borrar a Pablo \(Analista\)\?/);
    assert.match(confirm.body, new RegExp(`<form method="post" action="${link[1]}"`));
    assert.match(confirm.body, /<button type="submit" class="danger">Sí, borrar<\/button>/);
    assert.match(confirm.body, /<a href="\/console\/operators">Cancelar<\/a>/);
    const still = await admin.get('/console/operators');
    assert.match(still.body, /Pablo/, 'opening the confirmation deletes nothing');
    await admin.get(link[1]);
    const deleted = await admin.post(link[1]);
    assert.equal(deleted.statusCode, 303, show(deleted));
    assert.equal(deleted.headers.location, '/console/operators?notice=operator-deleted');
    assert.doesNotMatch((await admin.get('/console/operators')).body, /Pablo/);
    assert.equal((await admin.get(link[1])).statusCode, 404);
  });
});
