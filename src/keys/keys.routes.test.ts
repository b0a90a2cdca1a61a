import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { leadDefaults, pinApi, pinFrom, readyLead } from '../../test/lead-fixture.ts';
import { keyIdOf } from '../shared/index.ts';
import { MissingKeysError } from './keys.service.ts';

const [keyA, keyB, keyC, signing1, signing2] = [0, 1, 2, 3, 4].map(() => randomBytes(32));
const hex = (key: Buffer) => key.toString('hex');
const sorted = (stored: { keyId: string | null; values: number }[]) =>
  [...stored].sort((x, y) => String(x.keyId).localeCompare(String(y.keyId)));

let first: TestApp;
let rotated: TestApp;
let leadId: string;
let leadBefore: unknown;
const others: TestApp[] = [];
const keys = (t: TestApp, headers: Record<string, string> = t.admin) =>
  t.app.inject({ method: 'GET', url: '/admin/keys', headers });
const reencrypt = (t: TestApp, payload?: object, headers: Record<string, string> = t.admin) =>
  t.app.inject({ method: 'POST', url: '/admin/keys/reencrypt', headers, ...(payload ? { payload } : {}) });
/** Another instance on the same database, with other keys. */
const instance = async (env: Record<string, string>) => {
  const t = await buildTestApp({ database: first.database, env });
  others.push(t);
  return t;
};

