import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, buildTestApp, type TestApp } from '../../test/helper.ts';

let t: TestApp;
describe('webhooks in the OpenAPI document', () => {
  before(async () => (t = await buildTestApp()));
  after(() => t.close());

  test(
    'the OpenAPI document has a webhooks entry for every ' + 'event type, with its body and the signature headers',
    async () => {
      const doc = (await t.app.inject({ method: 'GET', url: `${api}/openapi.json` })).json();
      assert.deepEqual(Object.keys(doc.webhooks), [
        'lead.created',
        'lead.card_created',
        'lead.updated',
        'lead.pin_sent',
        'lead.verified',
        'lead.prequalification_decided',
        'lead.outcome_changed',
        'lead.document_received',
        'lead.document_reviewed',
        'webhook.test',
      ]);
      for (const type of ['lead.document_received', 'lead.document_reviewed']) {
        const data = doc.webhooks[type].post.requestBody.content['application/json'].schema.properties.data;
        assert.deepEqual(Object.keys(data.properties), [
          'companyId',
          'leadId',
          'externalAutoId',
          'status',
          'document',
          'condition',
        ]);
        const document = Object.keys(data.properties.document.properties);
        assert.ok(!document.includes('fileName') && !document.includes('sha256'), document.join(', '));
      }
      const changed =
        doc.webhooks['lead.outcome_changed'].post.requestBody.content['application/json'].schema.properties.data;
      assert.deepEqual(Object.keys(changed.properties), ['companyId', 'leadId', 'externalAutoId', 'status', 'outcome']);
      const outcome = JSON.stringify(changed.properties.outcome);
      assert.ok(!outcome.includes('note') && !outcome.includes('operatorId'), outcome);
      const decided = doc.webhooks['lead.prequalification_decided'].post;
      assert.deepEqual(
        decided.parameters.map((p: { name: string }) => p.name),
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
      );
      const body = decided.requestBody.content['application/json'].schema;
      assert.deepEqual(Object.keys(body.properties.data.properties), [
        'companyId',
        'leadId',
        'externalAutoId',
        'status',
        'decision',
        'reasons',
      ]);
      assert.ok(
        doc.webhooks['lead.updated'].post.requestBody.content['application/json'].schema.properties.data.properties
          .sections,
      );
      assert.ok(doc.paths[`${api}/webhooks/{endpointId}/deliveries`].get);
      assert.ok(doc.paths['/admin/webhooks'].post);
    },
  );

  test("the document's example of POST /webhooks is accepted as it is by a fresh sandbox", async () => {
    const sandbox = await buildTestApp({ env: { AUTOFIN_ENV: 'sandbox' } });
    try {
      const doc = (await sandbox.app.inject({ method: 'GET', url: `${api}/openapi.json` })).json();
      const [example] = doc.components.schemas.WebhookEndpointCreate.examples;
      const res = await sandbox.app.inject({
        method: 'POST',
        url: `${api}/webhooks`,
        headers: sandbox.partner.headers,
        payload: example,
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().url, example.url);
    } finally {
      await sandbox.close();
    }
  });
});
