/**
 * The companies pages: Spanish labels instead of the API's keys, the affiliate type chosen from a
 * list, and refused forms (a blank company name, an affiliate's type or identifier) answered on the
 * same page (400), the Spanish message beside its field and what was typed kept.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertBeside, consoleClient, consoleOperator, type ConsoleClient } from '../../test/console-client.ts';

const password = 'correct horse battery';

let t: TestApp;
let admin: ConsoleClient;
let companyUrl: string;

const noEnglish = (body: string) => assert.doesNotMatch(body, /must |UUID\)|user_id \(|errorDetail|>name</);

describe('operator console: the companies pages', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    const email = await consoleOperator(t.app, t.admin, 'admin', password);
    admin = consoleClient(t.app);
    assert.equal((await admin.signIn(email, password)).statusCode, 303);
    companyUrl = `/console/companies/${t.partner.companyId}`;
  });
  after(() => t.close());

  test('a space-only company name is refused beside the name, what was typed kept', async () => {
    await admin.get('/console/companies');
    const res = await admin.post('/console/companies', { name: '    ' });
    assert.equal(res.statusCode, 400, show(res));
    assertBeside(res.body, 'name', /^Falta el nombre\.$/);
    assert.match(res.body, /id="name" name="name"[^>]* value=" {4}"/);
    assert.match(res.body, /No se creó la empresa: revisa los datos marcados\./);
    const long = await admin.post('/console/companies', { name: 'Ñ'.repeat(201) });
    assert.equal(long.statusCode, 400, show(long));
    assertBeside(long.body, 'name', /^Escribe a lo más 200 caracteres\.$/);
    assert.match(long.body, new RegExp(`value="${'Ñ'.repeat(201)}"`));
    noEnglish(long.body);
  });

  test('the company page names keys and fields in Spanish; the affiliate type is a list', async () => {
    const page = await admin.get(companyUrl);
    assert.equal(page.statusCode, 200, show(page));
    assert.match(page.body, /<th scope="col">Clave de consumidor<\/th>/);
    assert.doesNotMatch(page.body, /<th scope="col">(consumer_key|user_id)<\/th>/);
    assert.match(page.body, /<label for="user_id">Identificador del usuario \(opcional\)<\/label>/);
    const options =
      '<option value="DEALER" selected>Agencia \\(distribuidor\\)</option><option value="SELLER">Vendedor</option>';
    assert.match(page.body, new RegExp(`<select id="user_type" name="user_type">${options}</select>`));
    noEnglish(page.body);
  });

  test('an identifier that is no UUID is refused beside it, the type chosen and the identifier kept', async () => {
    await admin.get(companyUrl);
    const res = await admin.post(`${companyUrl}/affiliates`, { user_type: 'SELLER', user_id: 'vendedor-<7>' });
    assert.equal(res.statusCode, 400, show(res));
    assertBeside(res.body, 'user_id', /^Escribe un identificador con el formato/);
    assert.match(res.body, /aria-describedby="user_id-hint user_id-error"/);
    assert.match(res.body, /id="user_id" name="user_id"[^>]* value="vendedor-&lt;7&gt;"/);
    assert.match(res.body, /<option value="SELLER" selected>Vendedor<\/option>/);
    assert.match(res.body, /No se agregó el afiliado: revisa los datos marcados\./);
    noEnglish(res.body);
  });

  test('a type outside the list and an identifier already used are refused beside their fields', async () => {
    await admin.get(companyUrl);
    const odd = await admin.post(`${companyUrl}/affiliates`, { user_type: 'BROKER' });
    assert.equal(odd.statusCode, 400, show(odd));
    assertBeside(odd.body, 'user_type', /^Elige el tipo de afiliado de la lista\.$/);
    const userId = randomUUID();
    const added = await admin.post(`${companyUrl}/affiliates`, { user_type: 'SELLER', user_id: userId });
    assert.equal(added.statusCode, 303, show(added));
    const listed = await admin.get(added.headers.location!);
    assert.match(listed.body, new RegExp(`<td><code>${userId}</code></td><td>Vendedor</td>`));
    const again = await admin.post(`${companyUrl}/affiliates`, { user_type: 'DEALER', user_id: userId });
    assert.equal(again.statusCode, 400, show(again));
    assertBeside(again.body, 'user_id', /^Ese usuario ya es afiliado\.$/);
    assert.match(again.body, new RegExp(`value="${userId}"`));
    assert.match(again.body, /<option value="DEALER" selected>/);
    noEnglish(again.body);
  });
});
