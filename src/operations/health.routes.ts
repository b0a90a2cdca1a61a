/** Liveness and readiness probes for load balancers and orchestrators. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors, errorAnswers, errorCase, ok } from '../http/index.ts';
import { operation } from '../http/index.ts';
import { healthOperations as docs } from './health.operations.ts';

const Health = Type.Object({ status: Type.Enum(['ok', 'ready']) }, { $id: 'Health', examples: [{ status: 'ok' }] });
const probe = { tags: ['operations'], security: [] };
/** Probes take no input and no token: an unexpected failure, or a database that does not answer. */
const failures = (ready: boolean) =>
  errorAnswers({
    access: 'public',
    cases: ready ? { 503: [errorCase('The database does not answer', errors.unavailable())] } : {},
  });

/**
 * The probes answer fixed bytes, so no serializer is compiled for them: a serializer is compiled on a
 * route's first answer (docs/performance.md), which made the first readiness answer, the one an
 * orchestrator waits for after a start, take tens of milliseconds more.
 */
const answer = (status: 'ok' | 'ready') => JSON.stringify({ status });
const live = answer('ok');
const ready = answer('ready');
const json = 'application/json; charset=utf-8';

export const healthRoutes =
  (deps: { ping: () => Promise<boolean> }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health/live',
      {
        schema: {
          ...probe,
          ...operation(docs, 'liveness'),
          response: { 200: ok('public', Health, 'The process is up: `{"status": "ok"}`.'), ...failures(false) },
        },
      },
      async (_request, reply) => reply.type(json).send(live),
    );
    app.get(
      '/health/ready',
      {
        schema: {
          ...probe,
          ...operation(docs, 'readiness'),
          response: { 200: ok('public', Health, 'Ready: `{"status": "ready"}`.'), ...failures(true) },
        },
      },
      async (_request, reply) => {
        if (!(await deps.ping())) throw errors.unavailable();
        return reply.type(json).send(ready);
      },
    );
  };
