/**
 * What every console handler needs from a request: who is signed in, the page context (CSRF token
 * for the forms), the audit origin, sending a page, and redirects after a POST (303).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditOrigin } from '../audit/index.ts';
import { type AppError, type FieldError, policy } from '../http/index.ts';
import type { Role } from '../shared/index.ts';
import type { Html } from './html.ts';
import type { Notice, PageContext } from './layout.ts';
import { fieldMessage } from './console-messages.ts';

export interface ConsoleViewer {
  operatorId: string;
  name: string;
  role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    consoleViewer: ConsoleViewer | undefined;
    /** False only on a loopback address of the sandbox (set by the console's first hook). */
    consoleSecureCookies: boolean;
  }
}

/** Route config of pages every signed-in operator may open (analysts too); others are admin-only. */
export const everyone = policy({ roles: ['analyst', 'officer'] });

export const sessionCookie = 'autofin_session';
export const cookiePath = '/console';

export function requireViewer(request: FastifyRequest): ConsoleViewer {
  if (!request.consoleViewer) throw new Error('console route reached without a session');
  return request.consoleViewer;
}

/** The CSRF token for this page's forms (its secret cookie is set the first time). */
export function pageContext(request: FastifyRequest, reply: FastifyReply): PageContext {
  const csrf = reply.generateCsrf({ ...cookieOptions(request), userInfo: csrfUserInfo(request) });
  return { csrf, viewer: request.consoleViewer };
}

/** What a CSRF token is bound to: the session cookie the request carries (none before sign-in). */
export function csrfUserInfo(request: FastifyRequest): string {
  return `session:${request.cookies[sessionCookie] ?? ''}`;
}

export function originOf(request: FastifyRequest): AuditOrigin {
  return { operatorId: requireViewer(request).operatorId, requestId: request.id, clientAddress: request.ip };
}

export function sendPage(reply: FastifyReply, page: Html, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page.text);
}

/** After a POST: 303 See Other, so the browser follows with a GET. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).send();
}

const loopbackHosts = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

export const isLoopbackHost = (hostname: string): boolean => loopbackHosts.has(hostname.toLowerCase());

/** Every console cookie: HttpOnly, SameSite=Strict, path /console, and Secure unless allowed off. */
export function cookieOptions(request: FastifyRequest) {
  return { path: cookiePath, httpOnly: true, sameSite: 'strict' as const, secure: request.consoleSecureCookies };
}

/** Fixed messages shown after a redirect, chosen by a key in the URL (never data). */
export const notices = {
  'signed-out': { kind: 'ok', text: 'Sesión cerrada.' },
  'signed-out-everywhere': { kind: 'ok', text: 'Se cerraron todas tus sesiones.' },
  'session-ended': { kind: 'error', text: 'Tu sesión terminó. Vuelve a iniciar sesión.' },
  'company-created': { kind: 'ok', text: 'Empresa creada.' },
  'credential-revoked': { kind: 'ok', text: 'Credencial revocada.' },
  'affiliate-added': { kind: 'ok', text: 'Afiliado agregado.' },
  'redelivery-queued': { kind: 'ok', text: 'Reenvío programado: la entrega se intentará de nuevo en unos segundos.' },
  'test-queued': { kind: 'ok', text: 'Evento de prueba programado.' },
  'catalog-imported': { kind: 'ok', text: 'Catálogo importado: ya está en vigor.' },
  'operator-deleted': { kind: 'ok', text: 'Operador borrado; sus sesiones terminaron.' },
  'document-accepted': { kind: 'ok', text: 'Documento aceptado.' },
  'document-rejected': { kind: 'ok', text: 'Documento rechazado.' },
  'document-reason-missing': {
    kind: 'error',
    text: 'No se rechazó el documento: elige el motivo del rechazo.',
  },
  'document-reason-not-taken': {
    kind: 'error',
    text: 'No se aceptó el documento: un documento aceptado no lleva motivo de rechazo.',
  },
  'document-already-reviewed': {
    kind: 'error',
    text: 'No se guardó la revisión: el documento ya fue revisado. Su estado es el que ves abajo.',
  },
} as const satisfies Record<string, Notice>;

export type NoticeKey = keyof typeof notices;

export function noticeOf(request: FastifyRequest): Notice | undefined {
  const key = (request.query as { notice?: unknown } | undefined)?.notice;
  return typeof key === 'string' && Object.hasOwn(notices, key) ? notices[key as NoticeKey] : undefined;
}

/** A refused form's fields, each in Spanish (console-messages.ts): no field name or English reaches the page. */
export function refusal(error: AppError): string {
  const fields = (error.additionalData as { errors?: FieldError[] } | null)?.errors;
  return fields?.length
    ? `No se pudo guardar: ${fields.map((f) => fieldMessage(f)).join(' ')}`
    : 'No se pudo guardar: revisa los datos.';
}
