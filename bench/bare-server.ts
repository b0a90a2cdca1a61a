/**
 * The reference: a bare Fastify server, in the same process as the service, no logger, no hooks,
 * whose routes answer a recorded answer of the service (status, headers and body, byte for byte)
 * with no work at all. The catalog routes are compared with it, so the difference between the two
 * is the work the service does, not the size of what goes over the wire.
 */
import Fastify, { type FastifyInstance } from 'fastify';

export interface RecordedAnswer {
  path: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers Node writes itself for every answer (they are not part of what a route sends). */
const writtenByNode = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export function recordAnswer(
  path: string,
  answer: { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer },
): RecordedAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (!writtenByNode.has(name)) headers[name] = String(value);
  }
  return { path, status: answer.statusCode, headers, body: answer.rawPayload };
}

/**
 * What a route sends for these bytes: their UTF-8 text when it encodes back to exactly them (Node writes
 * a text and the head in one buffer; a Buffer body costs about 1 µs more a request), else the bytes.
 */
function payloadOf(body: Buffer): string | Buffer {
  const text = body.toString('utf8');
  return Buffer.from(text, 'utf8').equals(body) ? text : body;
}

export async function startBareServer(answers: RecordedAnswer[]): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({ logger: false });
  for (const answer of answers) {
    const payload = payloadOf(answer.body);
    app.get(answer.path, (_request, reply) => {
      reply.code(answer.status).headers(answer.headers).send(payload);
    });
  }
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base };
}
