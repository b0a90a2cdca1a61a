/**
 * Values sealed with the service's data key before leads had keys of their own (`v1.` without a key id,
 * `v2.<key id>.`) move to their lead's key online, through `POST /admin/keys/reencrypt` (docs/operations.md,
 * "Rotating keys"), and the partner and the lender read the same lead before and after.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { leadDefaults, readyLead } from '../../test/lead-fixture.ts';
import { createFieldEncryption, keyIdOf } from '../shared/index.ts';

const [previousKey, currentKey] = [randomBytes(32), randomBytes(32)];
const columns = ['phone_enc', 'email_enc', 'address_enc', 'financial_enc', 'person_enc'] as const;
type Column = (typeof columns)[number];

let t: TestApp;
const sorted = (stored: { keyId: string | null; values: number }[]) =>
  [...stored].sort((x, y) => String(x.keyId).localeCompare(String(y.keyId)));

/** `v1.<iv>.<tag>.<body>`: how values were sealed before key ids were recorded. */
function sealV1(key: Buffer, value: unknown, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(JSON.stringify(value)), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
}

/** The phone's fingerprint as it was taken before lead keys: with a key derived from the data key. */
const legacyFingerprint = (key: Buffer, phone: string) =>
  createHmac('sha256', Buffer.from(hkdfSync('sha256', key, 'autofin', 'fingerprints', 32)))
    .update(`phone:${phone}`)
    .digest('base64url');

/**
 * Rewrites the lead as an older version stored it: each value sealed with a data key (the current one, a
 * previous one, or a previous one without its key id), the phone's fingerprint taken with the data key,
 * and no key of its own.
 */
async function sealTheOldWay(leadId: string): Promise<void> {
  const db = t.database.db;
  const { rows } = await db.query<Record<Column, string>>(`select ${columns.join(', ')} from leads where id = $1`, [
    leadId,
  ]);
  const { sealer } = t.leads;
  await sealer.forReading([leadId]);
  const value = (column: Column) => sealer.open(leadId, column, rows[0]![column]);
  const context = (column: Column) => `lead:${leadId}:${column}`;
  const [current, previous] = [createFieldEncryption(currentKey), createFieldEncryption(previousKey)];
  const old: Record<Column, string> = {
    phone_enc: current.encrypt(value('phone_enc'), context('phone_enc')),
    email_enc: sealV1(previousKey, value('email_enc'), context('email_enc')),
    address_enc: current.encrypt(value('address_enc'), context('address_enc')),
    financial_enc: previous.encrypt(value('financial_enc'), context('financial_enc')),
    person_enc: previous.encrypt(value('person_enc'), context('person_enc')),
  };
  await db.query(
    `update leads set phone_enc = $2, email_enc = $3, address_enc = $4, financial_enc = $5, person_enc = $6,
       phone_fp = $7 where id = $1`,
    [leadId, ...columns.map((c) => old[c]), legacyFingerprint(currentKey, String(value('phone_enc')))],
  );
  await db.query('delete from lead_keys where lead_id = $1', [leadId]);
}

const storedValues = async (leadId: string) =>
  (await t.database.db.query<Record<Column, string>>(`select ${columns.join(', ')} from leads where id = $1`, [leadId]))
    .rows[0]!;

describe('values sealed before lead keys move to their lead’s key', () => {
  before(async () => {
    // Its own database: re-encryption runs over every lead.
    t = await buildTestApp({
      database: 'own',
      env: {
        DATA_ENCRYPTION_KEY: currentKey.toString('hex'),
        DATA_ENCRYPTION_PREVIOUS_KEYS: previousKey.toString('hex'),
      },
    });
  });
  after(() => t.close());

  const get = async (url: string, headers: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    assert.equal(res.statusCode, 200, show(res));
    return res.json();
  };
  const reencrypt = () => t.app.inject({ method: 'POST', url: '/admin/keys/reencrypt', headers: t.admin });

  test('re-encryption seals them with the lead’s key, and the partner and the lender read the same lead', async () => {
    const leadId = await readyLead(t);
    const views = () =>
      Promise.all([get(`${api}/leads/${leadId}`, t.partner.headers), get(`/admin/leads/${leadId}`, t.admin)]);
    const [partnerView, lenderView] = await views();
    assert.deepEqual(
      partnerView.contact,
      { phone: leadDefaults.phone, email: leadDefaults.email },
      JSON.stringify(partnerView),
    );
    assert.equal(partnerView.person.lastName, leadDefaults.person.lastName);
    assert.equal(partnerView.address.street, leadDefaults.address.street);

    await sealTheOldWay(leadId);
    const keys = await get('/admin/keys', t.admin);
    // As the operator sees them: two under the current key, two under the previous one, one without a key id.
    assert.deepEqual(
      sorted(keys.stored),
      sorted([
        { keyId: null, values: 1 },
        { keyId: keyIdOf(currentKey), values: 2 },
        { keyId: keyIdOf(previousKey), values: 2 },
      ]),
    );
    assert.deepEqual(await views(), [partnerView, lenderView], 'read with the data keys meanwhile');

    const moved = await reencrypt();
    assert.equal(moved.statusCode, 200, show(moved));
    assert.deepEqual(moved.json(), { reencrypted: 5, remaining: 0 });
    const stored = await storedValues(leadId);
    for (const column of columns) assert.ok(stored[column].startsWith('l1.'), `${column}: ${stored[column]}`);
    // Left only the lead's new key, wrapped by the current data key.
    assert.deepEqual((await get('/admin/keys', t.admin)).stored, [{ keyId: keyIdOf(currentKey), values: 1 }]);
    assert.deepEqual(await views(), [partnerView, lenderView]);

    const again = await reencrypt();
    assert.deepEqual(again.json(), { reencrypted: 0, remaining: 0 }, show(again));
  });
});
