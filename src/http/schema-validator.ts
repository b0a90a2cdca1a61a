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

/** C0 and C1 control characters (NUL included): no text of this API carries one. */
// eslint-disable-next-line no-control-regex -- input validation: rejects control characters on purpose
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

interface ControlError {
  instancePath: string;
  keyword: 'controlCharacter';
  message: string;
}

/** Whether any string (or object key) in the value holds a control character: the walk every request takes. */
function holdsControlCharacter(value: unknown): boolean {
  if (typeof value === 'string') return controlCharacter.test(value);
  if (Array.isArray(value)) return value.some(holdsControlCharacter);
  if (value !== null && typeof value === 'object') {
    for (const key in value) {
      if (controlCharacter.test(key) || holdsControlCharacter((value as Record<string, unknown>)[key])) return true;
    }
  }
  return false;
}

/** Every string (and object key) holding a control character, with its path: walked only when there is one. */
function controlCharacterErrors(value: unknown, path: string, out: ControlError[]): ControlError[] {
  if (typeof value === 'string') {
    if (controlCharacter.test(value))
      out.push({ instancePath: path, keyword: 'controlCharacter', message: 'must not contain control characters' });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => controlCharacterErrors(item, `${path}/${index}`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const itemPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (controlCharacter.test(key))
        out.push({
          instancePath: itemPath,
          keyword: 'controlCharacter',
          message: 'must not contain control characters',
        });
      else controlCharacterErrors(item, itemPath, out);
    }
  }
  return out;
}

/** Headers carry many more than a route declares: only the declared ones are looked at. */
function declaredPart(schema: Schema, value: unknown): unknown {
  if (!schema.properties || value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(schema.properties)
      .filter((k) => k in record)
      .map((k) => [k, record[k]]),
  );
}

/**
 * Each schema's checker is compiled on its first request, not when the app is built: compiling the
 * checkers of every route took about 45 ms of every start (docs/performance.md, "How starts are kept
 * short"). A schema TypeBox cannot compile fails its first request (a 500), which the route tests show.
 */
export const schemaValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  let compiled: ReturnType<typeof Compile> | undefined;
  const convert = stringConverter(schema as Schema);
  const declared = httpPart === 'headers' ? Object.keys((schema as Schema).properties ?? {}) : undefined;
  return (value) => {
    // No request body is declared required as a whole: an absent body is an empty object, so the
    // required fields inside it are reported one by one. (A JSON body that is not an object is
    // refused by the parser, json-body.ts.)
    const input = httpPart === 'body' ? (value === undefined || value === null ? {} : value) : convert(value);
    const controlled = declared
      ? declared.some((key) => holdsControlCharacter((input as Record<string, unknown>)[key]))
      : holdsControlCharacter(input);
    const controls = controlled
      ? controlCharacterErrors(declared ? declaredPart(schema as Schema, input) : input, '', [])
      : [];
    const check = (compiled ??= Compile(schema));
    if (controls.length === 0 && check.Check(input)) return { value: input };
    return { error: [...check.Errors(input), ...controls] as never };
  };
};
