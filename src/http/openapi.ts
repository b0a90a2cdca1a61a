/** OpenAPI 3.1 document of the whole API, and the interactive docs at /docs. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const apiPrefix = '/mx/b2b/autofin/api';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'autofin partner API',
        version: 'v1',
        description:
          'Auto-loan leads for business partners in Mexico: create and fill in a lead, verify its person by PIN, ' +
          'and read the vehicle and ZIP-code catalogs. Every error is an `ErrorResponse`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access token from POST /auth/token' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment' },
        },
      },
      tags: [
        { name: 'auth', description: 'Access tokens' },
        { name: 'catalogs', description: 'Vehicle and ZIP-code catalogs' },
        { name: 'leads', description: 'Leads and their sections' },
        { name: 'verification', description: 'PIN verification, bureau report and pre-qualification' },
        { name: 'admin', description: 'Companies, affiliates and credentials (operators only)' },
        { name: 'operations', description: 'Health probes' },
      ],
    },
    // Shared schemas keep their spec names (ErrorResponse, LoanInfoPayload…) in components.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `schema-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get(`${apiPrefix}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}
