/** OpenAPI 3.1 document of the whole API, and the interactive docs at /docs. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { answerDocOf, responseHeaders, type AnswerDoc, type HeaderName } from './openapi-answers.ts';

export const apiPrefix = '/mx/b2b/autofin/api';

function idOf(schema: unknown): string | undefined {
  const id = (schema as { $id?: unknown } | null | undefined)?.$id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A route's body or response schema that carries an `$id` (`TokenRequest`, `ZipCodeInformation`…)
 * would be inlined by @fastify/swagger and missing from `components.schemas`. Such schemas are
 * collected here as routes are added and the document refers to them by name. They are not
 * registered with `addSchema`: a shared schema added to a plugin makes Fastify rebuild that
 * plugin's validator with Ajv instead of our TypeBox compiler.
 */
function collectNamedSchemas(app: FastifyInstance) {
  const schemas: Record<string, unknown> = {};
  app.addHook('onRoute', (route) => {
    const parts = [route.schema?.body, ...Object.values((route.schema?.response ?? {}) as Record<string, unknown>)];
    for (const part of parts) {
      const id = idOf(part);
      if (id && !(id in schemas)) schemas[id] = part;
    }
  });
  const toRef = (part: unknown) => {
    const id = idOf(part);
    return id ? { $ref: `#/components/schemas/${id}` } : part;
  };
  const referToThem = (schema: FastifySchema): FastifySchema => {
    const response = schema.response as Record<string, unknown> | undefined;
    const answers = Object.fromEntries(
      Object.entries(response ?? {}).flatMap(([code, part]) => {
        const doc = answerDocOf(part);
        return doc ? [[code, doc]] : [];
      }),
    );
    return {
      ...schema,
      ...(schema.body ? { body: toRef(schema.body) } : {}),
      ...(response
        ? { response: Object.fromEntries(Object.entries(response).map(([code, part]) => [code, toRef(part)])) }
        : {}),
      // Read and removed by `finishDocument` (x- keys are copied to the operation as they are).
      ...(Object.keys(answers).length > 0 ? { 'x-answers': answers } : {}),
    };
  };
  return { schemas, referToThem };
}

interface Operation {
  requestBody?: { required?: boolean };
  responses?: Record<
    string,
    {
      description?: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { examples?: unknown; example?: unknown }>;
    }
  >;
  'x-answers'?: Record<string, AnswerDoc>;
  'x-body-optional'?: boolean;
  /** A multipart body the route reads itself (a document upload): the form's fields and its file. */
  'x-multipart-body'?: object;
}

/** Writes each route's answer declarations (openapi-answers.ts) into its operation. */
function finishOperation(operation: Operation, used: Set<HeaderName>): void {
  if (operation['x-body-optional'] && operation.requestBody) operation.requestBody.required = false;
  delete operation['x-body-optional'];
  if (operation['x-multipart-body']) {
    const schema = operation['x-multipart-body'];
    (operation as { requestBody?: object }).requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema,
          encoding: { file: { contentType: 'application/pdf, image/jpeg, image/png' } },
        },
      },
    };
    delete operation['x-multipart-body'];
  }
  for (const [status, doc] of Object.entries(operation['x-answers'] ?? {})) {
    const response = operation.responses?.[status];
    if (!response) continue;
    response.description = doc.description;
    const headers = [
      ...doc.headers.map((name) => [name, true] as const),
      ...(doc.optionalHeaders ?? []).map((name) => [name, false] as const),
    ];
    if (headers.length > 0) {
      // Headers always sent refer to components.headers; those sent at times are described in place.
      response.headers = Object.fromEntries(
        headers.map(([name, required]) => {
          if (!required) return [name, { ...responseHeaders[name], required }];
          used.add(name);
          return [name, { $ref: `#/components/headers/${name}` }];
        }),
      );
    }
    if (doc.examples && response.content) {
      // Errors are JSON whatever the route's success answers are.
      const media = response.content['application/json'] ?? Object.values(response.content)[0];
      delete media.example;
      media.examples = doc.examples;
      response.content = { 'application/json': media };
    }
  }
  delete operation['x-answers'];
}

