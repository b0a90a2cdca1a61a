/** Liveness and readiness probes for load balancers and orchestrators. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../http/app-error.ts';
import { ErrorResponse } from '../http/error-response.ts';

const Health = Type.Object({ status: Type.String() }, { $id: 'Health', examples: [{ status: 'ok' }] });

export const healthRoutes =
  (deps: { ping: () => Promise<boolean> }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health/live',
      { schema: { tags: ['operations'], operationId: 'liveness', summary: 'The process is up', response: { 200: Health, 503: ErrorResponse } } },
      async () => ({ status: 'ok' }),
    );
    app.get(
      '/health/ready',
      {
        schema: {
          tags: ['operations'],
          operationId: 'readiness', summary: 'The service can serve: its database answers',
          response: { 200: Health, 503: ErrorResponse },
        },
      },
      async () => {
        if (!(await deps.ping())) throw errors.unavailable();
        return { status: 'ready' };
      },
    );
  };
