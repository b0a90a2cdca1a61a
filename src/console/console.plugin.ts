/**
 * The operator console at /console (docs/console.md): server-rendered pages for the lender's staff,
 * in the same service and process as the API. This plugin sets what every page shares: cookies and
 * forms, the CSRF check of every POST, the security headers (strict CSP, no inline script or style),
 * the session check and the role of each page, and HTML pages for errors. The pages are in
 * the route modules registered at the end.
 */
import { fileURLToPath } from 'node:url';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormBody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { AppError, policy, policyOf } from '../http/index.ts';
import { roleAllows, projectFile } from '../shared/index.ts';
import type { ConsoleSessions } from './console-sessions.ts';
import {
  cookieOptions,
  csrfUserInfo,
  isLoopbackHost,
  pageContext,
  sendPage,
  sessionCookie,
} from './console-request.ts';
import { errorPage } from './error.views.ts';
import { signInRoutes } from './sign-in.routes.ts';
import { leadsRoutes, type LeadsPagesDeps } from './leads.routes.ts';
import { companiesRoutes, type CompaniesPagesDeps } from './companies.routes.ts';
import { webhooksRoutes, type WebhooksPagesDeps } from './webhooks.routes.ts';
import { catalogsRoutes, type CatalogsPagesDeps } from './catalogs.routes.ts';
import { operatorsRoutes, type OperatorsPagesDeps } from './operators.routes.ts';
import { outcomeRoutes, type OutcomePagesDeps } from './outcome.routes.ts';
import { reportsRoutes, type ReportsPagesDeps } from './reports.routes.ts';
import { documentsRoutes, type DocumentsPagesDeps } from './documents.routes.ts';
import type { ConsoleSignIn } from './console-sign-in.ts';

type PagesDeps = LeadsPagesDeps &
  CompaniesPagesDeps &
  WebhooksPagesDeps &
  CatalogsPagesDeps &
  OperatorsPagesDeps &
  OutcomePagesDeps &
  DocumentsPagesDeps &
  ReportsPagesDeps;

export type ConsoleDeps = PagesDeps & {
  sessions: ConsoleSessions;
  signIn: ConsoleSignIn;
  /** Key of the CSRF tokens' HMAC (derived from the service's encryption key). */
  csrfKey: Buffer;
  /** The sandbox: cookies on a loopback address may go without `Secure` (plain http on a laptop). */
  sandbox: boolean;
};

const securityHeaders = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

const assetsDir = fileURLToPath(projectFile('src/console/assets/'));

export const consolePlugin =
  (deps: ConsoleDeps): FastifyPluginAsync =>
  async (app) => {
    app.decorateRequest('consoleViewer', undefined);
    app.decorateRequest('consoleSecureCookies', true);
    await app.register(fastifyCookie);
    await app.register(fastifyFormBody, { bodyLimit: 64 * 1024 });
    // Tokens are bound to the session they were made for (a token of another session, or of none, fails),
    // so a cookie planted from a sibling domain cannot pair with a token its author got.
    await app.register(fastifyCsrf, {
      cookieKey: 'autofin_csrf',
      cookieOpts: { path: '/console', httpOnly: true, sameSite: 'strict' },
      getUserInfo: csrfUserInfo,
      csrfOpts: { hmacKey: deps.csrfKey },
    });
    // The stylesheet is public like the sign-in page that links it: the routes of this scope are marked so.
    await app.register(async (assets) => {
      assets.addHook('onRoute', (route) => {
        route.config = { ...route.config, policy: { ...route.config?.policy, consolePublic: true } };
      });
      await assets.register(fastifyStatic, {
        root: assetsDir,
        prefix: '/assets/',
        decorateReply: false,
        index: false,
        maxAge: 60 * 60 * 1000,
        wildcard: false,
      });
    });

    app.addHook('onRequest', async (request, reply) => {
      request.consoleSecureCookies = !(deps.sandbox && isLoopbackHost(request.hostname));
      reply.headers(securityHeaders);
      if (policyOf(request).consolePublic) return;
      // A reply sent here (redirect, 403) ends the request: returned so the handler never runs.
      return requireSession(deps, request, reply);
    });
    // Every form, sign-in included, carries the CSRF token: checked before the body is validated.
    app.addHook('preValidation', (request, reply, done) => {
      // An upload's fields are read by its route, in order: such a route checks the token itself, before the file.
      if (request.method !== 'POST' || policyOf(request).csrfInUpload) return done();
      app.csrfProtection(request, reply, done);
    });
    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.url.startsWith('/console/assets/')) reply.header('cache-control', 'no-store');
      return payload;
    });

    app.setErrorHandler((error: FastifyError, request, reply) => renderError(error, request, reply));
    app.setNotFoundHandler((request, reply) => sendPage(reply, errorPage(pageContext(request, reply), 404), 404));

    const toInbox = async (_request: FastifyRequest, reply: FastifyReply) => reply.redirect('/console/leads', 302);
    app.get('/', { config: policy({ consolePublic: true }), schema: { hide: true } }, toInbox);
    await app.register(signInRoutes(deps));
    await app.register(leadsRoutes(deps));
    await app.register(outcomeRoutes(deps));
    await app.register(documentsRoutes(deps));
    await app.register(reportsRoutes(deps));
    await app.register(companiesRoutes(deps));
    await app.register(webhooksRoutes(deps));
    await app.register(catalogsRoutes(deps));
    await app.register(operatorsRoutes(deps));
  };

/** Unauthenticated: back to sign-in (and here afterwards). A role that may not open the page: 403. */
async function requireSession(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const viewer = await deps.sessions.resolve(request.cookies[sessionCookie]);
  if (!viewer) {
    if (request.cookies[sessionCookie]) reply.clearCookie(sessionCookie, cookieOptions(request));
    const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
    return reply.redirect(`/console/sign-in${next}`, request.method === 'GET' ? 302 : 303);
  }
  request.consoleViewer = { operatorId: viewer.operatorId, name: viewer.name, role: viewer.role };
  // An address that is no page is 404 for every signed-in role (the roles are those of pages).
  if (!request.is404 && !roleAllows(viewer.role, policyOf(request).roles)) {
    return sendPage(reply, errorPage(pageContext(request, reply), 403), 403);
  }
}

function renderError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error instanceof AppError ? error.statusCode : (error.statusCode ?? 500);
  if (status >= 500) request.log.error({ err: { type: error.name, code: error.code } }, 'console page failed');
  // A request its schema refused fails with the API's invalid-input error; the schema's own errors stay on the request.
  const schemaErrors = error.validation ?? (request.validationError?.validation as FastifyError['validation']);
  const detail =
    status === 400 && schemaErrors
      ? `Datos no válidos: ${schemaErrors.map((v) => v.instancePath.replace(/^\//, '') || 'solicitud').join(', ')}.`
      : undefined;
  if (status === 429 && error instanceof AppError) reply.header('retry-after', '60');
  const shown = status >= 400 && status < 600 ? status : 500;
  return sendPage(reply, errorPage(pageContext(request, reply), status, detail), shown);
}
