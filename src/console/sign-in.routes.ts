/**
 * Signing in and out (docs/console.md). A failed sign-in answers 401 with the form and one generic
 * message; too many attempts answer 429 before any password is checked. `next` may only name a
 * page of the console.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { policy } from '../http/index.ts';
import type { ConsoleSessions } from './console-sessions.ts';
import type { ConsoleSignIn } from './console-sign-in.ts';
import {
  cookieOptions,
  everyone,
  noticeOf,
  pageContext,
  requireViewer,
  seeOther,
  sendPage,
  sessionCookie,
} from './console-request.ts';
import { signInPage } from './sign-in.views.ts';

const SignInForm = Type.Object({
  _csrf: Type.String(),
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 1024 }),
  next: Type.Optional(Type.String({ maxLength: 2000 })),
});
const SignInQuery = Type.Object({
  next: Type.Optional(Type.String({ maxLength: 2000 })),
  notice: Type.Optional(Type.String({ maxLength: 50 })),
});

/** A console page to go back to after signing in: a relative `/console/…` path, nothing else. */
export function safeNext(next: string | undefined): string | undefined {
  if (!next || !/^\/console(?:[/?][\x21-\x7e]*)?$/.test(next)) return undefined;
  if (next.includes('//') || next.includes('\\') || /(^|\/)\.\.?(\/|$|\?)/.test(next.split('?')[0])) return undefined;
  if (next.startsWith('/console/sign-in')) return undefined;
  return next;
}

export const signInRoutes =
  (deps: { sessions: ConsoleSessions; signIn: ConsoleSignIn }): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Querystring: Static<typeof SignInQuery> }>(
      '/sign-in',
      { config: policy({ consolePublic: true }), schema: { hide: true, querystring: SignInQuery } },
      async (request, reply) => {
        if (await deps.sessions.resolve(request.cookies[sessionCookie])) {
          return reply.redirect(safeNext(request.query.next) ?? '/console/leads', 302);
        }
        const next = safeNext(request.query.next);
        return sendPage(reply, signInPage({ csrf: pageContext(request, reply).csrf, next, notice: noticeOf(request) }));
      },
    );

    app.post<{ Body: Static<typeof SignInForm> }>(
      '/sign-in',
      { config: policy({ consolePublic: true }), schema: { hide: true, body: SignInForm } },
      async (request, reply) => {
        const { email, password } = request.body;
        const next = safeNext(request.body.next);
        const result = await deps.signIn(email, password, request.ip);
        const again = (status: number, text: string) =>
          sendPage(
            reply,
            signInPage({ csrf: pageContext(request, reply).csrf, next, email, notice: { kind: 'error', text } }),
            status,
          );
        if (result.outcome === 'throttled') {
          reply.header('retry-after', String(result.retryAfterSeconds));
          return again(429, 'Demasiados intentos. Espera unos minutos antes de intentar de nuevo.');
        }
        if (result.outcome === 'refused') return again(401, 'Correo o contraseña incorrectos.');
        const token = await deps.sessions.start(result.operator.operatorId);
        const maxAge = Math.floor(deps.sessions.maxAgeMs / 1000);
        reply.setCookie(sessionCookie, token, { ...cookieOptions(request), maxAge });
        request.log.info({ operatorId: result.operator.operatorId }, 'console sign-in');
        return seeOther(reply, next ?? '/console/leads');
      },
    );

    app.post('/sign-out', { config: everyone, schema: { hide: true } }, async (request, reply) => {
      await deps.sessions.end(request.cookies[sessionCookie]);
      reply.clearCookie(sessionCookie, cookieOptions(request));
      return seeOther(reply, '/console/sign-in?notice=signed-out');
    });

    app.post('/sessions/end-all', { config: everyone, schema: { hide: true } }, async (request, reply) => {
      await deps.sessions.endAllOf(requireViewer(request).operatorId);
      reply.clearCookie(sessionCookie, cookieOptions(request));
      return seeOther(reply, '/console/sign-in?notice=signed-out-everywhere');
    });
  };
