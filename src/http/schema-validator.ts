/**
 * Schema validation with TypeBox, reporting every error at once. Bodies are never coerced. Path
 * and query strings are converted only when they are exact literals of the declared type, so
 * `2020.5` or `12abc` for an integer id is a 400 instead of silently becoming 2020 or 12.
 */
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

type Schema = { type?: string; properties?: Record<string, Schema> };

const literal = {
  integer: /^-?\d{1,16}$/,
  number: /^-?\d+(\.\d+)?$/,
};

function convertValue(schema: Schema | undefined, value: unknown): unknown {
  if (typeof value !== 'string' || !schema) return value;
  if (schema.type === 'integer' && literal.integer.test(value)) return Number(value);
  if (schema.type === 'number' && literal.number.test(value)) return Number(value);
  if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function convertStrings(schema: Schema, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !schema.properties) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = convertValue(schema.properties[key], v);
  return out;
}

export const schemaValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  return (value) => {
    // No request body is declared required as a whole: an absent body is an empty object, so
    // the required fields inside it are reported one by one.
    const input = httpPart === 'body' ? (value === undefined || value === null ? {} : value) : convertStrings(schema as Schema, value);
    if (check.Check(input)) return { value: input };
    return { error: check.Errors(input) as never };
  };
};
