/**
 * fast-check arbitraries of HTTP requests built from the served OpenAPI document: for each
 * operation a request close to a valid one (bodies generated from the operation's schema, path and
 * query parameters from pools of known ids), then mutated: fields dropped, added or replaced by
 * hostile values, the body replaced by non-JSON or non-objects, parameters and headers garbled.
 */
import fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  examples?: unknown[];
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface FuzzRequest {
  operation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** The own lead's id when the request targets it (the state to compare before and after). */
  targetsLead: boolean;
}

/** Values a partner's request should never be able to turn into a 500. */
export const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007',
  '\u001f',
  '\u007f',
  '\u0085',
  '\ud800',
  '😀',
  'ñÑáé',
  "'; drop table leads; --",
  '%00',
  '%zz',
  '../..',
  'x'.repeat(300),
  '0000-01-01',
  '+275760-09-13',
  '-200000-01-01',
  '9999-12-31T23:59:59.999Z',
  '00000000-0000-0000-0000-000000000000',
  '00000000-0000-0000-0000-00000000000g',
  '__proto__',
  'constructor',
  'NaN',
  '1e309',
];
const hostileValues: Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2147483648,
  -2147483649,
  1e308,
  [],
  {},
  [null],
  { a: 1 },
  ...hostileStrings,
];

/** A lone surrogate has no UTF-8 form: sent as the bytes a broken client would send. */
const queryEncoded = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

export const hostileValue = (): fc.Arbitrary<Json> =>
  fc.oneof(
    fc.constantFrom(...hostileValues),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer(),
    fc.double({ noNaN: true }),
  );

/** A JSON object `depth` levels deep (objects and arrays alternating), as text: built without recursion. */
export function nestedJson(depth: number, leaf = '1'): string {
  let open = '';
  let close = '';
  for (let level = 0; level < depth; level++) {
    const array = level % 3 === 2;
    open += array ? '[' : '{"a":';
    close = (array ? ']' : '}') + close;
  }
  return open + leaf + close;
}

