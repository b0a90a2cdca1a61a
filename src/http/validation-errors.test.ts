import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { toFieldErrors } from './validation-errors.ts';

const errorsOf = (schema: TSchema, value: unknown) => toFieldErrors([...Compile(schema).Errors(value)] as never);

test('an enum failure names the allowed values', () => {
  const schema = Type.Object({ channel: Type.Enum(['SMS', 'EMAIL']) });
  assert.deepEqual(errorsOf(schema, { channel: 'FAX' }), [
    { field: 'channel', errorDetail: 'must be one of: SMS, EMAIL' },
  ]);
});

test('a union of constants fails as one "must be one of", not one error per constant', () => {
  const schema = Type.Object({ decision: Type.Union([Type.Literal('YES'), Type.Literal('NO')]) });
  assert.deepEqual(errorsOf(schema, { decision: 'MAYBE' }), [
    { field: 'decision', errorDetail: 'must be one of: YES, NO' },
  ]);
});

test('a lone constant keeps its own error', () => {
  const schema = Type.Object({ kind: Type.Literal('lead') });
  const errors = errorsOf(schema, { kind: 'x' });
  assert.equal(errors.length, 1);
  assert.equal(errors[0].field, 'kind');
});

test('every failing field is listed, nested ones by their dotted path', () => {
  const schema = Type.Object(
    { a: Type.Integer(), b: Type.Object({ c: Type.String({ maxLength: 2 }) }) },
    { additionalProperties: false },
  );
  const fields = errorsOf(schema, { a: 'x', b: { c: 'long' }, z: 1 })
    .map((e) => e.field)
    .sort();
  assert.deepEqual(fields, ['a', 'b.c', 'z']);
});
