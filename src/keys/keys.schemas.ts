import { Type } from 'typebox';

const keyId = Type.String({
  pattern: '^[0-9a-f]{16}$',
  description: 'First 16 hex digits of the SHA-256 of the 32 key bytes',
});
const example = { current: '3f9a1c0e7b2d4f68', previous: ['a41d09c3e85f7b12'] };

export const KeyStatus = Type.Object(
  {
    current: keyId,
    previous: Type.Array(keyId, { description: 'DATA_ENCRYPTION_PREVIOUS_KEYS: still accepted for reading' }),
    stored: Type.Array(
      Type.Object({
        keyId: Type.Union([keyId, Type.Null()], {
          description: 'null: values written by a version that did not record key ids yet (re-encryption labels them)',
        }),
        values: Type.Integer({ minimum: 0, description: 'encrypted values (a field or a section) stored under it' }),
      }),
      { description: 'Stored encrypted values per key, over every encrypted column' },
    ),
    signing: Type.Object(
      { current: keyId, previous: Type.Array(keyId, { description: 'TOKEN_SIGNING_PREVIOUS_KEYS' }) },
      { description: 'The token signing keys: tokens name theirs (`kid`)' },
    ),
  },
  {
    $id: 'KeyStatus',
    examples: [
      {
        ...example,
        stored: [
          { keyId: '3f9a1c0e7b2d4f68', values: 5120 },
          { keyId: 'a41d09c3e85f7b12', values: 880 },
        ],
        signing: { current: '9e04b7a2c1d35f86', previous: [] },
      },
    ],
  },
);

export const ReencryptRequest = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_000,
        default: 1000,
        description: 'Values to re-encrypt at most',
      }),
    ),
  },
  { $id: 'ReencryptRequest', additionalProperties: false, examples: [{ limit: 1000 }] },
);

export const ReencryptResult = Type.Object(
  {
    reencrypted: Type.Integer({ minimum: 0, description: 'Values this call re-encrypted with the current key' }),
    remaining: Type.Integer({ minimum: 0, description: 'Values still under another key after it' }),
  },
  { $id: 'ReencryptResult', examples: [{ reencrypted: 1000, remaining: 2345 }] },
);
