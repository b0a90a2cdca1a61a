/**
 * Legal retention (docs/lender-api.md, "Erasure and retention"): a credit keeps its personal data
 * CREDIT_RETENTION_YEARS from its funding and a held lead as long as the hold lasts; the purge and an
 * erasure request leave both alone (409 / 4097), and the lender's view says until when.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse as Response } from 'fastify';
import { buildTestApp, createManualClock, show, type TestApp } from '../../test/helper.ts';
import { assertError } from '../../test/lead-fixture.ts';
import { ownTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import type { Db } from '../db/index.ts';
import { bearer, operatorKey } from '../../test/lender-fixture.ts';
import { bodies, leadCopies, setOutcome, type LeadCopies } from '../../test/outcome-fixture.ts';

const dayMs = 86_400_000;

/**
 * The database with a pause before each statement and each transaction while `pause.ms` is set: requests
 * sent together then interleave between their statements, as over a network, where in memory the embedded
 * engine would run all the statements of one request before those of the other.
 */
function pausing(database: TestDatabase) {
  const pause = { ms: 0 };
  const wait = () => (pause.ms > 0 ? new Promise((resolve) => setTimeout(resolve, pause.ms)) : undefined);
  const { db } = database;
  const query: Db['query'] = async (sql, params) => {
    await wait();
    return db.query(sql, params);
  };
  const transaction: Db['transaction'] = async (fn) => {
    await wait();
    return db.transaction(fn);
  };
  return { pause, database: { ...database, db: { ...db, query, transaction } } };
}

