/**
 * Turns schema validation errors into the contract's field list: `field` is the dot-separated JSON
 * path without a leading slash (`startDate.month`), every failing field at once.
 */
import type { FieldError } from './app-error.ts';

export interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

const join = (base: string, name: string) => (base ? `${base}.${name}` : name);

function pathOf(instancePath: string): string {
  return instancePath
    .replace(/^\//, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function describe(error: SchemaError): string {
  const p = error.params ?? {};
  switch (error.keyword) {
    case 'pattern':
      return `must match the pattern ${String(p.pattern)}`;
    case 'enum':
      return oneOf(p.allowedValues as unknown[] | undefined) ?? error.message ?? 'is not one of the allowed values';
    case 'anyOf':
      return error.message ?? 'is not one of the allowed values';
    case 'minProperties':
      return 'has no field to save';
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minLength':
      return `must be at least ${String(p.limit)} characters`;
    default:
      return error.message ?? 'is invalid';
  }
}

const oneOf = (values: unknown[] | undefined) =>
  values && values.length > 0 ? `must be one of: ${values.map((v) => String(v)).join(', ')}` : undefined;

/**
 * A union of constants fails as one error per constant plus an `anyOf`: one "must be one of" instead;
 * a union of formats, one error naming the formats.
 */
function mergeConstants(schemaErrors: readonly SchemaError[]): SchemaError[] {
  const unions = new Set(schemaErrors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const constants = new Map<string, unknown[]>();
  for (const error of schemaErrors) {
    if (error.keyword !== 'const' || !unions.has(error.instancePath)) continue;
    const list = constants.get(error.instancePath) ?? [];
    list.push(error.params?.allowedValue);
    constants.set(error.instancePath, list);
  }
  const formats = new Map<string, string[]>();
  for (const error of schemaErrors) {
    if (error.keyword !== 'format' || !unions.has(error.instancePath)) continue;
    formats.set(error.instancePath, [...(formats.get(error.instancePath) ?? []), String(error.params?.format)]);
  }
  if (constants.size === 0 && formats.size === 0) return [...schemaErrors];
  return schemaErrors.flatMap((error): SchemaError[] => {
    const values = constants.get(error.instancePath);
    const allowed = formats.get(error.instancePath);
    if (!values && !allowed) return [error];
    if (error.keyword === 'anyOf' && values) return [{ ...error, keyword: 'enum', params: { allowedValues: values } }];
    // A union of formats (a date or a date-time) fails as one error naming them.
    if (error.keyword === 'anyOf') return [{ ...error, message: `must be an ISO 8601 ${allowed!.join(' or ')}` }];
    return error.keyword === 'const' || error.keyword === 'format' ? [] : [error];
  });
}

export function toFieldErrors(schemaErrors: readonly SchemaError[], part = 'body'): FieldError[] {
  const out: FieldError[] = [];
  for (const error of mergeConstants(schemaErrors)) {
    const base = pathOf(error.instancePath);
    if (error.keyword === 'boolean') continue; // repeated by the `additionalProperties` error
    if (error.keyword === 'required') {
      const names = (error.params?.requiredProperties as string[] | undefined) ?? [
        String(error.params?.missingProperty ?? ''),
      ];
      for (const name of names) out.push({ field: join(base, name), errorDetail: 'is required' });
    } else if (error.keyword === 'additionalProperties') {
      const names = (error.params?.additionalProperties as string[] | undefined) ?? [
        String(error.params?.additionalProperty ?? ''),
      ];
      for (const name of names) out.push({ field: join(base, name), errorDetail: 'is not a field of this request' });
    } else {
      out.push({ field: base || part, errorDetail: describe(error) });
    }
  }
  return dedupe(out);
}

function dedupe(list: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return list.filter((e) => {
    const key = `${e.field}\u0000${e.errorDetail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
