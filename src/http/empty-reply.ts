import type { FastifyReply } from 'fastify';

/**
 * Answers with no body at all. The spec keeps `200` with no body for some sections and `204` for
 * others; both must carry zero bytes, never a serialized `null`.
 */
export function sendEmpty(reply: { code(status: number): unknown }, status: 200 | 204): FastifyReply {
  const plain = reply as unknown as FastifyReply;
  return plain.code(status).send();
}
