/**
 * The webhooks pages: a refused "Nuevo receptor" form answers the list again (400), each message in
 * Spanish beside its field and what was typed kept; an endpoint is disabled, enabled, its secret
 * rotated (shown once) and deleted after a confirmation page, through the admin API's service.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertBeside, consoleClient, consoleOperator, type ConsoleClient } from '../../test/console-client.ts';
import { webhookEventLabels } from './webhooks.views.ts';

const password = 'correct horse battery';

let t: TestApp;
let admin: ConsoleClient;

const noEnglish = (body: string) => assert.doesNotMatch(body, /must |is required|credentials/);

async function createEndpoint(url: string): Promise<{ id: string; secret: string }> {
  await admin.get('/console/webhooks');
  const created = await admin.post('/console/webhooks', { url, description: 'CRM' });
  assert.equal(created.statusCode, 200, show(created));
  const id = /\/console\/webhooks\/([0-9a-f-]{36})\/test/.exec(created.body)![1];
  const secret = /<h2 id="secreto">Secreto de firma<\/h2>.*?<code>([^<]+)<\/code>/s.exec(created.body)![1];
  return { id, secret };
}

describe('operator console: the webhooks pages', () => {
  before(async () => {
    // Partners' hosts resolve to a public address without asking the network's DNS.
    t = await buildTestApp({
      database: 'own',
      webhookResolver: () => Promise.resolve([{ address: '93.184.215.14', family: 4 }]),
    });
    const email = await consoleOperator(t.app, t.admin, 'admin', password);
    admin = consoleClient(t.app);
    assert.equal((await admin.signIn(email, password)).statusCode, 303);
  });
  after(() => t.close());

  test('an address the policy refuses is answered beside the URL, both values kept', async () => {
    await admin.get('/console/webhooks');
    const url = 'https://user:secret@crm.lender.example/hooks?a=1&b=2';
    const res = await admin.post('/console/webhooks', { url, description: 'CRM "principal"' });
    assert.equal(res.statusCode, 400, show(res));
    assertBeside(res.body, 'url', /^La dirección no puede llevar usuario ni contraseña\.$/);
    assert.match(
      res.body,
      /id="url" name="url"[^>]* value="https:\/\/user:secret@crm\.lender\.example\/hooks\?a=1&amp;b=2"/,
    );
    assert.match(res.body, /id="description" name="description"[^>]* value="CRM &quot;principal&quot;"/);
    noEnglish(res.body);
  });

  test('a blank address and a description too long are refused each beside its field', async () => {
    await admin.get('/console/webhooks');
    const description = 'd'.repeat(201);
    const res = await admin.post('/console/webhooks', { url: '   ', description });
    assert.equal(res.statusCode, 400, show(res));
    assertBeside(res.body, 'url', /^Falta la dirección \(URL\)\.$/);
    assertBeside(res.body, 'description', /^Escribe a lo más 200 caracteres\.$/);
    assert.match(res.body, new RegExp(`value="${description}"`));
    noEnglish(res.body);
  });

  test('an endpoint is disabled and enabled again', async () => {
    const { id } = await createEndpoint('https://crm.lender.example/toggle');
    const disabled = await admin.post(`/console/webhooks/${id}/disable`);
    assert.equal(disabled.statusCode, 303, show(disabled));
    assert.equal(disabled.headers.location, `/console/webhooks/${id}?notice=endpoint-disabled`);
    const off = await admin.get(disabled.headers.location);
    assert.match(off.body, /Receptor desactivado/);
    assert.match(off.body, /<dt>Activo<\/dt><dd>No \(no recibe eventos\)<\/dd>/);
    assert.match(off.body, new RegExp(`action="/console/webhooks/${id}/enable"`));
    const api = await t.app.inject({ method: 'GET', url: `/admin/webhooks/${id}`, headers: t.admin });
    assert.equal(api.json().enabled, false);
    const enabled = await admin.post(`/console/webhooks/${id}/enable`);
    assert.equal(enabled.headers.location, `/console/webhooks/${id}?notice=endpoint-enabled`);
    const on = await admin.get(enabled.headers.location);
    assert.match(on.body, /<dt>Activo<\/dt><dd>Sí<\/dd>/);
    assert.match(on.body, new RegExp(`action="/console/webhooks/${id}/disable"`));
  });

  test("a rotated secret is shown once, on the rotation's answer", async () => {
    const { id, secret } = await createEndpoint('https://crm.lender.example/rotate');
    await admin.get(`/console/webhooks/${id}`);
    const rotated = await admin.post(`/console/webhooks/${id}/rotate-secret`);
    assert.equal(rotated.statusCode, 200, show(rotated));
    const shown = /<h2 id="secreto">Secreto de firma nuevo<\/h2>.*?<code>([^<]+)<\/code>/s.exec(rotated.body);
    assert.ok(shown, 'the new secret is shown');
    assert.notEqual(shown[1], secret);
    assert.match(rotated.body, /El secreto anterior sigue siendo válido 24 horas/);
    const again = await admin.get(`/console/webhooks/${id}`);
    assert.doesNotMatch(again.body, new RegExp(shown[1]));
  });

  test('deleting an endpoint is confirmed on a page of its own; "Cancelar" goes back', async () => {
    const { id } = await createEndpoint('https://crm.lender.example/delete');
    const detail = await admin.get(`/console/webhooks/${id}`);
    assert.match(detail.body, new RegExp(`<a href="/console/webhooks/${id}/delete">Borrar el receptor</a>`));
    const confirm = await admin.get(`/console/webhooks/${id}/delete`);
    assert.equal(confirm.statusCode, 200, show(confirm));
    assert.match(confirm.body, /¿Borrar el receptor <code>https:\/\/crm\.lender\.example\/delete<\/code>\?/);
    assert.match(confirm.body, new RegExp(`<form method="post" action="/console/webhooks/${id}/delete"`));
    assert.match(confirm.body, /<button type="submit" class="danger">Sí, borrar<\/button>/);
    assert.match(confirm.body, new RegExp(`<a href="/console/webhooks/${id}">Cancelar</a>`));
    assert.equal((await admin.get(`/console/webhooks/${id}`)).statusCode, 200, 'the confirmation deletes nothing');
    await admin.get(`/console/webhooks/${id}/delete`);
    const deleted = await admin.post(`/console/webhooks/${id}/delete`);
    assert.equal(deleted.statusCode, 303, show(deleted));
    assert.equal(deleted.headers.location, '/console/webhooks?notice=endpoint-deleted');
    const list = await admin.get(deleted.headers.location);
    assert.match(list.body, /Receptor borrado: ya no recibe eventos\./);
    assert.doesNotMatch(list.body, /crm\.lender\.example\/delete/);
    assert.equal((await admin.get(`/console/webhooks/${id}`)).statusCode, 404);
  });

  test('event types are named in Spanish: in the list, on the endpoint’s page and in its deliveries', async () => {
    const documented = Object.keys((t.app.swagger() as { webhooks: Record<string, unknown> }).webhooks);
    assert.ok(documented.length > 0);
    for (const type of documented) assert.ok(webhookEventLabels[type], `${type} has a Spanish name`);
    const chosen = await t.app.inject({
      method: 'POST',
      url: '/admin/webhooks',
      headers: t.admin,
      payload: { url: 'https://crm.lender.example/chosen', eventTypes: ['lead.created', 'lead.verified'] },
    });
    assert.equal(chosen.statusCode, 201, show(chosen));
    const id = chosen.json<{ id: string }>().id;
    const list = await admin.get('/console/webhooks');
    assert.match(list.body, /<td>Solicitud creada, PIN confirmado<\/td>/);
    await admin.get(`/console/webhooks/${id}`);
    assert.equal((await admin.post(`/console/webhooks/${id}/test`)).statusCode, 303);
    const detail = await admin.get(`/console/webhooks/${id}`);
    assert.match(detail.body, /<dt>Eventos<\/dt><dd>Solicitud creada, PIN confirmado<\/dd>/);
    assert.match(detail.body, /<td>Evento de prueba<\/td>/);
    assert.match(detail.body, /aria-label="Reenviar Evento de prueba \(/);
    assert.doesNotMatch(detail.body, /lead\.created|lead\.verified|webhook\.test/);
  });
});
