import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { keyIdOf } from '../shared/index.ts';
import { createAccessTokens } from './access-token.ts';

const key = randomBytes(32);
const tokens = createAccessTokens(key, 'test');
const issuedAt = new Date('2026-01-15T12:00:00Z');
const ttlSeconds = 3600;
const later = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000);

const issue = () => tokens.issue('ck_partner', 'company-1', issuedAt, ttlSeconds);
const partsOf = (token: string) => token.split('.') as [string, string, string];
const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
const encode = (claims: unknown) => Buffer.from(JSON.stringify(claims)).toString('base64url');

describe('access tokens', () => {
  verificationTests();
  keyTests();
});

/** What a token carries, until when it verifies, and what breaks it. */
function verificationTests(): void {
  test('a fresh token verifies and carries its subject, company, environment and lifetime', () => {
    const check = tokens.verify(issue(), later(1));
    assert.equal(check.ok, true, JSON.stringify(check));
    assert.ok(check.ok);
    assert.equal(check.claims.sub, 'ck_partner');
    assert.equal(check.claims.cid, 'company-1');
    assert.equal(check.claims.env, 'test');
    assert.equal(check.claims.iat, issuedAt.getTime() / 1000);
    assert.equal(check.claims.exp - check.claims.iat, ttlSeconds);
  });

  test('two tokens issued at the same second differ', () => {
    assert.notEqual(issue(), issue());
  });

  test('a token is valid until the last second of its lifetime and expired from then on', () => {
    const token = issue();
    assert.equal(tokens.verify(token, later(ttlSeconds - 1)).ok, true);
    assert.deepEqual(tokens.verify(token, later(ttlSeconds)), { ok: false, reason: 'expired' });
    assert.deepEqual(tokens.verify(token, later(ttlSeconds * 24)), { ok: false, reason: 'expired' });
  });

  test('a payload changed after signing (another company, a longer life) is refused', () => {
    const [prefix, payload, signature] = partsOf(issue());
    const claims = decode(payload);
    for (const tampered of [
      { ...claims, cid: 'company-2' },
      { ...claims, exp: claims.exp + 86400 },
      { ...claims, sub: 'ck_other' },
    ]) {
      const check = tokens.verify(`${prefix}.${encode(tampered)}.${signature}`, later(1));
      assert.deepEqual(check, { ok: false, reason: 'bad_signature' });
    }
  });

  test('a changed or truncated signature is refused', () => {
    const [prefix, payload, signature] = partsOf(issue());
    const flipped = `${signature.slice(0, 5)}${signature[5] === 'A' ? 'B' : 'A'}${signature.slice(6)}`;
    for (const bad of [flipped, signature.slice(0, -1), `${signature}A`, 'x']) {
      assert.deepEqual(tokens.verify(`${prefix}.${payload}.${bad}`, later(1)), { ok: false, reason: 'bad_signature' });
    }
  });

  test('a token signed with another key is refused', () => {
    const foreign = createAccessTokens(randomBytes(32), 'test').issue('ck_partner', 'company-1', issuedAt, ttlSeconds);
    assert.deepEqual(tokens.verify(foreign, later(1)), { ok: false, reason: 'bad_signature' });
  });

  test('a token of another environment is refused even when signed with the same key', () => {
    const other = createAccessTokens(key, 'other').issue('ck_partner', 'company-1', issuedAt, ttlSeconds);
    assert.deepEqual(tokens.verify(other, later(1)), { ok: false, reason: 'other_environment' });
  });

  test('relabelling a token of another environment with this one breaks its signature', () => {
    const other = createAccessTokens(key, 'other').issue('ck_partner', 'company-1', issuedAt, ttlSeconds);
    const [prefix, payload, signature] = partsOf(other);
    const relabelled = `${prefix}.${encode({ ...decode(payload), env: 'test' })}.${signature}`;
    assert.deepEqual(tokens.verify(relabelled, later(1)), { ok: false, reason: 'bad_signature' });
  });
}

