/** The spec's ErrorResponse body and its one renderer. */
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from './app-error.ts';

export const ErrorResponse = Type.Object(
  {
    timestamp: Type.String({ format: 'date-time' }),
    message: Type.String(),
    code: Type.Integer({ format: 'int32' }),
    requestId: Type.String(),
    additionalData: Type.Union([
      Type.Null(),
      Type.Object(
        {
          errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), errorDetail: Type.String() }))),
          reason: Type.Optional(Type.String()),
        },
        { additionalProperties: true },
      ),
    ]),
  },
  {
    $id: 'ErrorResponse',
    description: 'Every error of every route. `additionalData.errors` lists each invalid field.',
    examples: [
      {
        timestamp: '2026-01-15T12:00:00.000Z',
        message: 'Lead not found',
        code: 4040,
        requestId: 'req-7f3a',
        additionalData: null,
      },
    ],
  },
);

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError, now: Date): FastifyReply {
  reply.header('x-request-id', request.id);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send({
    timestamp: now.toISOString(),
    message: error.message,
    code: error.code,
    requestId: request.id,
    additionalData: error.additionalData,
  });
}