/** A path parameter over 100 characters is refused by the router, before any route: 414 / 4140. */
function declareUriTooLong(operation: Operation, used: Set<HeaderName>): void {
  if (!operation.responses || operation.responses['414']) return;
  used.add('X-Request-Id');
  operation.responses['414'] = {
    description: 'A path parameter is over 100 characters; the URL is not echoed.',
    headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorResponse' },
        examples: {
          4140: {
            summary: 'A path parameter over 100 characters',
            value: {
              timestamp: '2026-01-15T12:00:00.000Z',
              message: 'URI Too Long',
              code: 4140,
              requestId: 'b7e3c1d2-5f4a-4e6b-9c8d-1a2b3c4d5e6f',
              additionalData: null,
            },
          },
        },
      },
    },
  } as never;
}

function finishDocument(document: {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
}) {
  const used = new Set<HeaderName>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      finishOperation(operation as Operation, used);
      if (path.includes('{')) declareUriTooLong(operation as Operation, used);
    }
  }
  const headers = Object.entries(responseHeaders).filter(([name]) => used.has(name as HeaderName));
  document.components = {
    ...document.components,
    headers: Object.fromEntries(headers.map(([name, header]) => [name, { ...header, required: true }])),
  };
  return document;
}

/** Where the sandbox serves its guide (docs/sandbox.md); linked from the description there. */
const sandboxGuideLink =
  ' Integrating against the sandbox: magic phones and e-mails that make each provider fail, the bureau test ' +
  'profiles and ready test people are in the [sandbox guide](/docs/sandbox.md).';

export async function registerOpenApi(
  app: FastifyInstance,
  options: { sandboxGuide?: boolean; webhooks?: Record<string, unknown> } = {},
): Promise<void> {
  const named = collectNamedSchemas(app);
  await app.register(swagger, {
    transform: ({ schema, url }) => ({ schema: schema && named.referToThem(schema), url }),
    transformObject: (documents) =>
      finishDocument(
        ('openapiObject' in documents ? documents.openapiObject : documents.swaggerObject) as never,
      ) as never,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'autofin partner API',
        version: 'v1',
        description:
          'Auto-loan leads for business partners in Mexico: create and fill in a lead, verify its person by PIN, ' +
          'and read the vehicle and ZIP-code catalogs. Every error is an `ErrorResponse`.' +
          (options.sandboxGuide ? sandboxGuideLink : ''),
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [
        {
          url: '{scheme}://{host}',
          description: 'A deployment of the service. `npm start` serves the sandbox at http://127.0.0.1:3000.',
          variables: {
            scheme: { enum: ['http', 'https'], default: 'http' },
            host: { default: '127.0.0.1:3000', description: 'Host and port of the deployment' },
          },
        },
      ],
      // What the service sends to subscribed endpoints (docs/webhooks.md).
      webhooks: (options.webhooks ?? {}) as never,
      components: {
        // Filled as routes are added; read when the document is built.
        schemas: named.schemas as Record<string, never>,
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access token from POST /auth/token' },
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The ADMIN_TOKEN of the deployment, or an operator key (op_…)',
          },
        },
      },
      tags: [
        { name: 'auth', description: 'Access tokens' },
        { name: 'catalogs', description: 'Vehicle and ZIP-code catalogs' },
        { name: 'leads', description: 'Leads and their sections' },
        { name: 'verification', description: 'PIN verification, bureau report and pre-qualification' },
        { name: 'webhooks', description: 'Lead events pushed to the partner’s endpoints (docs/webhooks.md)' },
        ...(options.sandboxGuide
          ? [{ name: 'sandbox', description: 'What only the sandbox environment offers integrators' }]
          : []),
        { name: 'admin', description: 'Companies, affiliates and credentials (operators only)' },
        { name: 'operators', description: 'Operator keys and roles of the admin API (admin only)' },
        { name: 'lender', description: "The lender's read, export and erasure of leads (docs/lender-api.md)" },
        { name: 'audit', description: 'Who read, exported or erased personal data (admin only)' },
        { name: 'operations', description: 'Health probes' },
      ],
    },
    // Shared schemas keep their spec names (ErrorResponse, LoanInfoPayload…) in components.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `schema-${i}`) },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // "Try it out" calls the deployment the page was read from, whatever its host and PORT, before the
    // document's generic server.
    transformSpecification: (document, request) => ({
      ...document,
      servers: [
        { url: `${request.protocol}://${request.host}`, description: 'This deployment' },
        ...(((document as { servers?: unknown[] }).servers ?? []) as object[]),
      ],
    }),
  });
  app.get(`${apiPrefix}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}
