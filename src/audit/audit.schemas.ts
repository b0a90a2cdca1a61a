import { Type } from 'typebox';
import { AUDIT_ACTIONS } from './audit.repository.ts';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const AuditRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    at: Type.String({ format: 'date-time' }),
    operatorId: Type.String({
      description: 'The operator\'s id, or "admin-token" for the ADMIN_TOKEN, or "retention" for the retention purge',
    }),
    action: Type.Enum([...AUDIT_ACTIONS]),
    leadId: nullable(Type.String({ format: 'uuid' })),
    filter: nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'The filter of an export' })),
    rows: nullable(Type.Integer({ description: 'Rows of an export' })),
    requestId: nullable(Type.String()),
    clientAddress: nullable(Type.String()),
  },
  { $id: 'AuditRecord' },
);

export const AuditList = Type.Object(
  {
    items: Type.Array(AuditRecord),
    nextCursor: nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
  },
  {
    $id: 'AuditList',
    examples: [
      {
        items: [
          {
            id: '1c9e7a52-6b3d-4f1e-9a20-7d5c3b1a0e4f',
            at: '2026-01-15T12:00:00.000Z',
            operatorId: '9b2f4c1e-3d5a-4e6f-8a7b-1c2d3e4f5a6b',
            action: 'lead.read',
            leadId: '0b8f0d3e-8c39-4c59-9d0e-3a1f7f1d2b6a',
            filter: null,
            rows: null,
            requestId: 'req-1',
            clientAddress: '10.0.0.7',
          },
        ],
        nextCursor: null,
      },
    ],
  },
);

export const AuditQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
