/**
 * Checks an answer against the OpenAPI document the app serves: the status is declared for that
 * operation (or, for a method the path does not have, by the path's operations), the body is valid
 * against the declared schema, and every header the document says is always sent is there.
 * test/helper.ts runs it on every `app.inject` of the route tests, so a test whose answer breaks the
 * document fails, and the document cannot drift from the service.
 */
import { AssertionError } from 'node:assert';
import type { LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface HeaderObject {
  $ref?: string;
  required?: boolean;
  schema?: { type?: string; pattern?: string };
}
interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: unknown }>;
}
interface Document {
  paths: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>>;
  components: { headers?: Record<string, HeaderObject> };
}

export interface Answer {
  method: string;
  url: string;
  response: Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body'>;
}

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

export interface ConformanceChecker {
  /** The problems of one answer, empty when it conforms (or its path is not in the document). */
  problems(answer: Answer): string[];
  /** Throws an AssertionError listing the problems of an answer that does not conform. */
  check(answer: Answer): void;
}

export function conformanceChecker(document: Document): ConformanceChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addSchema({ ...document, $id: 'openapi.json' } as object);
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  };
  const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
  // A literal path wins over a template that also matches it (`/admin/leads/export` before
  // `/admin/leads/{leadId}`), as in the router: fewer parameters first.
  const parameters = (path: string) => (path.match(/\{/g) ?? []).length;
  const paths = Object.keys(document.paths)
    .sort((a, b) => parameters(a) - parameters(b))
    .map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));

  function headerProblems(response: ResponseObject, headers: Answer['response']['headers']): string[] {
    const problems: string[] = [];
    for (const [name, declared] of Object.entries(response.headers ?? {})) {
      const header = declared.$ref ? document.components.headers?.[declared.$ref.split('/').pop()!] : declared;
      if (!header?.required) continue;
      const value = headers[name.toLowerCase()];
      if (value === undefined) problems.push(`header ${name} is declared as always sent but is missing`);
      else if (header.schema?.type === 'integer' && !/^\d+$/.test(String(value)))
        problems.push(`header ${name}: ${value} is not an integer`);
      else if (header.schema?.pattern && !new RegExp(header.schema.pattern).test(String(value)))
        problems.push(`header ${name}: ${value} does not match ${header.schema.pattern}`);
    }
    return problems;
  }

  function bodyProblems(pointer: string, declared: ResponseObject, answer: Answer): string[] {
    const { body, headers } = answer.response;
    if (answer.method === 'HEAD') return [];
    if (!declared.content) return body === '' ? [] : [`declares no body but answered ${body.slice(0, 200)}`];
    const type = String(headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    const media = Object.keys(declared.content).find((name) => name === type);
    if (!media)
      return [`content type ${type || '(none)'} is not declared (${Object.keys(declared.content).join(', ')})`];
    // One JSON document (application/json, …+json); NDJSON and CSV are streams of lines, not JSON.
    if (type !== 'application/json' && !type.endsWith('+json')) return [];
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return [`body is not JSON: ${body.slice(0, 200)}`];
    }
    const validate = validatorAt(`${pointer}/content/${escape(media)}/schema`);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  }

  function problems(answer: Answer): string[] {
    const path = new URL(answer.url, 'http://localhost').pathname;
    const found = paths.find((p) => p.pattern.test(path));
    if (!found) return [];
    const item = document.paths[found.path];
    const status = String(answer.response.statusCode);
    const method = answer.method.toLowerCase();
    const operation = item[method] ?? (method === 'head' ? item.get : undefined);
    const declaring = operation
      ? [[method in item ? method : 'get', operation] as const]
      : Object.entries(item).filter(([name, op]) => methods.has(name) && op.responses?.[status]);
    const [name, op] = declaring[0] ?? [];
    const declared = op?.responses?.[status];
    if (!name || !declared) return [`status ${status} is not declared for ${answer.method} ${found.path}`];
    const pointer = `/paths/${escape(found.path)}/${name}/responses/${status}`;
    return [...headerProblems(declared, answer.response.headers), ...bodyProblems(pointer, declared, answer)];
  }

  return {
    problems,
    check(answer) {
      const found = problems(answer);
      if (found.length === 0) return;
      throw new AssertionError({
        message: `${answer.method} ${answer.url} answered ${answer.response.statusCode} against the OpenAPI document:\n  ${found.join('\n  ')}\n  body: ${answer.response.body.slice(0, 500)}`,
      });
    },
  };
}
