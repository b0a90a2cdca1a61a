/**
 * The webhooks pages' own notices after a redirect (an endpoint disabled, enabled or deleted), chosen
 * by a key in the URL like the console's shared ones, which are read when the key is not one of these.
 */
import type { FastifyRequest } from 'fastify';
import type { Notice } from './layout.ts';
import { noticeOf } from './console-request.ts';

export const webhookNotices = {
  'endpoint-disabled': { kind: 'ok', text: 'Receptor desactivado: no recibe eventos hasta que lo actives.' },
  'endpoint-enabled': { kind: 'ok', text: 'Receptor activado: vuelve a recibir eventos.' },
  'endpoint-deleted': { kind: 'ok', text: 'Receptor borrado: ya no recibe eventos.' },
} as const satisfies Record<string, Notice>;

export type WebhookNoticeKey = keyof typeof webhookNotices;

export function webhookNoticeOf(request: FastifyRequest): Notice | undefined {
  const key = (request.query as { notice?: unknown } | undefined)?.notice;
  if (typeof key === 'string' && Object.hasOwn(webhookNotices, key)) return webhookNotices[key as WebhookNoticeKey];
  return noticeOf(request);
}
