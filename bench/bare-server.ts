/**
 * The reference: a bare Fastify server, in the same process as the service, no logger, no hooks,
 * whose routes answer recorded bytes with no work at all. The catalog routes are compared with it.
 */
import Fastify, { type FastifyInstance } from 'fastify';

export interface RecordedAnswer {
  path: string;
  contentType: string;
  body: string;
}

export async function startBareServer(answers: RecordedAnswer[]): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({ logger: false });
  for (const answer of answers) {
    app.get(answer.path, (_request, reply) => {
      reply.header('content-type', answer.contentType).send(answer.body);
    });
  }
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base };
}
