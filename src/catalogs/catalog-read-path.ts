/**
 * The catalog read path: answers the common catalog read before Fastify sees it, for a partner
 * whose token this instance has already checked. Catalog reads are the bulk of a partner's traffic
 * and cost little more than the authentication check; Fastify's per-request work (request and
 * reply objects, logger, hooks, routing, validation) would otherwise be most of their cost.
 *
 * It answers only when everything is known at once and the answer is a 200 or a 304: a GET of one
 * of the catalog reads in its canonical form (no query, no trailing slash, ids without leading
 * zeros), a token already verified and unexpired whose credential is cached as active, an entry
 * in the catalog, and the per-company limit not reached. Anything else is left to Fastify
 * untouched, and Fastify answers it, errors included, as it answers every other request. What a
 * partner sees is the same either way (catalog-read-path.test.ts compares the two): the same
 * headers (request id, rate limit, ETag, Cache-Control, Vary), the same bytes, the same count in
 * the limit and in the metrics. The access line of a successful read is a debug line: while the
 * service logs at debug (or is closing), every request goes through Fastify.
 */
import { performance } from 'node:perf_hooks';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { AuthService } from '../auth/auth.service.ts';
import type { FastPath } from '../http/http-server.ts';
import { rateLimitHeaders, rateLimitKey, rateLimitWindowMs } from '../http/partner-guard.ts';
import type { RateLimiter } from '../http/rate-limiter.ts';
import { requestIdOf } from '../http/request-id.ts';
import { catalogReply } from './catalog-response.ts';
import { catalogReads, type CatalogRead } from './catalog-reads.ts';
import type { CatalogStore } from './catalog-store.ts';

export interface CatalogReadPathDeps {
  store: Pick<CatalogStore, 'current'>;
  auth: Pick<AuthService, 'authenticateCached'>;
  limiter: RateLimiter;
  perMinute: number;
  /** The API prefix the catalog routes are registered under. */
  prefix: string;
  /** The HTTP metrics, counted under the same route as Fastify counts it. */
  record(method: string, route: string, status: number, seconds: number): void;
  /** False while every request must go through Fastify (logging at debug, closing). */
  enabled(): boolean;
}

type Params = Record<string, string | number>;

interface CompiledRead {
  pattern: RegExp;
  /** The route as Fastify names it (prefix included): the metrics label. */
  route: string;
  /** Each parameter's name and how its matched text becomes its value. */
  params: { name: string; value: (text: string) => string | number }[];
  find: CatalogRead<Params>['find'];
}

// The canonical form of each parameter; any other spelling Fastify may accept goes to Fastify.
const zipCodeForm = { pattern: '(\\d{5})', value: (text: string) => text };
const idForm = { pattern: '([1-9]\\d{0,9})', value: Number };

function compile(prefix: string, read: CatalogRead<Params>): CompiledRead {
  const params: CompiledRead['params'] = [];
  const source = read.path.replace(/:(\w+)/g, (_all, name: string) => {
    const form = name === 'zipCode' ? zipCodeForm : idForm;
    params.push({ name, value: form.value });
    return form.pattern;
  });
  return { pattern: new RegExp(`^${prefix}${source}$`), route: `${prefix}${read.path}`, params, find: read.find };
}

function paramsOf(read: CompiledRead, match: RegExpExecArray): Params {
  const params: Params = {};
  read.params.forEach(({ name, value }, i) => (params[name] = value(match[i + 1])));
  return params;
}

export function createCatalogReadPath(deps: CatalogReadPathDeps): FastPath {
  const consumeNow = deps.limiter.consumeNow?.bind(deps.limiter);
  // A limiter that must wait (Redis) cannot answer at once: every read then goes through Fastify.
  if (!consumeNow) return () => false;
  const reads = Object.values(catalogReads).map((read) => compile(deps.prefix, read as CatalogRead<never> as CatalogRead<Params>));
  const catalogsPrefix = `${deps.prefix}/catalogs/`;
  const limitHeader = String(deps.perMinute);

  return function answerCatalogRead(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith(catalogsPrefix) || !deps.enabled()) return false;
    const started = performance.now();
    let read: CompiledRead | undefined;
    let match: RegExpExecArray | null = null;
    for (const candidate of reads) {
      match = candidate.pattern.exec(url);
      if (match) {
        read = candidate;
        break;
      }
    }
    if (!read || !match) return false;
    const auth = deps.auth.authenticateCached(req.headers.authorization);
    if (!auth) return false;
    const answer = read.find(deps.store.current(), paramsOf(read, match));
    if (!answer) return false;
    const decision = consumeNow(rateLimitKey(auth), deps.perMinute, rateLimitWindowMs);
    // Over the limit: Fastify's guard counts the request again and answers the 429. Past the
    // limit a second count changes nothing a partner sees: the window, and so Retry-After, stays.
    if (!decision.allowed) return false;
    const { status, representation, headers: catalogHeaders } = catalogReply(answer, req.headers.accept, req.headers['if-none-match']);
    const headers: OutgoingHttpHeaders = {
      'x-request-id': requestIdOf(req),
      ...rateLimitHeaders(limitHeader, decision),
      ...catalogHeaders,
    };
    if (status === 200) {
      headers['content-type'] = representation.contentType;
      headers['content-length'] = representation.body.length;
      res.writeHead(200, headers).end(representation.body);
    } else {
      res.writeHead(304, headers).end();
    }
    deps.record('GET', read.route, status, (performance.now() - started) / 1000);
    return true;
  };
}