describe('rotating the data encryption and token signing keys through the admin API', () => {
  before(async () => {
    first = await buildTestApp({
      database: 'own',
      env: { DATA_ENCRYPTION_KEY: hex(keyA), TOKEN_SIGNING_KEY: hex(signing1) },
    });
    leadId = await readyLead(first);
    // A PIN sent now is hashed with a key derived from key A, and confirmed after the rotation.
    assert.equal((await pinApi(first).send(leadId)).statusCode, 204);
    const hook = await first.app.inject({
      method: 'POST',
      url: `${api}/webhooks`,
      headers: first.partner.headers,
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    assert.equal(hook.statusCode, 201, show(hook));
    const rotate = await first.app.inject({
      method: 'POST',
      url: `${api}/webhooks/${hook.json().id}/secret/rotate`,
      headers: first.partner.headers,
    });
    assert.equal(rotate.statusCode, 200, show(rotate));
    leadBefore = await pinApi(first).read(leadId);
  });
  after(async () => {
    for (const t of others) await t.close();
    await first?.close();
  });

  rotationTests();
  reencryptionTests();
  startTests();
});

/** Counting values under each key, and rotating to new keys. */
function rotationTests(): void {
  test('GET /admin/keys counts every encrypted value (lead sections, webhook secrets) under its key', async () => {
    const res = await keys(first);
    assert.equal(res.statusCode, 200, show(res));
    // The lead's own key (its five sections are sealed with it), a webhook secret and the one it replaced.
    assert.deepEqual(res.json(), {
      current: keyIdOf(keyA),
      previous: [],
      stored: [{ keyId: keyIdOf(keyA), values: 3 }],
      signing: { current: keyIdOf(signing1), previous: [] },
    });
  });

  test(
    'with new current keys and the old ones as previous, ' + 'everything stored and every token still works',
    async () => {
      rotated = await instance({
        DATA_ENCRYPTION_KEY: hex(keyB),
        DATA_ENCRYPTION_PREVIOUS_KEYS: hex(keyA),
        TOKEN_SIGNING_KEY: hex(signing2),
        TOKEN_SIGNING_PREVIOUS_KEYS: hex(signing1),
      });
      // The partner's token was signed with the previous signing key.
      assert.deepEqual(await pinApi(rotated, first.partner).read(leadId), leadBefore);
      const confirmed = await pinApi(rotated, first.partner).confirm(leadId, pinFrom(first.outbox.sms.at(-1)!));
      assert.equal(confirmed.statusCode, 204, show(confirmed));
      const created = await rotated.app.inject({
        method: 'POST',
        url: `${api}/leads`,
        headers: first.partner.headers,
        payload: { autoFinB2BLeadCreatePayload: { phone: '5587654321', email: 'nuevo@example.com' } },
      });
      assert.equal(created.statusCode, 201, show(created));
      const token = await rotated.app.inject({
        method: 'POST',
        url: '/auth/token',
        payload: { consumer_key: first.partner.consumerKey, consumer_secret: first.partner.consumerSecret },
      });
      const claims = JSON.parse(Buffer.from(token.json().access_token.split('.')[1], 'base64url').toString());
      assert.equal(claims.kid, keyIdOf(signing2));

      const res = await keys(rotated);
      assert.equal(res.statusCode, 200, show(res));
      const status = res.json();
      assert.deepEqual([status.current, status.previous], [keyIdOf(keyB), [keyIdOf(keyA)]]);
      assert.deepEqual(status.signing, { current: keyIdOf(signing2), previous: [keyIdOf(signing1)] });
      // The new lead's key is wrapped by key B; its phone and e-mail and the first lead's report by their leads' keys.
      const expected = [
        { keyId: keyIdOf(keyA), values: 3 },
        { keyId: keyIdOf(keyB), values: 1 },
      ];
      assert.deepEqual(sorted(status.stored), sorted(expected));
    },
  );
}

/** Re-encryption: its limit, who may run it, its batches, and dropping the previous keys. */
function reencryptionTests(): void {
  test('a limit out of 1-10000, or not an integer, is 400 / 40015 on limit, and nothing is re-encrypted', async () => {
    for (const limit of [0, 10_001, 2.5, 'all', null]) {
      const res = await reencrypt(rotated, { limit });
      assert.equal(res.statusCode, 400, show(res));
      assert.equal(res.json().code, 40015);
      assert.deepEqual(
        res.json().additionalData.errors.map((e: { field: string }) => e.field),
        ['limit'],
        show(res),
      );
    }
    const stored = sorted((await keys(rotated)).json().stored);
    assert.deepEqual(
      stored,
      sorted([
        { keyId: keyIdOf(keyA), values: 3 },
        { keyId: keyIdOf(keyB), values: 1 },
      ]),
    );
  });

  test('weaker credentials are refused: none or a partner token 401, an analyst 403, and nothing changes', async () => {
    const analyst = await rotated.app.inject({
      method: 'POST',
      url: '/admin/operators',
      headers: rotated.admin,
      payload: { name: 'Ana', role: 'analyst' },
    });
    assert.equal(analyst.statusCode, 201, show(analyst));
    const analystHeaders = { authorization: `Bearer ${analyst.json().key}` };
    for (const [headers, status] of [
      [{}, 401],
      [first.partner.headers, 401],
      [analystHeaders, 403],
    ] as const) {
      const read = await keys(rotated, headers);
      assert.equal(read.statusCode, status, show(read));
      const run = await reencrypt(rotated, { limit: 10 }, headers);
      assert.equal(run.statusCode, status, show(run));
      assert.equal(run.json().code, status === 401 ? 4010 : 4030);
    }
    assert.equal(sorted((await keys(rotated)).json().stored).find((s) => s.keyId === keyIdOf(keyA))?.values, 3);
  });

  test('re-encryption takes up to limit values, then the rest (default limit), until none remains', async () => {
    const some = await reencrypt(rotated, { limit: 2 });
    assert.equal(some.statusCode, 200, show(some));
    assert.deepEqual(some.json(), { reencrypted: 2, remaining: 1 });
    const rest = await reencrypt(rotated);
    assert.deepEqual(rest.json(), { reencrypted: 1, remaining: 0 });
    assert.deepEqual((await reencrypt(rotated, { limit: 10_000 })).json(), { reencrypted: 0, remaining: 0 });
    assert.deepEqual((await keys(rotated)).json().stored, [{ keyId: keyIdOf(keyB), values: 4 }]);
    // Each call is audited with how many values it re-encrypted, and logged at info.
    const audit = await rotated.app.inject({ method: 'GET', url: '/admin/audit', headers: rotated.admin });
    const calls = audit.json().items.filter((r: { action: string }) => r.action === 'keys_reencrypt');
    assert.deepEqual(
      calls.map((r: { operatorId: string; rows: number }) => [r.operatorId, r.rows]),
      [
        ['admin-token', 0],
        ['admin-token', 1],
        ['admin-token', 2],
      ],
    );
    const logged = rotated.logs.map((line) => JSON.parse(line) as { level: number; msg: string });
    assert.deepEqual(
      logged.filter((line) => line.msg === 'values re-encrypted with the current key').map((line) => line.level),
      [30, 30, 30],
      'each call logged at info',
    );
  });

  test(
    'without the previous keys after re-encryption, everything ' + 'reads back and the verified phone is still known',
    async () => {
      const only = await instance({ DATA_ENCRYPTION_KEY: hex(keyB), TOKEN_SIGNING_KEY: hex(signing2) });
      await only.container.keys.checkStored();
      const partner = { ...first.partner, headers: { ...first.partner.headers } };
      const token = await only.app.inject({
        method: 'POST',
        url: '/auth/token',
        payload: { consumer_key: partner.consumerKey, consumer_secret: partner.consumerSecret },
      });
      partner.headers.authorization = `Bearer ${token.json().access_token}`;
      // A token signed with the removed signing key is refused.
      assert.equal((await pinApi(only, first.partner).send(leadId)).statusCode, 401);
      const sections = ({ contact, address, financial, person }: Record<string, unknown>) => ({
        contact,
        address,
        financial,
        person,
      });
      const reread = await pinApi(only, partner).read(leadId);
      assert.deepEqual(sections(reread), sections(leadBefore as Record<string, unknown>));
      // The phone's fingerprint was rewritten with the new key: the same phone on a verified lead is no change.
      const same = await pinApi(only, partner).put(leadId, 'loan-info', { phone: leadDefaults.phone, term: 48 });
      assert.equal(same.statusCode, 204, show(same));
      const other = await pinApi(only, partner).put(leadId, 'loan-info', { phone: '5511112222' });
      assert.equal(other.statusCode, 409, show(other));
    },
  );
}

/** Starting with keys that miss stored values or with unlabelled values. */
function startTests(): void {
  test('a start with keys that miss stored values is refused naming the missing key id and the count', async () => {
    const wrong = await instance({ DATA_ENCRYPTION_KEY: hex(keyC) });
    await assert.rejects(wrong.container.keys.checkStored(), (error: Error) => {
      assert.ok(error instanceof MissingKeysError);
      assert.match(error.message, new RegExp(`${keyIdOf(keyB)} \\(4 values\\)`));
      assert.doesNotMatch(error.message, new RegExp(hex(keyB)));
      return true;
    });
  });

  test(
    'values stored before key ids are labelled with their ' + 'key at start, or refuse it when no key opens them',
    async () => {
      const { rows } = await first.database.db.query<{ id: string }>(
        'select id from leads order by created_at limit 1',
      );
      const legacy = (key: Buffer) => {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', key, iv);
        cipher.setAAD(Buffer.from(`lead:${rows[0]!.id}:email_enc`));
        const body = Buffer.concat([cipher.update(JSON.stringify('antes@example.com')), cipher.final()]);
        return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
      };
      const setEmail = (value: string) =>
        first.database.db.query('update leads set email_enc = $1 where id = $2', [value, rows[0]!.id]);
      await setEmail(legacy(keyC));
      const current = await instance({ DATA_ENCRYPTION_KEY: hex(keyB) });
      await assert.rejects(
        current.container.keys.checkStored(),
        /1 values stored before key ids were recorded open with none/,
      );
      await setEmail(legacy(keyB));
      await current.container.keys.checkStored();
      const stored = await first.database.db.query<{ email_enc: string }>('select email_enc from leads where id = $1', [
        rows[0]!.id,
      ]);
      assert.ok(stored.rows[0]!.email_enc.startsWith(`v2.${keyIdOf(keyB)}.`), stored.rows[0]!.email_enc);
    },
  );
}
