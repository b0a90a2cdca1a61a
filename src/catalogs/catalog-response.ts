/**
 * Sends a pre-rendered catalog answer: JSON or XML by `Accept`, with its ETag and Cache-Control,
 * and 304 when the partner already holds that representation.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogAnswer, CatalogFormat } from './catalog-index.ts';

const cacheControl = 'private, max-age=3600';

export function preferredFormat(accept: string | undefined): CatalogFormat {
  if (!accept || !/(application|text)\/xml/.test(accept)) return 'json';
  const xml = accept.search(/(application|text)\/xml/);
  const json = accept.search(/application\/json/);
  return json !== -1 && json < xml ? 'json' : 'xml';
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Sends at once (route handlers calling it are synchronous: no promise per catalog read). */
export function sendCatalogAnswer(request: FastifyRequest, reply: FastifyReply, answer: CatalogAnswer<unknown>): void {
  const representation = answer.render(preferredFormat(request.headers.accept));
  reply.header('etag', representation.etag).header('cache-control', cacheControl).header('vary', 'Accept');
  if (matches(request.headers['if-none-match'], representation.etag)) reply.code(304).send();
  else reply.type(representation.contentType).send(representation.body);
}
