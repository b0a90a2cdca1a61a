/** OpenAPI 3.1 document of the whole API, and the interactive docs at /docs. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { webhookDocumentation } from '../webhooks/webhook-openapi.ts';

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
    return {
      ...schema,
      ...(schema.body ? { body: toRef(schema.body) } : {}),
      ...(response ? { response: Object.fromEntries(Object.entries(response).map(([code, part]) => [code, toRef(part)])) } : {}),
    };
  };
  return { schemas, referToThem };
}

/** Where the sandbox serves its guide (docs/sandbox.md); linked from the description there. */
const sandboxGuideLink =
  ' Integrating against the sandbox: magic phones and e-mails that make each provider fail, the bureau test ' +
  'profiles and ready test people are in the [sandbox guide](/docs/sandbox.md).';

export async function registerOpenApi(app: FastifyInstance, options: { sandboxGuide?: boolean } = {}): Promise<void> {
  const named = collectNamedSchemas(app);
  await app.register(swagger, {
    transform: ({ schema, url }) => ({ schema: schema && named.referToThem(schema), url }),
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
      servers: [{ url: '/' }],
      // What the service sends to subscribed endpoints (docs/webhooks.md).
      webhooks: webhookDocumentation() as never,
      components: {
        // Filled as routes are added; read when the document is built.
        schemas: named.schemas as Record<string, never>,
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access token from POST /auth/token' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment, or an operator key (op_…)' },
        },
      },
      tags: [
        { name: 'auth', description: 'Access tokens' },
        { name: 'catalogs', description: 'Vehicle and ZIP-code catalogs' },
        { name: 'leads', description: 'Leads and their sections' },
        { name: 'verification', description: 'PIN verification, bureau report and pre-qualification' },
        { name: 'webhooks', description: 'Lead events pushed to the partner’s endpoints (docs/webhooks.md)' },
        ...(options.sandboxGuide ? [{ name: 'sandbox', description: 'What only the sandbox environment offers integrators' }] : []),
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
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get(`${apiPrefix}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}
