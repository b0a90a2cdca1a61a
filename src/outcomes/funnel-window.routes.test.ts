/**
 * The funnel's window against its per-day and per-month counts: whole UTC months and days are summed
 * from the counts the triggers keep, the part of a day at either end is read lead by lead. Leads on both sides of
 * midnight and of a Mexico City day's start, statuses and outcomes that change after creation:
 * every window answers what counting the leads one by one answers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type Partner, type TestApp } from '../../test/helper.ts';
import { bodies, leadCopies, setOutcome, type LeadCopies } from '../../test/outcome-fixture.ts';
import { splitDays, splitWindow } from './funnel.repository.ts';

type Status = 'IN_PROGRESS' | 'PIN_SENT' | 'VERIFIED' | 'PREQUALIFIED' | 'NOT_PREQUALIFIED';
interface Known {
  createdAt: Date;
  status: Status;
  approved: boolean;
  funded: number | null;
}

const at = (iso: string) => new Date(iso);

let t: TestApp;
let copy: LeadCopies;
let partner: Partner;
const known: Known[] = [];

const expected = (from?: Date, to?: Date) => {
  const inside = known.filter((k) => (!from || k.createdAt >= from) && (!to || k.createdAt < to));
  const verified = inside.filter((k) => ['VERIFIED', 'PREQUALIFIED', 'NOT_PREQUALIFIED'].includes(k.status));
  const funded = inside.filter((k) => k.funded !== null);
  return {
    created: inside.length,
    verified: verified.length,
    prequalified: inside.filter((k) => k.status === 'PREQUALIFIED').length,
    approved: inside.filter((k) => k.approved).length,
    funded: funded.length,
    fundedAmount: Math.round(funded.reduce((sum, k) => sum + (k.funded ?? 0), 0) * 100) / 100,
  };
};

function funnelWindowTests() {
  test('every window, whole days or not, counts what the leads one by one count', async () => {
    const bounds = [
      undefined,
      '2030-03-01T00:00:00.000Z',
      '2030-03-01T05:59:59.999Z',
      '2030-03-01T06:00:00.000Z',
      '2030-03-01T23:59:59.999Z',
      '2030-03-02T00:00:00.000Z',
      '2030-03-02T00:00:00.001Z',
      '2030-03-02T06:00:00.000Z',
      '2030-03-03T00:00:00.000Z',
      '2030-03-03T12:00:00.000Z',
      '2030-03-04T00:00:00.000Z',
      '2030-03-04T00:00:00.001Z',
      // Whole months and the days around them.
      '2030-01-31T00:00:00.000Z',
      '2030-02-01T00:00:00.000Z',
      '2030-02-14T06:00:00.000Z',
      '2030-04-01T00:00:00.000Z',
      '2030-04-30T12:00:00.000Z',
      '2030-05-01T00:00:00.000Z',
    ];
    for (const from of bounds) {
      for (const to of bounds) {
        const query = new URLSearchParams({ ...(from && { createdFrom: from }), ...(to && { createdTo: to }) });
        query.set('companyId', partner.companyId);
        const res = await t.app.inject({ method: 'GET', url: `/admin/reports/funnel?${query}`, headers: t.admin });
        assert.equal(res.statusCode, 200, show(res));
        const want = expected(from ? at(from) : undefined, to ? at(to) : undefined);
        const body = res.json();
        assert.deepEqual(body.totals, want, `from ${from ?? '…'} to ${to ?? '…'}`);
        assert.equal(body.items.length, want.created > 0 ? 1 : 0, `from ${from ?? '…'} to ${to ?? '…'}`);
      }
    }
  });

  test('whole days are split into the whole months they hold and the days at either end', () => {
    assert.deepEqual(splitDays({}), { months: { from: undefined, to: undefined }, days: [] });
    assert.deepEqual(splitDays({ from: '2030-02-01', to: '2030-05-01' }), {
      months: { from: '2030-02-01', to: '2030-05-01' },
      days: [],
    });
    assert.deepEqual(splitDays({ from: '2030-01-31', to: '2030-04-30' }), {
      months: { from: '2030-02-01', to: '2030-04-01' },
      days: [
        { from: '2030-01-31', to: '2030-02-01' },
        { from: '2030-04-01', to: '2030-04-30' },
      ],
    });
    assert.deepEqual(splitDays({ from: '2030-02-02', to: '2030-02-27' }), {
      days: [{ from: '2030-02-02', to: '2030-02-27' }],
    });
    assert.deepEqual(splitDays({ from: '2030-12-15' }), {
      months: { from: '2031-01-01', to: undefined },
      days: [{ from: '2030-12-15', to: '2031-01-01' }],
    });
    assert.deepEqual(splitDays({ to: '0050-03-02' }), {
      months: { from: undefined, to: '0050-03-01' },
      days: [{ from: '0050-03-01', to: '0050-03-02' }],
    });
  });

  test('a window is split into its whole UTC days and the parts of a day at its ends', () => {
    const d = (iso: string) => new Date(iso);
    assert.deepEqual(splitWindow(), { days: { from: undefined, to: undefined }, parts: [] });
    assert.deepEqual(splitWindow(d('2030-03-01T00:00:00Z'), d('2030-03-03T00:00:00Z')), {
      days: { from: '2030-03-01', to: '2030-03-03' },
      parts: [],
    });
    assert.deepEqual(splitWindow(d('2030-03-01T06:00:00Z'), d('2030-03-03T06:00:00Z')), {
      days: { from: '2030-03-02', to: '2030-03-03' },
      parts: [
        { from: d('2030-03-01T06:00:00Z'), to: d('2030-03-02T00:00:00Z') },
        { from: d('2030-03-03T00:00:00Z'), to: d('2030-03-03T06:00:00Z') },
      ],
    });
    assert.deepEqual(splitWindow(d('2030-03-01T06:00:00Z'), d('2030-03-02T06:00:00Z')), {
      parts: [{ from: d('2030-03-01T06:00:00Z'), to: d('2030-03-02T06:00:00Z') }],
    });
    assert.deepEqual(splitWindow(d('2030-03-02T00:00:00Z'), d('2030-03-01T00:00:00Z')), { parts: [] });
    assert.deepEqual(splitWindow(undefined, d('2030-03-01T00:00:00.001Z')), {
      days: { from: undefined, to: '2030-03-01' },
      parts: [{ from: d('2030-03-01T00:00:00Z'), to: d('2030-03-01T00:00:00.001Z') }],
    });
  });
}

describe('the funnel report’s window and its per-day counts', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
    copy = await leadCopies(t);
    partner = await t.newPartner();
    const lead = async (iso: string, status: Status) => {
      const id = await copy({ companyId: partner.companyId, status, createdAt: at(iso) });
      const entry: Known = { createdAt: at(iso), status, approved: false, funded: null };
      known.push(entry);
      return { id, entry };
    };
    await lead('2030-03-01T05:59:59.999Z', 'PREQUALIFIED');
    await lead('2030-03-01T06:00:00.000Z', 'IN_PROGRESS');
    await lead('2030-03-01T23:59:59.999Z', 'NOT_PREQUALIFIED');
    const midnight = await lead('2030-03-02T00:00:00.000Z', 'PREQUALIFIED');
    await lead('2030-03-02T05:59:59.999Z', 'PIN_SENT');
    const moved = await lead('2030-03-02T06:00:00.000Z', 'PIN_SENT');
    const funded = await lead('2030-03-03T12:00:00.000Z', 'PREQUALIFIED');
    await lead('2030-03-04T00:00:00.000Z', 'VERIFIED');
    await lead('2030-01-31T23:00:00.000Z', 'IN_PROGRESS');
    const february = await lead('2030-02-01T00:00:00.000Z', 'PIN_SENT');
    await lead('2030-02-20T10:00:00.000Z', 'PREQUALIFIED');
    const april = await lead('2030-04-15T10:00:00.000Z', 'PREQUALIFIED');
    await lead('2030-04-30T23:59:59.999Z', 'NOT_PREQUALIFIED');
    await lead('2030-05-01T00:00:00.000Z', 'IN_PROGRESS');
    await t.database.db.query(`update leads set status = 'PREQUALIFIED' where id = $1`, [february.id]);
    february.entry.status = 'PREQUALIFIED';
    assert.equal((await setOutcome(t, april.id, bodies.APPROVED)).statusCode, 200);
    april.entry.approved = true;
    // After creation: a lead moves on, another is approved then declined, a third funded.
    await t.database.db.query(`update leads set status = 'VERIFIED' where id = $1`, [moved.id]);
    moved.entry.status = 'VERIFIED';
    for (const body of [bodies.APPROVED, bodies.DECLINED]) {
      assert.equal((await setOutcome(t, midnight.id, body)).statusCode, 200);
    }
    midnight.entry.approved = true;
    for (const body of [bodies.APPROVED, { status: 'FUNDED', amountFunded: 123456.78 }]) {
      const res = await setOutcome(t, funded.id, body);
      assert.equal(res.statusCode, 200, show(res));
    }
    Object.assign(funded.entry, { approved: true, funded: 123456.78 });
  });
  after(() => t.close());
  funnelWindowTests();
});
