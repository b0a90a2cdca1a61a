/**
 * What the partner sees of the lender's decision: `outcome` on its lead (no note, no operator),
 * `outcomeStatus` and the `outcome=` filter on both lead lists, the signed `lead.outcome_changed`
 * event; and the note, erased with the lead's personal data, never reaching a partner or a log.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';
import {
  bodies,
  codesAndDescriptions,
  leadCopies,
  operatorOutcome,
  setOutcome,
  type LeadCopies,
} from '../../test/outcome-fixture.ts';

const note = 'Nota interna: el cliente mostró estados de cuenta 7731';
// Searched for by its words: digits alone can occur in an id or a timing in a log line.
const noteWords = 'estados de cuenta';

let t: TestApp;
let copy: LeadCopies;
let receiver: Receiver;
let secret: string;

const partnerLead = async (leadId: string) => {
  const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
  assert.equal(res.statusCode, 200, show(res));
  return res.json();
};

function partnerViewTests1() {
  test('a change of the outcome moves the lead’s updatedAt and is in its events, by the lender', async () => {
    const leadId = await copy();
    const before = await partnerLead(leadId);
    assert.equal((await setOutcome(t, leadId, bodies.CONDITIONED)).statusCode, 200);
    const after = await partnerLead(leadId);
    assert.ok(Date.parse(after.updatedAt) > Date.parse(before.updatedAt), `${before.updatedAt} → ${after.updatedAt}`);
    assert.equal(after.updatedAt, after.outcome.at, 'updatedAt is the moment of the decision');
    const events = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/events`,
      headers: t.partner.headers,
    });
    assert.equal(events.statusCode, 200, show(events));
    const last = events.json().items.at(-1);
    assert.deepEqual(
      { type: last.type, actor: last.actor, fields: last.fields, at: last.at },
      { type: 'OUTCOME_CHANGED', actor: 'lender', fields: ['outcome'], at: after.outcome.at },
    );
  });

  test('GET /leads/{leadId} shows the outcome without the note or the operator, null before one', async () => {
    const leadId = await copy();
    assert.equal((await partnerLead(leadId)).outcome, null);
    assert.equal((await setOutcome(t, leadId, { ...bodies.CONDITIONED, note })).statusCode, 200);
    const lead = await partnerLead(leadId);
    assert.equal(lead.status, 'PREQUALIFIED', 'the outcome does not move the lead status');
    assert.deepEqual(Object.keys(lead.outcome).sort(), [
      'amountApproved',
      'amountFunded',
      'at',
      'conditions',
      'reasonCode',
      'status',
    ]);
    assert.equal(lead.outcome.status, 'CONDITIONED');
    assert.deepEqual(codesAndDescriptions(lead.outcome.conditions), bodies.CONDITIONED.conditions);
    assert.ok(!JSON.stringify(lead).includes(noteWords), 'no note');
    assert.equal((await setOutcome(t, leadId, bodies.APPROVED)).statusCode, 200);
    assert.equal((await setOutcome(t, leadId, bodies.FUNDED)).statusCode, 200);
    const funded = (await partnerLead(leadId)).outcome;
    assert.deepEqual(
      { ...funded, at: undefined },
      {
        status: 'FUNDED',
        at: undefined,
        reasonCode: null,
        conditions: null,
        amountApproved: 250000,
        amountFunded: 240000.5,
      },
    );
  });

  test('another company’s partner cannot read the lead or its outcome', async () => {
    const leadId = await copy();
    assert.equal((await setOutcome(t, leadId, bodies.IN_REVIEW)).statusCode, 200);
    const other = await t.newPartner();
    const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: other.headers });
    assert.equal(res.statusCode, 404, show(res));
  });

  test('both lists show outcomeStatus and filter by outcome', async () => {
    const declined = await copy();
    const approved = await copy();
    const none = await copy();
    assert.equal((await setOutcome(t, declined, bodies.DECLINED)).statusCode, 200);
    assert.equal((await setOutcome(t, approved, bodies.APPROVED)).statusCode, 200);
    for (const [url, headers] of [
      [`${api}/leads`, t.partner.headers],
      ['/admin/leads', t.admin],
    ] as const) {
      const all = await t.app.inject({ method: 'GET', url: `${url}?limit=100`, headers });
      assert.equal(all.statusCode, 200, show(all));
      type Item = { id: string; outcomeStatus: string | null };
      const statusOf = new Map(all.json().items.map((i: Item) => [i.id, i.outcomeStatus]));
      assert.equal(statusOf.get(declined), 'DECLINED');
      assert.equal(statusOf.get(approved), 'APPROVED');
      assert.equal(statusOf.get(none), null);
      const filtered = await t.app.inject({ method: 'GET', url: `${url}?outcome=DECLINED&limit=100`, headers });
      assert.equal(filtered.statusCode, 200, show(filtered));
      const items = filtered.json().items as { id: string; outcomeStatus: string }[];
      assert.ok(
        items.some((i) => i.id === declined),
        url,
      );
      assert.ok(
        items.every((i) => i.outcomeStatus === 'DECLINED'),
        url,
      );
      const bad = await t.app.inject({ method: 'GET', url: `${url}?outcome=MAYBE`, headers });
      assert.equal(bad.statusCode, 400, show(bad));
      assert.equal(bad.json().additionalData.errors[0].field, 'outcome');
    }
  });

  test('a list filtered by outcome pages through every such lead once, newest first, with other filters', async () => {
    const withdrawn: string[] = [];
    for (let i = 0; i < 5; i++) {
      const leadId = await copy();
      assert.equal((await setOutcome(t, leadId, bodies.WITHDRAWN)).statusCode, 200);
      withdrawn.push(leadId);
      await copy();
    }
    const company = `companyId=${t.partner.companyId}`;
    for (const [url, headers] of [
      [`${api}/leads?`, t.partner.headers],
      [`/admin/leads?${company}&`, t.admin],
    ] as const) {
      const read = async (query: string) => {
        const ids: string[] = [];
        let cursor: string | null = null;
        do {
          const page: string = `${url}${query}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
          const res = await t.app.inject({ method: 'GET', url: page, headers });
          assert.equal(res.statusCode, 200, show(res));
          const body = res.json() as { items: { id: string }[]; nextCursor: string | null };
          assert.ok(body.items.length <= 2);
          ids.push(...body.items.map((i) => i.id));
          cursor = body.nextCursor;
        } while (cursor);
        return ids;
      };
      const all = await t.app.inject({ method: 'GET', url: `${url}limit=100`, headers });
      const newestFirst = (all.json().items as { id: string }[])
        .map((i) => i.id)
        .filter((id) => withdrawn.includes(id));
      assert.equal(newestFirst.length, withdrawn.length, url);
      assert.deepEqual(await read('outcome=WITHDRAWN'), newestFirst, url);
      // The copies are pre-qualified: with the status the same leads, with another none.
      assert.deepEqual(await read('outcome=WITHDRAWN&status=PREQUALIFIED'), newestFirst, url);
      assert.deepEqual(await read('outcome=WITHDRAWN&status=PIN_SENT'), [], url);
    }
  });
}

function partnerViewTests2() {
  test('each condition has a stable id and a status; a later CONDITIONED keeps the ids it repeats', async () => {
    const leadId = await copy();
    const income = { code: 'PROOF_OF_INCOME', description: 'Últimos 3 recibos de nómina' };
    const address = { code: 'PROOF_OF_ADDRESS', description: 'Comprobante de domicilio reciente' };
    const first = await setOutcome(t, leadId, { status: 'CONDITIONED', conditions: [income, address] });
    assert.equal(first.statusCode, 200, show(first));
    const [a, b] = first.json().conditions;
    for (const condition of [a, b]) {
      assert.match(condition.id, /^cond_[0-9a-f]{20}$/);
      assert.equal(condition.status, 'PENDING');
    }
    assert.notEqual(a.id, b.id);
    // The partner's view, and the event it hears, show the same ids and statuses.
    assert.deepEqual((await partnerLead(leadId)).outcome.conditions, [a, b]);

    const changedAddress = { ...address, description: 'Comprobante de domicilio de los últimos 3 meses' };
    const second = await setOutcome(t, leadId, { status: 'CONDITIONED', conditions: [changedAddress, income] });
    assert.equal(second.statusCode, 200, show(second));
    const [c, d] = second.json().conditions;
    assert.equal(d.id, a.id, 'an unchanged condition keeps its id');
    assert.notEqual(c.id, b.id, 'a changed condition is a new one');
    // Back through IN_REVIEW, the conditions asked before keep their ids too.
    assert.equal((await setOutcome(t, leadId, { status: 'IN_REVIEW' })).statusCode, 200);
    const third = await setOutcome(t, leadId, { status: 'CONDITIONED', conditions: [address] });
    assert.equal(third.json().conditions[0].id, b.id);
    // The same condition written twice is two conditions.
    const twice = await setOutcome(t, leadId, { status: 'CONDITIONED', conditions: [income, income] });
    const [e, f] = twice.json().conditions;
    assert.equal(e.id, a.id);
    assert.notEqual(f.id, e.id);
  });

  test(
    'each change reaches the partner as a signed ' + 'lead.outcome_changed with the partner view, never the note',
    async () => {
      const leadId = await copy();
      assert.equal((await setOutcome(t, leadId, { ...bodies.IN_REVIEW, note })).statusCode, 200);
      assert.equal((await setOutcome(t, leadId, { ...bodies.WITHDRAWN, note })).statusCode, 200);
      await t.container.webhooks.worker.runUntilIdle();
      const mine = receiver.received.filter((r) => r.body.includes(leadId));
      assert.equal(mine.length, 2);
      const verifier = new Webhook(secret);
      const events = mine.map(
        (r) =>
          verifier.verify(r.body, r.headers as Record<string, string>) as {
            type: string;
            data: { leadId: string; companyId: string; status: string; outcome: Record<string, unknown> };
          },
      );
      assert.deepEqual(
        events.map((e) => e.type),
        ['lead.outcome_changed', 'lead.outcome_changed'],
      );
      assert.deepEqual(
        events.map((e) => e.data.outcome.status),
        ['IN_REVIEW', 'WITHDRAWN'],
      );
      const last = events[1].data;
      assert.equal(last.leadId, leadId);
      assert.equal(last.companyId, t.partner.companyId);
      assert.equal(last.status, 'PREQUALIFIED');
      assert.deepEqual(last.outcome, (await partnerLead(leadId)).outcome);
      assert.ok(
        mine.every((r) => !r.body.includes(noteWords)),
        'no note in an event',
      );
    },
  );

  test('erasing the personal data erases the notes and keeps the outcome; no note reaches a log', async () => {
    const leadId = await copy();
    assert.equal((await setOutcome(t, leadId, { ...bodies.IN_REVIEW, note })).statusCode, 200);
    assert.equal((await setOutcome(t, leadId, { ...bodies.APPROVED, note })).statusCode, 200);
    assert.equal((await operatorOutcome(t, leadId))?.note, note);
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${leadId}/personal-data`,
      headers: t.admin,
    });
    assert.equal(erased.statusCode, 204, show(erased));
    const after = await operatorOutcome(t, leadId);
    assert.equal(after?.status, 'APPROVED');
    assert.equal(after?.note, null);
    assert.deepEqual(
      after?.history.map((h) => h.status),
      ['IN_REVIEW', 'APPROVED'],
    );
    const { rows } = await t.database.db.query<{ n: number }>(
      'select count(*)::int as n from lead_outcomes where lead_id = $1 and note_enc is not null',
      [leadId],
    );
    assert.equal(rows[0].n, 0, 'no earlier note kept either');
    // A note written once the lead is erased is not kept: it would outlive the erasure.
    const later = await setOutcome(t, leadId, { ...bodies.FUNDED, note });
    assert.equal(later.statusCode, 200, show(later));
    assert.equal(later.json().note, null);
    const { rows: after2 } = await t.database.db.query<{ n: number }>(
      'select count(*)::int as n from lead_outcomes where lead_id = $1 and note_enc is not null',
      [leadId],
    );
    assert.equal(after2[0].n, 0, 'no note stored after the erasure');
    assert.equal((await partnerLead(leadId)).outcome.status, 'FUNDED');
    assert.ok(!t.logs.some((line) => line.includes(noteWords)), 'no note in the log');
  });
}

describe('the partner’s view of the lender’s decision', () => {
  before(async () => {
    t = await buildTestApp();
    copy = await leadCopies(t);
    receiver = await startReceiver();
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/webhooks`,
      headers: t.partner.headers,
      payload: { url: receiver.url, eventTypes: ['lead.outcome_changed'] },
    });
    assert.equal(res.statusCode, 201, show(res));
    secret = res.json().secret;
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });
  partnerViewTests1();
  partnerViewTests2();
});
