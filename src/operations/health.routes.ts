/** Liveness and readiness probes for load balancers and orchestrators. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors, errorAnswers, errorCase, ok } from '../http/index.ts';

const Health = Type.Object({ status: Type.Enum(['ok', 'ready']) }, { $id: 'Health', examples: [{ status: 'ok' }] });
const probe = { tags: ['operations'], security: [] };
/** Probes take no input and no token: an unexpected failure, or a database that does not answer. */
const failures = (ready: boolean) =>
  errorAnswers({
    access: 'public',
    cases: ready ? { 503: [errorCase('The database does not answer', errors.unavailable())] } : {},
  });

export const healthRoutes =
  (deps: { ping: () => Promise<boolean> }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health/live',
      {
        schema: {
          ...probe,
          operationId: 'liveness',
          summary: 'The process is up',
          response: { 200: ok('public', Health, 'The process is up: `{"status": "ok"}`.'), ...failures(false) },
        },
      },
      async () => ({ status: 'ok' }),
    );
    app.get(
      '/health/ready',
      {
        schema: {
          ...probe,
          operationId: 'readiness',
          summary: 'The service can serve: its database answers',
          response: { 200: ok('public', Health, 'Ready: `{"status": "ready"}`.'), ...failures(true) },
        },
      },
      async () => {
        if (!(await deps.ping())) throw errors.unavailable();
        return { status: 'ready' };
      },
    );
  };