describe('legal retention: credits and legal holds', () => {
  const clock = createManualClock(new Date('2026-01-15T12:00:00.000Z'));
  const start = clock.now();
  let t: TestApp;
  let database: TestDatabase;
  let pause: { ms: number };
  let copy: LeadCopies;
  before(async () => {
    database = await ownTestDatabase();
    const paused = pausing(database);
    pause = paused.pause;
    t = await buildTestApp({
      database: paused.database,
      clock,
      env: { PII_RETENTION_DAYS: '180', CREDIT_RETENTION_YEARS: '10' },
    });
    copy = await leadCopies(t);
  });
  after(async () => {
    await t.close();
    await database.drop();
  });

  const hold = (leadId: string, method: 'PUT' | 'GET' | 'DELETE', headers = t.admin, reason?: string) =>
    t.app.inject({
      method,
      url: `/admin/leads/${leadId}/legal-hold`,
      headers,
      ...(reason === undefined ? {} : { payload: { reason } }),
    });
  const erase = (leadId: string) =>
    t.app.inject({ method: 'DELETE', url: `/admin/leads/${leadId}/personal-data`, headers: t.admin });
  const purge = (dryRun: boolean) =>
    t.app.inject({ method: 'POST', url: '/admin/leads/purge', headers: t.admin, payload: { dryRun } });
  const retention = async (leadId: string) =>
    (await t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}`, headers: t.admin })).json().retention;

  test('the lender’s view gives a lead’s retention: until its last change plus the days, and its hold', async () => {
    const leadId = await copy({ createdAt: start });
    const plain = { class: 'lead', retainedUntil: '2026-07-14T12:00:00.000Z', legalHold: false };
    assert.deepEqual(await retention(leadId), plain);
    assert.equal((await hold(leadId, 'PUT', t.admin, 'Carpeta de investigación 8/2026')).statusCode, 200);
    assert.deepEqual(await retention(leadId), { ...plain, legalHold: true });
  });

  test('a reason of spaces only is a 400 that sets nothing; a reason is kept trimmed', async () => {
    const leadId = await copy({ createdAt: start });
    const blank = await hold(leadId, 'PUT', t.admin, '   ');
    assertError(blank, 400, 40015, 'Bad Request');
    assert.deepEqual(blank.json().additionalData.errors, [{ field: 'reason', errorDetail: 'must not be blank' }]);
    assertError(await hold(leadId, 'GET'), 404, 4040, 'Legal hold not found');
    const trimmed = await hold(leadId, 'PUT', t.admin, '  Amparo 45/2026 ');
    assert.equal(trimmed.json().reason, 'Amparo 45/2026');
  });

  test('a hold is set, replaced keeping since, read and released, each audited; admins only', async () => {
    const leadId = await copy({ createdAt: start });
    const first = await hold(leadId, 'PUT', t.admin, 'Juicio mercantil 123/2026');
    assert.equal(first.statusCode, 200, show(first));
    assert.deepEqual(first.json(), {
      reason: 'Juicio mercantil 123/2026',
      since: start.toISOString(),
      operatorId: 'admin-token',
    });
    clock.advance(dayMs);
    const replaced = await hold(leadId, 'PUT', t.admin, 'Requerimiento de la UIF');
    assert.deepEqual(replaced.json(), {
      reason: 'Requerimiento de la UIF',
      since: start.toISOString(),
      operatorId: 'admin-token',
    });
    assert.deepEqual((await hold(leadId, 'GET')).json(), replaced.json());
    const officer = bearer((await operatorKey(t, 'officer')).key);
    assertError(await hold(leadId, 'DELETE', officer), 403, 4030, 'Forbidden');
    assert.equal((await hold(leadId, 'DELETE')).statusCode, 204);
    assertError(await hold(leadId, 'GET'), 404, 4040, 'Legal hold not found');
    assertError(await hold(leadId, 'DELETE'), 404, 4040, 'Legal hold not found');
    assertError(await hold(randomUUID(), 'GET'), 404, 4040, 'Lead not found');
    assertError(await hold(randomUUID(), 'PUT', t.admin, 'x'), 404, 4040, 'Lead not found');

    const audit = (await t.app.inject({ method: 'GET', url: '/admin/audit?limit=200', headers: t.admin })).json();
    assert.deepEqual(
      audit.items.filter((r: { leadId: string }) => r.leadId === leadId).map((r: { action: string }) => r.action),
      ['legal_hold_released', 'legal_hold_set', 'legal_hold_set'],
    );
    clock.set(start);
  });

  test('the purge, dry or not, skips credits in their years and held leads; erasing them is 409 / 4097', async () => {
    const plain = await copy({ createdAt: start });
    const credit = await copy({ createdAt: start });
    const held = await copy({ createdAt: start });
    for (const body of [bodies.APPROVED, bodies.FUNDED])
      assert.equal((await setOutcome(t, credit, body)).statusCode, 200);
    assert.equal((await hold(held, 'PUT', t.admin, 'Litigio')).statusCode, 200);
    clock.set(new Date(start.getTime() + 200 * dayMs));

    const dry = (await purge(true)).json();
    assert.ok(dry.leadIds.includes(plain), 'an ordinary lead unchanged 200 days is due');
    assert.ok(!dry.leadIds.includes(credit) && !dry.leadIds.includes(held), JSON.stringify(dry.leadIds));
    const run = (await purge(false)).json();
    assert.ok(run.leadIds.includes(plain) && !run.leadIds.includes(credit) && !run.leadIds.includes(held));
    // The dry run counted what the run then erased (this file's database is its own).
    assert.deepEqual([dry.count, [...dry.leadIds].sort()], [run.count, [...run.leadIds].sort()]);

    assert.deepEqual(await retention(credit), {
      class: 'credit',
      retainedUntil: '2036-01-15T12:00:00.000Z',
      legalHold: false,
    });
    const refusedCredit = assertError(await erase(credit), 409, 4097, 'Personal data under legal retention');
    assert.deepEqual(refusedCredit.additionalData, { retainedUntil: '2036-01-15T12:00:00.000Z', legalHold: false });
    const refusedHeld = assertError(await erase(held), 409, 4097, 'Personal data under legal retention');
    assert.deepEqual(refusedHeld.additionalData, { retainedUntil: '2026-07-14T12:00:00.000Z', legalHold: true });
    const kept = (await t.app.inject({ method: 'GET', url: `/admin/leads/${credit}`, headers: t.admin })).json();
    assert.equal(kept.erasedAt, null, 'nothing was erased');

    // Released, the held lead is an ordinary one again; the credit waits for its years.
    assert.equal((await hold(held, 'DELETE')).statusCode, 204);
    assert.equal((await erase(held)).statusCode, 204);
    clock.set(new Date('2036-01-15T12:00:01.000Z'));
    assert.ok((await purge(true)).json().leadIds.includes(credit), 'a credit past its years is due');
    assert.equal((await erase(credit)).statusCode, 204);
    clock.set(start);
  });

  /** Sends after `ms` milliseconds (at once when not positive). */
  async function later(ms: number, send: () => Promise<Response>) {
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    return send();
  }

  /** Each statement's pause in a race; the write leads the erasure by -3 to 2 statements, in half steps. */
  const statementMs = 6;
  const offsetOf = (round: number) => ((round % 11) - 6) * (statementMs / 2);

  /** The audit records of the lead with this action, in the order they were written. */
  const recorded = async (leadId: string, action: string) =>
    (
      await t.database.db.query<{ seq: string }>(
        'select seq from audit_records where lead_id = $1 and action = $2 order by seq',
        [leadId, action],
      )
    ).rows.map((r) => Number(r.seq));

  /**
   * Sends a write that keeps the lead's data (a hold, a funding) and an erasure together, the write
   * `writeLeads` milliseconds ahead (behind when negative), each statement paused; the write succeeds. Then
   * either the erasure was refused and erased nothing, or it erased and the write came after it. The
   * erasure's audit record is written inside its transaction, the write's with or after the write: a write
   * answered before the erasure's transaction began has the earlier record, and the lead must then not be
   * erased.
   */
  async function race(leadId: string, write: () => Promise<Response>, action: string, writeLeads: number) {
    pause.ms = statementMs;
    const [written, erased] = await Promise.all([
      later(-writeLeads, write),
      later(writeLeads, () => erase(leadId)),
    ]).finally(() => (pause.ms = 0));
    assert.equal(written.statusCode, 200, show(written));
    const lead = (await t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}`, headers: t.admin })).json();
    const erasures = await recorded(leadId, 'lead.personal_data_erased');
    if (erased.statusCode === 409) {
      const refused = assertError(erased, 409, 4097, 'Personal data under legal retention');
      assert.deepEqual(refused.additionalData, {
        retainedUntil: lead.retention.retainedUntil,
        legalHold: lead.retention.legalHold,
      });
      assert.deepEqual([lead.erasedAt, erasures], [null, []], 'a refused erasure erased nothing');
      return 'refused';
    }
    assert.equal(erased.statusCode, 204, show(erased));
    assert.notEqual(lead.erasedAt, null);
    const writtenAt = (await recorded(leadId, action)).at(-1) ?? 0;
    assert.ok(erasures[0] < writtenAt, `erased although the ${action} was written first (${show(written)})`);
    return 'erased';
  }

  test('a hold and an erasure sent together: erased only when the hold came after', async () => {
    const seen = new Set<string>();
    for (let round = 0; round < 22; round++) {
      const leadId = await copy({ createdAt: start });
      const put = () => hold(leadId, 'PUT', t.admin, `Litigio ${round}`);
      seen.add(await race(leadId, put, 'legal_hold_set', offsetOf(round)));
      // Set either way; a refusal's additionalData is the view's retention, so it said legalHold true.
      assert.equal((await retention(leadId)).legalHold, true);
    }
    assert.deepEqual([...seen].sort(), ['erased', 'refused'], 'both orders were tried');
  });

  test('a funding and an erasure sent together: erased only when the funding came after', async () => {
    for (let round = 0; round < 11; round++) {
      const leadId = await copy({ createdAt: start });
      assert.equal((await setOutcome(t, leadId, bodies.APPROVED)).statusCode, 200);
      const fund = () => setOutcome(t, leadId, bodies.FUNDED);
      await race(leadId, fund, 'outcome', offsetOf(round));
      assert.equal((await retention(leadId)).class, 'credit');
    }
  });
});
