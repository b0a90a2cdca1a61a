/**
 * POST /admin/leads/{leadId}/outcome: every move of the transition table through the API, every
 * field rule (400 before 409), who may call it, and the audit record; refused calls change nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertError, readyLead } from '../../test/lead-fixture.ts';
import { bearer, operatorKey } from '../../test/lender-fixture.ts';
import {
  bodies,
  codesAndDescriptions,
  leadCopies,
  operatorOutcome,
  setOutcome,
  type LeadCopies,
} from '../../test/outcome-fixture.ts';

type Status = keyof typeof bodies;
const statuses = Object.keys(bodies) as Status[];
// How a lead reaches each status first; the contract's table, written out: the targets each allows.
const pathTo: Record<Status | 'none', Status[]> = {
  none: [],
  IN_REVIEW: ['IN_REVIEW'],
  CONDITIONED: ['CONDITIONED'],
  APPROVED: ['APPROVED'],
  FUNDED: ['APPROVED', 'FUNDED'],
  DECLINED: ['DECLINED'],
  WITHDRAWN: ['WITHDRAWN'],
};
const allowed: Record<Status | 'none', Status[]> = {
  none: ['IN_REVIEW', 'CONDITIONED', 'APPROVED', 'DECLINED', 'WITHDRAWN'],
  IN_REVIEW: ['CONDITIONED', 'APPROVED', 'DECLINED', 'WITHDRAWN'],
  CONDITIONED: ['IN_REVIEW', 'CONDITIONED', 'APPROVED', 'DECLINED', 'WITHDRAWN'],
  APPROVED: ['FUNDED', 'DECLINED', 'WITHDRAWN'],
  FUNDED: [],
  DECLINED: [],
  WITHDRAWN: [],
};

let t: TestApp;
let copy: LeadCopies;

const leadAt = async (from: Status | 'none') => {
  const leadId = await copy();
  for (const step of pathTo[from]) assert.equal((await setOutcome(t, leadId, bodies[step])).statusCode, 200);
  return leadId;
};

const invalid: [string, Status | 'none', object, string[]][] = [
  ['CONDITIONED without conditions', 'none', { status: 'CONDITIONED' }, ['conditions']],
  ['conditions on APPROVED', 'none', { ...bodies.APPROVED, conditions: bodies.CONDITIONED.conditions }, ['conditions']],
  [
    'an unknown condition code',
    'none',
    { status: 'CONDITIONED', conditions: [{ code: 'PAYSTUB', description: 'x' }] },
    ['conditions.0.code'],
  ],
  [
    'an empty description',
    'none',
    { status: 'CONDITIONED', conditions: [bodies.CONDITIONED.conditions[0], { code: 'OTHER', description: '' }] },
    ['conditions.1.description'],
  ],
  [
    'a description over 200 characters',
    'none',
    { status: 'CONDITIONED', conditions: [{ code: 'OTHER', description: 'x'.repeat(201) }] },
    ['conditions.0.description'],
  ],
  ['an empty list of conditions', 'none', { status: 'CONDITIONED', conditions: [] }, ['conditions']],
  [
    'eleven conditions',
    'none',
    { status: 'CONDITIONED', conditions: Array(11).fill(bodies.CONDITIONED.conditions[0]) },
    ['conditions'],
  ],
  ['DECLINED without reasonCode', 'none', { status: 'DECLINED' }, ['reasonCode']],
  ['WITHDRAWN without reasonCode', 'none', { status: 'WITHDRAWN' }, ['reasonCode']],
  ['an unknown reasonCode', 'none', { status: 'DECLINED', reasonCode: 'BAD_LUCK' }, ['reasonCode']],
  ['reasonCode on APPROVED', 'none', { ...bodies.APPROVED, reasonCode: 'OTHER' }, ['reasonCode']],
  ['reasonCode on FUNDED', 'APPROVED', { ...bodies.FUNDED, reasonCode: 'OTHER' }, ['reasonCode']],
  ['APPROVED without amountApproved', 'none', { status: 'APPROVED' }, ['amountApproved']],
  ['amountApproved of zero', 'none', { status: 'APPROVED', amountApproved: 0 }, ['amountApproved']],
  ['a negative amountApproved', 'none', { status: 'APPROVED', amountApproved: -5 }, ['amountApproved']],
  ['amountApproved with three decimals', 'none', { status: 'APPROVED', amountApproved: 1000.125 }, ['amountApproved']],
  ['amountApproved as text', 'none', { status: 'APPROVED', amountApproved: '1000' }, ['amountApproved']],
  ['amountApproved on IN_REVIEW', 'none', { status: 'IN_REVIEW', amountApproved: 10 }, ['amountApproved']],
  ['amountFunded on APPROVED', 'none', { ...bodies.APPROVED, amountFunded: 10 }, ['amountFunded']],
  ['FUNDED without amountFunded', 'APPROVED', { status: 'FUNDED' }, ['amountFunded']],
  ['amountApproved on FUNDED', 'APPROVED', { ...bodies.FUNDED, amountApproved: 10 }, ['amountApproved']],
  [
    'amountFunded over the approved amount',
    'APPROVED',
    { status: 'FUNDED', amountFunded: 250000.01 },
    ['amountFunded'],
  ],
  ['a note over 1,000 characters', 'none', { ...bodies.IN_REVIEW, note: 'n'.repeat(1001) }, ['note']],
  ['no status', 'none', {}, ['status']],
  ['an unknown status', 'none', { status: 'PENDING' }, ['status']],
  ['an unknown field', 'none', { ...bodies.IN_REVIEW, priority: 'high' }, ['priority']],
  // The body is checked before the move: a final outcome still answers 400 for a bad body.
  ['a bad body on a final outcome', 'DECLINED', { status: 'CONDITIONED' }, ['conditions']],
];

function setOutcomeTests1() {
  for (const from of Object.keys(pathTo) as (Status | 'none')[]) {
    test(`from ${from}: the table's moves are made and the others are 409 / 4092 with {from, to}`, async () => {
      for (const to of statuses) {
        const leadId = await leadAt(from);
        const res = await setOutcome(t, leadId, bodies[to]);
        const now = await operatorOutcome(t, leadId);
        if (allowed[from].includes(to)) {
          assert.equal(res.statusCode, 200, `${from} → ${to}: ${show(res)}`);
          assert.equal(res.json().status, to);
          assert.deepEqual(res.json(), now);
          assert.deepEqual(
            now?.history.map((h) => h.status),
            [...pathTo[from], to],
          );
        } else {
          const body = assertError(res, 409, 4092, 'Outcome transition not allowed');
          assert.deepEqual(body.additionalData, { from: from === 'none' ? null : from, to }, `${from} → ${to}`);
          assert.deepEqual(now?.history.map((h) => h.status) ?? [], pathTo[from], 'nothing changed');
        }
      }
    });
  }

  test('a lead not yet verified is 409 / 4092 from null, and keeps no outcome', async () => {
    const leadId = await readyLead(t);
    const body = assertError(
      await setOutcome(t, leadId, bodies.IN_REVIEW),
      409,
      4092,
      'Outcome transition not allowed',
    );
    assert.deepEqual(body.additionalData, { from: null, to: 'IN_REVIEW' });
    assert.equal(await operatorOutcome(t, leadId), null);
  });

  test('an unknown lead is 404 / 4040', async () => {
    assertError(
      await setOutcome(t, '00000000-0000-4000-8000-000000000000', bodies.IN_REVIEW),
      404,
      4040,
      'Lead not found',
    );
  });

  test(
    'the operator view carries the amounts, conditions, ' + 'note and history; FUNDED keeps the approved amount',
    async () => {
      const leadId = await copy();
      const conditioned = await setOutcome(t, leadId, { ...bodies.CONDITIONED, note: 'Cliente con dos empleos' });
      assert.equal(conditioned.statusCode, 200, show(conditioned));
      const view = conditioned.json();
      assert.deepEqual(codesAndDescriptions(view.conditions), bodies.CONDITIONED.conditions);
      assert.equal(view.note, 'Cliente con dos empleos');
      assert.equal(view.operatorId, 'admin-token');
      assert.equal(view.amountApproved, null);
      const replaced = [
        { code: 'LARGER_DOWN_PAYMENT', description: 'Enganche de 30%' },
        { code: 'CO_SIGNER', description: 'Aval con inmueble' },
      ];
      assert.deepEqual(
        codesAndDescriptions(
          (await setOutcome(t, leadId, { status: 'CONDITIONED', conditions: replaced })).json().conditions,
        ),
        replaced,
      );
      assert.equal(
        (await setOutcome(t, leadId, { status: 'APPROVED', amountApproved: 300000.25 })).json().conditions,
        null,
      );
      const funded = (await setOutcome(t, leadId, { status: 'FUNDED', amountFunded: 300000.25 })).json();
      assert.equal(funded.amountApproved, 300000.25);
      assert.equal(funded.amountFunded, 300000.25);
      assert.equal(funded.note, null);
      type Entry = { status: string; operatorId: string; reasonCode: null; at: string };
      assert.deepEqual(
        funded.history.map((h: Entry) => [h.status, h.operatorId, h.reasonCode]),
        [
          ['CONDITIONED', 'admin-token', null],
          ['CONDITIONED', 'admin-token', null],
          ['APPROVED', 'admin-token', null],
          ['FUNDED', 'admin-token', null],
        ],
      );
      assert.ok(funded.history.every((h: Entry, i: number, all: Entry[]) => i === 0 || h.at >= all[i - 1].at));
    },
  );
}

function setOutcomeTests2() {
  for (const [name, from, body, fields] of invalid) {
    test(`${name}: 400 / 40015 on ${fields.join(', ')}, nothing changed`, async () => {
      const leadId = await leadAt(from);
      const res = assertError(await setOutcome(t, leadId, body), 400, 40015, 'Bad Request');
      assert.deepEqual(
        res.additionalData.errors.map((e: { field: string }) => e.field),
        fields,
        JSON.stringify(res),
      );
      assert.deepEqual((await operatorOutcome(t, leadId))?.history.map((h) => h.status) ?? [], pathTo[from]);
    });
  }
}

describe('the lender sets a lead’s outcome', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    copy = await leadCopies(t);
  });
  after(() => t.close());
  setOutcomeTests1();
  setOutcomeTests2();
});

describe('who may set an outcome, and the audit record of each change', () => {
  let t: TestApp;
  let copy: LeadCopies;
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    copy = await leadCopies(t);
  });
  after(() => t.close());

  const auditOf = async (leadId: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/audit?limit=100', headers: t.admin });
    assert.equal(res.statusCode, 200, show(res));
    return (res.json().items as { action: string; leadId: string; operatorId: string; requestId: string }[]).filter(
      (i) => i.leadId === leadId && i.action === 'outcome',
    );
  };

  test('an analyst gets 403 / 4030 and changes nothing; an officer and an admin operator may', async () => {
    const leadId = await copy();
    const analyst = await operatorKey(t, 'analyst');
    assertError(await setOutcome(t, leadId, bodies.IN_REVIEW, bearer(analyst.key)), 403, 4030, 'Forbidden');
    assert.equal(await operatorOutcome(t, leadId), null);
    assert.deepEqual(await auditOf(leadId), []);

    const officer = await operatorKey(t, 'officer');
    const byOfficer = await setOutcome(t, leadId, bodies.IN_REVIEW, {
      ...bearer(officer.key),
      'x-request-id': 'officer-decides-1',
    });
    assert.equal(byOfficer.statusCode, 200, show(byOfficer));
    assert.equal(byOfficer.json().operatorId, officer.id);
    const admin = await operatorKey(t, 'admin');
    const byAdmin = await setOutcome(t, leadId, bodies.APPROVED, bearer(admin.key));
    assert.equal(byAdmin.statusCode, 200, show(byAdmin));
    assert.deepEqual(
      byAdmin.json().history.map((h: { operatorId: string }) => h.operatorId),
      [officer.id, admin.id],
    );

    const records = await auditOf(leadId);
    assert.equal(records.length, 2);
    assert.deepEqual(records.map((r) => r.operatorId).sort(), [officer.id, admin.id].sort());
    assert.ok(records.some((r) => r.requestId === 'officer-decides-1'));
  });

  test('an officer reads and exports leads as an analyst does, but may not manage operators', async () => {
    const officer = await operatorKey(t, 'officer');
    for (const url of ['/admin/leads', '/admin/leads/export', '/admin/companies', '/admin/reports/funnel']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(officer.key) });
      assert.equal(res.statusCode, 200, `${url}: ${show(res)}`);
    }
    assertError(
      await t.app.inject({ method: 'GET', url: '/admin/operators', headers: bearer(officer.key) }),
      403,
      4030,
      'Forbidden',
    );
  });

  test('a refused change writes no audit record', async () => {
    const leadId = await copy();
    assert.equal((await setOutcome(t, leadId, bodies.FUNDED)).statusCode, 409);
    assert.equal((await setOutcome(t, leadId, { status: 'APPROVED' })).statusCode, 400);
    assert.deepEqual(await auditOf(leadId), []);
    assert.equal((await setOutcome(t, leadId, bodies.DECLINED)).statusCode, 200);
    const [record] = await auditOf(leadId);
    assert.equal(record.operatorId, 'admin-token');
  });
});
