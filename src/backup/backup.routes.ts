/** `GET /admin/backup`: a consistent copy of the embedded database, streamed (admin role only). */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  errors,
  documented,
  errorAnswers,
  errorCase,
  registerAdminGuard,
  type OperatorResolver,
} from '../http/index.ts';
import { auditOriginOf, type AuditService } from '../audit/index.ts';
import type { BackupService } from './backup.service.ts';
import { operation } from '../http/index.ts';
import { backupOperations as docs } from './backup.operations.ts';

export const backupRoutes =
  (deps: {
    backup: BackupService;
    audit: Pick<AuditService, 'record'>;
    adminToken: string;
    operators?: OperatorResolver;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    app.get(
      '/admin/backup',
      {
        schema: {
          tags: ['admin'],
          security: [{ adminToken: [] }],
          ...operation(docs, 'backupDatabase'),
          response: {
            200: documented(
              {
                description: 'The backup',
                content: { 'application/gzip': { schema: Type.String({ format: 'binary', maxLength: 2 ** 40 }) } },
              } as never,
              {
                description: 'The backup (gzip’d tar), with its size in Content-Length.',
                headers: ['X-Request-Id'],
              },
            ),
            ...errorAnswers({
              access: 'admin',
              cases: { 409: [errorCase('The service runs on PostgreSQL', errors.backupNotEmbedded())] },
              descriptions: docs.backupDatabase.errorDescriptions,
            }),
          },
        },
      },
      async (request, reply) => {
        const backup = await deps.backup.take();
        // A copy of every lead's personal data (sealed) leaves the service: who took it is recorded.
        await deps.audit.record(auditOriginOf(request), { action: 'backup', rows: backup.data.size });
        request.log.info({ bytes: backup.data.size }, 'backup taken');
        return (
          reply
            .type('application/gzip')
            .header('content-disposition', `attachment; filename="${backup.fileName}"`)
            .header('content-length', String(backup.data.size))
            .header('cache-control', 'no-store')
            // A stream bypasses the serializer; the typed reply only knows the schema's string.
            .send(Readable.fromWeb(backup.data.stream() as WebReadableStream) as unknown as string)
        );
      },
    );
  };
