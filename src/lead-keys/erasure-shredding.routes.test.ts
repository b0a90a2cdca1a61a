/**
 * Erasure is final (docs/operations.md, "Erasure"): a lead's values are sealed with its own key, which
 * erasure destroys; a copy of a value taken before (a dead row, a backup) no longer opens, the key's row
 * leaves its partition's files (a second after the erasure, once for a burst of them), while other leads'
 * values still open.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { verifiedLead } from '../../test/lender-fixture.ts';
import { bodies, setOutcome } from '../../test/outcome-fixture.ts';
import { LeadKeyMissing } from './index.ts';

let t: TestApp;

/** Every sealed value of the lead as stored now, with the context it was sealed under. */
async function sealedValuesOf(leadId: string) {
  const { rows } = await t.database.db.query<{ v: string; context: string }>(
    `select phone_enc as v, 'lead:' || id || ':phone_enc' as context from leads where id = $1
     union all select person_enc, 'lead:' || id || ':person_enc' from leads where id = $1
     union all select report_enc, 'bureau-report:' || lead_id from bureau_reports where lead_id = $1
     union all select note_enc, 'lead:' || lead_id || ':outcome-note' from lead_outcomes
       where lead_id = $1 and note_enc is not null`,
    [leadId],
  );
  return rows;
}

describe('erasure destroys the lead’s key', () => {
  before(async () => {
    t = await buildTestApp({ database: 'own' });
  });
  after(() => t.close());

  test('copies of an erased lead’s values no longer open; another lead’s still do', async () => {
    const { leadId } = await verifiedLead(t, 'SMS');
    const { leadId: kept } = await verifiedLead(t, 'EMAIL');
    for (const id of [leadId, kept]) {
      const res = await setOutcome(t, id, { ...bodies.IN_REVIEW, note: 'Nota interna' });
      assert.equal(res.statusCode, 200, show(res));
    }
    const copies = await sealedValuesOf(leadId);
    assert.equal(copies.length, 4, 'phone, person, report and note, as stored');
    assert.ok(
      copies.every((c) => c.v.startsWith('l1.')),
      'each sealed with the lead’s key',
    );
    const { sealing } = t.container.leadKeys;
    await sealing.forReading([leadId]);
    for (const c of copies) assert.ok(sealing.open(leadId, c.v, c.context));

    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/admin/leads/${leadId}/personal-data`,
      headers: t.admin,
    });
    assert.equal(erased.statusCode, 204, show(erased));
    const keys = await t.database.db.query('select 1 from lead_keys where lead_id = $1', [leadId]);
    assert.equal(keys.rows.length, 0, 'the key is gone');
    // Rewritten a second later; a backup or a stop runs it at once, as this does.
    await t.container.leadKeys.shredAsked();
    const left = await t.database.db.query('select partition from lead_key_shreds');
    assert.deepEqual(left.rows, [], 'the erasure asked for the rewrite, which has run');

    // A copy taken before (what a dead row, a WAL segment or a backup holds) opens with no key the service holds.
    await sealing.forReading([leadId]);
    for (const c of copies) assert.throws(() => sealing.open(leadId, c.v, c.context), LeadKeyMissing);
    const others = await sealedValuesOf(kept);
    await sealing.forReading([kept]);
    for (const c of others) assert.ok(sealing.open(kept, c.v, c.context), 'the other lead’s values still open');
  });

  test('a burst of erasures is shredded a second later, with no one waiting for it', async () => {
    // One after another: each reads its PIN from the sandbox's last message.
    const leads = [await verifiedLead(t, 'SMS'), await verifiedLead(t, 'EMAIL'), await verifiedLead(t, 'SMS')];
    for (const { leadId } of leads) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/admin/leads/${leadId}/personal-data`,
        headers: t.admin,
      });
      assert.equal(res.statusCode, 204, show(res));
    }
    const deadline = Date.now() + 10_000;
    let left = Infinity;
    while (left > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = (await t.database.db.query('select partition from lead_key_shreds')).rows.length;
    }
    assert.equal(left, 0, 'rewritten without anyone waiting for it');
  });
});
