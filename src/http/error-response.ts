/** The spec's ErrorResponse body and its one renderer. */
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from './app-error.ts';

export const ErrorResponse = Type.Object(
  {
    timestamp: Type.String({ format: 'date-time' }),
    message: Type.String(),
    code: Type.Integer({
      format: 'int32',
      description:
        'The error, one of: 400, 4003, 40015 (400); 4010 (401); 4030 (403); 4040, 4041, 4042, 4043, 4044, 4045, ' +
        '4046, 4047, 4048, 4049 (404); 4050 (405); 4080 (408); 4090, 4091, 4092, 4093, 4094, 4095, 4097 (409); ' +
        '4100 (410); 6XXYYY, a third-party failure (412); 4130 (413); 4140 (414); 4150 (415); 4290 (429); ' +
        '4310 (431); 5000 (500); 5030 (503). ' +
        'docs/api.md, "Errors", says when each is answered.',
    }),
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
