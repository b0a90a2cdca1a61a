import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { createFieldEncryption, MissingKeyError } from './field-encryption.ts';
import { keyIdOf } from './keys.ts';
import { parseKey } from '../config/config.ts';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const context = 'lead:5f1c2a4e-9a53-4f4b-8d1e-0b6f6a2c9d10:person_enc';
const person = { firstName: 'Ana', rfc: 'GOAA800101AB1' };

/** A value as the service stored it before key ids were recorded (the `v1` form). */
function sealedBeforeKeyIds(key: Buffer, value: unknown, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
}

describe('key ids', () => {
  test('a key id is the first 16 hex digits of the SHA-256 of the 32 key bytes, however the key is written', () => {
    const expected = createHash('sha256').update(keyA).digest('hex').slice(0, 16);
    assert.match(keyIdOf(keyA), /^[0-9a-f]{16}$/);
    assert.equal(keyIdOf(keyA), expected);
    assert.equal(keyIdOf(parseKey('K', keyA.toString('hex'))!), expected);
    assert.equal(keyIdOf(parseKey('K', keyA.toString('base64'))!), expected);
    assert.equal(keyIdOf(parseKey('K', keyA.toString('base64url'))!), expected);
    assert.notEqual(keyIdOf(keyB), expected);
  });

  test('a known key gives a known id (SHA-256 of 32 zero bytes)', () => {
    assert.equal(keyIdOf(Buffer.alloc(32)), '66687aadf862bd77');
  });
});

describe('field encryption with previous keys', () => {
  test('a value names the current key and reads back', () => {
    const encryption = createFieldEncryption(keyA);
    const sealed = encryption.encrypt(person, context);
    assert.ok(sealed.startsWith(`v2.${keyIdOf(keyA)}.`), sealed);
    assert.equal(encryption.keyIdOf(sealed), keyIdOf(keyA));
    assert.deepEqual(encryption.decrypt(sealed, context), person);
    assert.ok(!sealed.includes('Ana'));
  });

  test('after a rotation, values of the previous key read back and new values name the new key', () => {
    const before = createFieldEncryption(keyA).encrypt(person, context);
    const rotated = createFieldEncryption(keyB, [keyA]);
    assert.equal(rotated.currentKeyId, keyIdOf(keyB));
    assert.deepEqual(rotated.previousKeyIds, [keyIdOf(keyA)]);
    assert.deepEqual(rotated.decrypt(before, context), person);
    assert.equal(rotated.keyIdOf(rotated.encrypt(person, context)), keyIdOf(keyB));
  });

  test('a value of a key no longer configured fails naming that key id', () => {
    const before = createFieldEncryption(keyA).encrypt(person, context);
    const without = createFieldEncryption(keyB);
    const missing = (e: unknown) => e instanceof MissingKeyError && e.keyId === keyIdOf(keyA);
    assert.throws(() => without.decrypt(before, context), missing);
  });

  test('a value copied to another record or column does not decrypt, whichever key sealed it', () => {
    const rotated = createFieldEncryption(keyB, [keyA]);
    assert.throws(() => rotated.decrypt(createFieldEncryption(keyA).encrypt(person, context), `${context}x`));
    assert.throws(() => rotated.decrypt(rotated.encrypt(person, context), `${context}x`));
  });

  test('a value stored before key ids reads back with the key that sealed it, current or previous', () => {
    const old = sealedBeforeKeyIds(keyA, person, context);
    assert.equal(createFieldEncryption(keyA).keyIdOf(old), undefined);
    assert.deepEqual(createFieldEncryption(keyA).decrypt(old, context), person);
    assert.deepEqual(createFieldEncryption(keyB, [keyA]).decrypt(old, context), person);
    assert.throws(() => createFieldEncryption(keyB).decrypt(old, context), /no configured data encryption key/);
  });

  test('labelling a value stored before key ids writes its key id in and keeps it readable', () => {
    const old = sealedBeforeKeyIds(keyA, person, context);
    const rotated = createFieldEncryption(keyB, [keyA]);
    const labelled = rotated.label(old, context)!;
    assert.equal(rotated.keyIdOf(labelled), keyIdOf(keyA));
    assert.equal(
      labelled.split('.').slice(2).join('.'),
      old.split('.').slice(1).join('.'),
      'the ciphertext is unchanged',
    );
    assert.deepEqual(createFieldEncryption(keyA).decrypt(labelled, context), person);
    assert.equal(createFieldEncryption(keyB).label(old, context), undefined, 'no configured key opens it');
  });

  test('a key listed twice, or the current key also listed as previous, counts once', () => {
    const encryption = createFieldEncryption(keyB, [keyA, keyB, keyA]);
    assert.deepEqual(encryption.previousKeyIds, [keyIdOf(keyA)]);
  });
});

describe('initialization vectors', () => {
  test('every value gets an IV of its own, 12 bytes, across the blocks they are drawn from', () => {
    const encryption = createFieldEncryption(keyA);
    const sealed = Array.from({ length: 1500 }, (_, i) => encryption.encrypt({ i }, context));
    const ivs = sealed.map((value) => value.split('.')[2]!);
    assert.equal(new Set(ivs).size, sealed.length);
    for (const iv of ivs) assert.equal(Buffer.from(iv, 'base64').length, 12);
    sealed.forEach((value, i) => assert.deepEqual(encryption.decrypt(value, context), { i }));
  });
});
