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

/** Converts the declared properties of a path or query object; built once per schema. */
function stringConverter(schema: Schema): (value: unknown) => unknown {
  const properties = schema.properties;
  if (!properties) return (value) => value;
  return (value) => {
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const key in value) out[key] = convertValue(properties[key], (value as Record<string, unknown>)[key]);
    return out;
  };
}

export const schemaValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  const convert = stringConverter(schema as Schema);
  return (value) => {
    // No request body is declared required as a whole: an absent body is an empty object, so
    // the required fields inside it are reported one by one.
    const input = httpPart === 'body' ? (value === undefined || value === null ? {} : value) : convert(value);
    if (check.Check(input)) return { value: input };
    return { error: check.Errors(input) as never };
  };
};
