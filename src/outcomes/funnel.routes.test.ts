/**
 * GET /admin/reports/funnel: per company, the leads created in the window and how far each got
 * (cumulative stages), the funded amount, the companyId filter, the totals and who may read it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type Partner, type TestApp } from '../../test/helper.ts';
import { assertError } from '../../test/lead-fixture.ts';
import { bearer, operatorKey } from '../../test/lender-fixture.ts';
import { bodies, leadCopies, setOutcome, type LeadCopies } from '../../test/outcome-fixture.ts';

const counts = (...n: [number, number, number, number, number, number]) => ({
  created: n[0],
  verified: n[1],
  prequalified: n[2],
  approved: n[3],
  funded: n[4],
  fundedAmount: n[5],
});
const day = (d: number) => new Date(Date.UTC(2030, 0, d, 15));

let t: TestApp;
let copy: LeadCopies;
let north: Partner;
let south: Partner;

const funnel = (query: string, headers = t.admin) =>
  t.app.inject({ method: 'GET', url: `/admin/reports/funnel?${query}`, headers });
const window = 'createdFrom=2030-01-02&createdTo=2030-01-10';
type Line = { companyId: string; companyName?: string; created: number; verified: number; approved: number };
const lineOf = (body: { items: Line[] }, partner: Partner) => body.items.find((i) => i.companyId === partner.companyId);

function funnelReportTests() {
  test('counts each company’s leads created in the window and how far they got, with the totals', async () => {
    const res = await funnel(window);
    assert.equal(res.statusCode, 200, show(res));
    const body = res.json();
    assert.equal(body.items.length, 2, 'companies without leads in the window are left out');
    const northLine = lineOf(body, north);
    assert.deepEqual(
      { ...northLine, companyName: undefined },
      {
        companyId: north.companyId,
        companyName: undefined,
        created: 5,
        verified: 4,
        prequalified: 3,
        approved: 2,
        funded: 1,
        fundedAmount: 199999.99,
      },
    );
    assert.equal(typeof northLine?.companyName, 'string');
    assert.deepEqual(
      { ...lineOf(body, south), companyName: undefined },
      {
        companyId: south.companyId,
        companyName: undefined,
        created: 2,
        verified: 1,
        prequalified: 1,
        approved: 1,
        funded: 1,
        fundedAmount: 100000.02,
      },
    );
    assert.deepEqual(body.totals, counts(7, 5, 4, 3, 2, 300000.01));
  });

  test('createdFrom is inclusive and createdTo exclusive', async () => {
    const body = (await funnel('createdFrom=2030-01-01T15:00:00Z&createdTo=2030-01-10T15:00:00.001Z')).json();
    assert.equal(lineOf(body, north)?.created, 7);
    assert.equal(lineOf(body, north)?.approved, 3);
    assert.equal(lineOf(body, north)?.verified, 6);
    const none = (await funnel('createdFrom=2030-02-01')).json();
    assert.deepEqual(none, { items: [], totals: counts(0, 0, 0, 0, 0, 0) });
  });

  test('companyId keeps one company', async () => {
    const body = (await funnel(`${window}&companyId=${south.companyId}`)).json();
    assert.deepEqual(
      body.items.map((i: { companyId: string }) => i.companyId),
      [south.companyId],
    );
    assert.deepEqual(body.totals, counts(2, 1, 1, 1, 1, 100000.02));
  });

  test('a bad window or company is 400 / 40015 on the field; analysts and officers may read it', async () => {
    const bad = assertError(await funnel('createdFrom=yesterday'), 400, 40015, 'Bad Request');
    assert.equal(bad.additionalData.errors[0].field, 'createdFrom');
    const badCompany = assertError(await funnel('companyId=acme'), 400, 40015, 'Bad Request');
    assert.equal(badCompany.additionalData.errors[0].field, 'companyId');
    for (const role of ['analyst', 'officer'] as const) {
      const { key } = await operatorKey(t, role);
      const res = await funnel(window, bearer(key));
      assert.equal(res.statusCode, 200, show(res));
      assert.equal(res.json().totals.created, 7);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/admin/reports/funnel' })).statusCode, 401);
  });
}

describe('the funnel report', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    copy = await leadCopies(t);
    north = await t.newPartner();
    south = await t.newPartner();
    // North, inside January 2–9: 5 leads, 4 verified, 3 pre-qualified, 2 approved (one then declined), 1 funded.
    const n = (o: {
      status: 'IN_PROGRESS' | 'PIN_SENT' | 'VERIFIED' | 'PREQUALIFIED' | 'NOT_PREQUALIFIED';
      createdAt: Date;
    }) => copy({ companyId: north.companyId, ...o });
    await n({ status: 'IN_PROGRESS', createdAt: day(2) });
    const declinedAfterApproval = await n({ status: 'PREQUALIFIED', createdAt: day(3) });
    const funded = await n({ status: 'PREQUALIFIED', createdAt: day(4) });
    const conditioned = await n({ status: 'NOT_PREQUALIFIED', createdAt: day(5) });
    await n({ status: 'PREQUALIFIED', createdAt: day(8) });
    for (const [leadId, steps] of [
      [declinedAfterApproval, [bodies.APPROVED, bodies.DECLINED]],
      [funded, [bodies.IN_REVIEW, bodies.APPROVED, { status: 'FUNDED', amountFunded: 199999.99 }]],
      [conditioned, [bodies.CONDITIONED]],
    ] as const) {
      for (const body of steps) assert.equal((await setOutcome(t, leadId, body)).statusCode, 200);
    }
    // North, outside the window (January 10 is createdTo, exclusive; January 1 is before it).
    const late = await n({ status: 'PREQUALIFIED', createdAt: day(10) });
    assert.equal((await setOutcome(t, late, bodies.APPROVED)).statusCode, 200);
    await n({ status: 'VERIFIED', createdAt: day(1) });
    // South, inside: 2 leads, one funded.
    const southFunded = await copy({ companyId: south.companyId, status: 'PREQUALIFIED', createdAt: day(2) });
    await copy({ companyId: south.companyId, status: 'PIN_SENT', createdAt: day(9) });
    for (const body of [bodies.APPROVED, { status: 'FUNDED', amountFunded: 100000.02 }]) {
      assert.equal((await setOutcome(t, southFunded, body)).statusCode, 200);
    }
  });
  after(() => t.close());
  funnelReportTests();
});
