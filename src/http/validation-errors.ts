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
    case 'anyOf':
      return error.message ?? 'is not one of the allowed values';
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minLength':
      return `must be at least ${String(p.limit)} characters`;
    default:
      return error.message ?? 'is invalid';
  }
}

export function toFieldErrors(schemaErrors: readonly SchemaError[], part = 'body'): FieldError[] {
  const out: FieldError[] = [];
  for (const error of schemaErrors) {
    const base = pathOf(error.instancePath);
    if (error.keyword === 'boolean') continue; // repeated by the `additionalProperties` error
    if (error.keyword === 'required') {
      const names = (error.params?.requiredProperties as string[] | undefined) ?? [String(error.params?.missingProperty ?? '')];
      for (const name of names) out.push({ field: join(base, name), errorDetail: 'is required' });
    } else if (error.keyword === 'additionalProperties') {
      const names = (error.params?.additionalProperties as string[] | undefined) ?? [String(error.params?.additionalProperty ?? '')];
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
