/**
 * The answer to a catalog read: a representation from the render cache, JSON or XML by `Accept`, with its
 * ETag and Cache-Control, or 304 when the partner already holds that representation.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogAnswer, CatalogFormat } from './catalog-index.ts';
import type { Representation } from './render-cache.ts';

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

export interface CatalogReply {
  status: 200 | 304;
  representation: Representation;
  /** ETag, Cache-Control and Vary (the content type goes with a 200 only). */
  headers: { etag: string; 'cache-control': string; vary: string };
}

export function catalogReply(
  answer: CatalogAnswer<unknown>,
  accept: string | undefined,
  ifNoneMatch: string | undefined,
): CatalogReply {
  const representation = answer.render(preferredFormat(accept));
  return {
    status: matches(ifNoneMatch, representation.etag) ? 304 : 200,
    representation,
    headers: { etag: representation.etag, 'cache-control': cacheControl, vary: 'Accept' },
  };
}

/** Sends at once (route handlers calling it are synchronous: no promise per catalog read). */
export function sendCatalogAnswer(request: FastifyRequest, reply: FastifyReply, answer: CatalogAnswer<unknown>): void {
  const { status, representation, headers } = catalogReply(
    answer,
    request.headers.accept,
    request.headers['if-none-match'],
  );
  reply.headers(headers);
  if (status === 304) reply.code(304).send();
  else
    reply
      .type(representation.contentType)
      .header('content-length', representation.byteLength)
      .send(representation.body);
}