/** Malformed tokens, and the keys that sign and verify them. */
function keyTests(): void {
  const [, goodPayload, goodSignature] = partsOf(issue());
  const malformed: [string, string][] = [
    ['an empty string', ''],
    ['a single word', 'garbage'],
    ['two parts', `afn1.${goodPayload}`],
    ['four parts', `afn1.${goodPayload}.${goodSignature}.extra`],
    ['another prefix', `jwt1.${goodPayload}.${goodSignature}`],
    ['an empty payload', `afn1..${goodSignature}`],
    ['an empty signature', `afn1.${goodPayload}.`],
    ['a payload that is not JSON', `afn1.${Buffer.from('not json').toString('base64url')}.${goodSignature}`],
    ['a JSON payload that is not an object', `afn1.${encode('a string')}.${goodSignature}`],
    ['a null payload', `afn1.${encode(null)}.${goodSignature}`],
    ['a payload without an environment', `afn1.${encode({ sub: 'ck', cid: 'c', exp: 9e9 })}.${goodSignature}`],
  ];
  for (const [what, token] of malformed) {
    test(`${what} is a malformed token`, () => {
      assert.deepEqual(tokens.verify(token, later(1)), { ok: false, reason: 'malformed' });
    });
  }

  test('a token names the key that signed it (kid: the key id)', () => {
    const claims = decode(partsOf(issue())[1]);
    assert.equal(claims.kid, keyIdOf(key));
  });

  test(
    'after a rotation, a token signed with a previous key ' + 'verifies until it expires; new ones use the new key',
    () => {
      const oldToken = issue();
      const newKey = randomBytes(32);
      const rotated = createAccessTokens(newKey, 'test', [key]);
      assert.equal(rotated.verify(oldToken, later(ttlSeconds - 1)).ok, true);
      assert.deepEqual(rotated.verify(oldToken, later(ttlSeconds)), { ok: false, reason: 'expired' });
      const newToken = rotated.issue('ck_partner', 'company-1', issuedAt, ttlSeconds);
      assert.equal(decode(partsOf(newToken)[1]).kid, keyIdOf(newKey));
      assert.equal(rotated.verify(newToken, later(1)).ok, true);
      // An instance not yet given the new key refuses the new token; without the old key, old tokens are refused.
      assert.deepEqual(tokens.verify(newToken, later(1)), { ok: false, reason: 'bad_signature' });
      assert.deepEqual(createAccessTokens(newKey, 'test').verify(oldToken, later(1)), {
        ok: false,
        reason: 'bad_signature',
      });
    },
  );

  test('a token whose kid was changed to another configured key is refused', () => {
    const other = randomBytes(32);
    const both = createAccessTokens(key, 'test', [other]);
    const [prefix, payload, signature] = partsOf(issue());
    const forged = `${prefix}.${encode({ ...decode(payload), kid: keyIdOf(other) })}.${signature}`;
    assert.deepEqual(both.verify(forged, later(1)), { ok: false, reason: 'bad_signature' });
  });

  test('a token signed before tokens named their key verifies with the current or a previous key', () => {
    const { kid: _kid, ...claims } = decode(partsOf(issue())[1]);
    const payload = encode(claims);
    const sign = (k: Buffer) => createHmac('sha256', k).update(`afn1.test.${payload}`).digest('base64url');
    const newKey = randomBytes(32);
    assert.equal(createAccessTokens(key, 'test').verify(`afn1.${payload}.${sign(key)}`, later(1)).ok, true);
    assert.equal(createAccessTokens(newKey, 'test', [key]).verify(`afn1.${payload}.${sign(key)}`, later(1)).ok, true);
    assert.deepEqual(createAccessTokens(newKey, 'test').verify(`afn1.${payload}.${sign(key)}`, later(1)), {
      ok: false,
      reason: 'bad_signature',
    });
  });
}