/** Deep, huge and odd bodies: the shapes that reach a parser's or a serializer's limits. */
const extremeBodies = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(31, 32, 33, 40, 600, 10_000, 20_000).map((depth) => nestedJson(depth)),
    fc.constantFrom(33, 10_000).map((depth) => `{"phone":${nestedJson(depth)}}`),
    fc.constantFrom(60_000, 70_000).map((size) => `{"a":"${'x'.repeat(size)}"}`),
    fc.constantFrom(
      `{"a":[${'1,'.repeat(20_000)}1]}`,
      `{${Array.from({ length: 3000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
    ),
  );

export function createRequestArbitrary(
  document: OpenApiDocument,
  pools: {
    leadId: string;
    otherLeadId: string;
    companyId: string;
    consumerKey: string;
    cursor: string;
    authorization: { partner: string; admin: string };
  },
): fc.Arbitrary<FuzzRequest> {
  const schemas = document.components?.schemas ?? {};
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? resolve(schemas[schema.$ref.split('/').pop()!] ?? {}) : schema;

  function valueOf(raw: Schema, depth = 0): fc.Arbitrary<Json> {
    const schema = resolve(raw);
    if (schema.examples?.length && depth > 0) {
      return fc.oneof(fc.constantFrom(...(schema.examples as Json[])), plain(schema, depth));
    }
    return plain(schema, depth);
  }
  function plain(schema: Schema, depth: number): fc.Arbitrary<Json> {
    if (schema.enum) return fc.constantFrom(...(schema.enum as Json[]));
    if (schema.const !== undefined) return fc.constant(schema.const as Json);
    const union = schema.anyOf ?? schema.oneOf;
    if (union) return fc.oneof(...union.map((s) => valueOf(s, depth + 1)));
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === 'object' || schema.properties) return objectOf(schema, depth);
    if (type === 'array') return fc.array(valueOf(schema.items ?? {}, depth + 1), { maxLength: 3 });
    if (type === 'integer')
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1_000_000, 2 ** 31) });
    if (type === 'number')
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    if (type === 'boolean') return fc.boolean();
    if (schema.pattern && /^\^\(?\[0-9\]\{(\d+)\}\)?\$$/.test(schema.pattern)) {
      const digits = Number(/\{(\d+)\}/.exec(schema.pattern)![1]);
      return fc.stringMatching(new RegExp(`^[0-9]{${digits}}$`));
    }
    if (schema.pattern === '^\\d{5}$') return fc.constantFrom('06700', '01000', '99999', '00000');
    if (schema.format === 'uuid' || schema.pattern?.includes('{8}-'))
      return fc.constantFrom(pools.leadId, pools.companyId, crypto.randomUUID());
    if (schema.format === 'email') return fc.constantFrom('ana@example.com', 'not-an-email', 'a@b');
    if (schema.format === 'date') return fc.constantFrom('2019-03-01', '2999-01-01', '2020-02-30', '0000-01-01');
    return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) });
  }
  function objectOf(schema: Schema, depth: number): fc.Arbitrary<Json> {
    const properties = schema.properties ?? {};
    if (depth > 4) return fc.constant({});
    const record: Record<string, fc.Arbitrary<Json>> = {};
    for (const [name, property] of Object.entries(properties)) record[name] = valueOf(property, depth + 1);
    const required = new Set(schema.required ?? []);
    return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) }) as fc.Arbitrary<Json>;
  }

  /** One mutation of a generated body: a field dropped, added, or given a hostile value; or the whole body replaced. */
  const mutatedBody = (body: fc.Arbitrary<Json>): fc.Arbitrary<string | undefined> =>
    fc.oneof(
      { weight: 3, arbitrary: body.map((b) => JSON.stringify(b)) },
      {
        weight: 4,
        arbitrary: fc.tuple(body, fc.nat(), hostileValue(), fc.boolean()).map(([b, i, v, add]) => {
          if (b === null || typeof b !== 'object' || Array.isArray(b)) return JSON.stringify(v);
          const keys = Object.keys(b);
          const extras = ['unknown', '__proto__', 'a\u0000b'];
          const key = add || keys.length === 0 ? extras[i % extras.length] : keys[i % keys.length];
          return JSON.stringify({ ...b, [key]: v });
        }),
      },
      {
        weight: 1,
        arbitrary: body.map((b) => {
          if (b === null || typeof b !== 'object' || Array.isArray(b)) return '{}';
          const keys = Object.keys(b);
          return JSON.stringify(Object.fromEntries(Object.entries(b).slice(0, Math.max(0, keys.length - 1))));
        }),
      },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          undefined,
          '{}',
          '{}',
          '',
          'null',
          '[]',
          '"x"',
          '1',
          '{',
          '{"a":',
          '\u0000',
          '{"__proto__":{"x":1}}',
          '[{}]',
        ),
      },
      { weight: 1, arbitrary: extremeBodies() },
    );

  const pathValue = (name: string): fc.Arbitrary<string> => {
    const known: Record<string, string[]> = {
      leadId: [
        pools.leadId,
        pools.leadId,
        pools.leadId,
        pools.leadId.toUpperCase(),
        pools.otherLeadId,
        crypto.randomUUID(),
      ],
      companyId: [pools.companyId, crypto.randomUUID()],
      consumer_key: [pools.consumerKey, 'ck_unknown'],
      zipCode: ['06700', '99999'],
      yearId: ['2020', '1900', '2020.5'],
    };
    const garbage = fc.oneof(
      fc.constantFrom(
        '%zz',
        '%00',
        'abc%00def',
        '%E0%A4%A',
        'a'.repeat(101),
        '-1',
        '0',
        '1e3',
        '%2F',
        '..',
        '%C3%B1',
        '12abc',
      ),
      fc.stringMatching(/^[A-Za-z0-9._~-]{1,40}$/),
      fc.string({ unit: fc.constantFrom('0', '9', 'a', 'F', '-', '%', '2', '0'), minLength: 1, maxLength: 40 }),
    );
    return fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...(known[name] ?? ['1', '2020'])) },
      { weight: 2, arbitrary: garbage },
    );
  };

  const queryValue = (parameter: Parameter): fc.Arbitrary<string> => {
    const valid: Record<string, string[]> = {
      status: ['CREATED', 'IN_PROGRESS', 'VERIFIED', 'nope'],
      createdFrom: ['2026-01-01', '2026-01-15T12:00:00Z', '0000-01-01', '+275760-09-13'],
      createdTo: ['2030-01-01', '9999-12-31', '2026-02-30'],
      limit: ['1', '100', '0', '101', '2.5', '-1', '1e2'],
      cursor: [
        pools.cursor,
        Buffer.from(`-200000-01-01T00:00:00.000Z|${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`).toString(
          'base64url',
        ),
        Buffer.from(`2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`).toString('base64url'),
        '!!!',
        'a',
      ],
    };
    return fc.oneof(
      fc.constantFrom(...(valid[parameter.name] ?? ['x'])),
      fc.constantFrom(...hostileStrings).map(queryEncoded),
    );
  };

  /** Mostly the credentials and content type the operation needs, so most requests get past authentication. */
  const headersFor = (path: string) => {
    const own = path.startsWith('/admin') ? pools.authorization.admin : pools.authorization.partner;
    return fc.record({
      authorization: fc.oneof(
        { weight: 8, arbitrary: fc.constant(own) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            pools.authorization.partner,
            pools.authorization.admin,
            'Bearer x',
            'Basic Zm9v',
            '',
            undefined,
          ),
        },
      ),
      'content-type': fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'application/json; charset=utf-8',
            'text/plain',
            'text/csv',
            'application/xml',
            undefined,
          ),
        },
      ),
      'idempotency-key': fc.constantFrom(undefined, undefined, undefined, 'key-1', 'k'.repeat(300), 'ñ'),
      'accept-version': fc.constantFrom(undefined, undefined, 'v1', 'v2', 'x'.repeat(20)),
      'x-request-id': fc.constantFrom(undefined, 'req-1', 'bad id', 'r'.repeat(80)),
      accept: fc.constantFrom(undefined, undefined, 'application/xml', 'text/csv', '*/*', 'text/html;q=0.1', '\u0000'),
      'accept-encoding': fc.constantFrom(undefined, 'gzip', 'br;q=0', 'identity;q=0, *;q=0'),
    });
  };

  const operations: fc.Arbitrary<FuzzRequest>[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const pathParams = parameters.filter((p) => p.in === 'path');
      const queryParams = parameters.filter((p) => p.in === 'query');
      const bodySchema = operation.requestBody?.content['application/json']?.schema;
      const body = bodySchema
        ? mutatedBody(valueOf(bodySchema))
        : fc.constantFrom(undefined, undefined, '{}', 'null', 'garbage');
      const pathArbitrary = fc.tuple(...pathParams.map((p) => pathValue(p.name)));
      const queryArbitrary = fc.tuple(...queryParams.map((p) => fc.option(queryValue(p), { nil: undefined })));
      operations.push(
        fc
          .record({
            values: pathArbitrary,
            query: queryArbitrary,
            payload: body,
            headers: headersFor(path),
            extraQuery: fc.option(fc.constantFrom('x=1', 'limit=5&limit=6', '%zz=1', 'a=%00'), { nil: undefined }),
          })
          .map(({ values, query, payload, headers, extraQuery }) => {
            let url = path;
            pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, values[i])));
            const pairs = queryParams.flatMap((p, i) => (query[i] === undefined ? [] : [`${p.name}=${query[i]}`]));
            if (extraQuery) pairs.push(extraQuery);
            if (pairs.length) url += `?${pairs.join('&')}`;
            const sent = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
              string,
              string
            >;
            return {
              operation: operation.operationId ?? `${method} ${path}`,
              method: method.toUpperCase(),
              url,
              headers: sent,
              payload,
              targetsLead: pathParams.some((p, i) => p.name === 'leadId' && values[i].toLowerCase() === pools.leadId),
            };
          }),
      );
    }
  }
  return fc.oneof(...operations);
}
