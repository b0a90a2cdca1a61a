/** Records operators' access to personal data, and pages through those records. */
import type { FastifyRequest } from 'fastify';
import { errors, requireOperator } from '../http/index.ts';
import { type Clock, newId } from '../shared/index.ts';
import type { Queryable } from '../db/index.ts';
import type { AuditAction, AuditRepository } from './audit.repository.ts';

/** Who asked, and through which call. */
export interface AuditOrigin {
  operatorId: string;
  requestId: string | null;
  clientAddress: string | null;
}

/** The origin of an admin request: its operator (the admin guard's), its request id and client address. */
export const auditOriginOf = (request: FastifyRequest): AuditOrigin => ({
  operatorId: requireOperator(request).operatorId,
  requestId: request.id,
  clientAddress: request.ip,
});

const encodeCursor = (position: string) => Buffer.from(`a${position}`).toString('base64url');

function decodeCursor(cursor: string): bigint {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^a\d{1,18}$/.test(text))
    throw errors.invalidInput([{ field: 'cursor', errorDetail: 'is not a cursor of this list' }]);
  return BigInt(text.slice(1));
}

export function createAuditService(deps: { repository: AuditRepository; clock: Clock }) {
  return {
    async record(
      origin: AuditOrigin,
      what: { action: AuditAction; leadId?: string; filter?: Record<string, unknown>; rows?: number },
      tx?: Queryable,
    ): Promise<void> {
      await deps.repository.append(
        {
          id: newId(),
          at: deps.clock.now(),
          operatorId: origin.operatorId,
          action: what.action,
          leadId: what.leadId ?? null,
          filter: what.filter ?? null,
          rows: what.rows ?? null,
          requestId: origin.requestId,
          clientAddress: origin.clientAddress,
        },
        tx,
      );
    },

    async list(query: { limit?: number; cursor?: string }) {
      const limit = query.limit ?? 50;
      const rows = await deps.repository.page(limit + 1, query.cursor ? decodeCursor(query.cursor) : undefined);
      const page = rows.slice(0, limit);
      return {
        items: page.map(({ position: _position, at, ...entry }) => ({ ...entry, at: at.toISOString() })),
        nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1].position) : null,
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
