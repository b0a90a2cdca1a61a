/** Key rotation under /admin (docs/operations.md, "Rotating keys"): admin only. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, errorAnswers, errorCase, ok, registerAdminGuard, type OperatorResolver } from '../http/index.ts';
import { auditOriginOf, type AuditService } from '../audit/index.ts';
import type { KeysService } from './keys.service.ts';
import * as s from './keys.schemas.ts';
import { operation } from '../http/index.ts';
import { keysOperations as docs } from './keys.operations.ts';

const badLimit = errorCase('Invalid limit', errors.invalidInput([{ field: 'limit', errorDetail: 'must be <= 10000' }]));

export const keysRoutes =
  (deps: {
    keys: KeysService;
    audit: Pick<AuditService, 'record'>;
    adminToken: string;
    operators: OperatorResolver;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    const tags = ['admin'];
    const security = [{ adminToken: [] }];

    app.get(
      '/admin/keys',
      {
        schema: {
          tags,
          security,
          ...operation(docs, 'showKeys'),
          response: {
            200: ok('admin', s.KeyStatus, 'The configured keys and the stored values per key.'),
            ...errorAnswers({ access: 'admin', body: false, cases: {} }),
          },
        },
      },
      async () => deps.keys.status(),
    );

    app.post(
      '/admin/keys/reencrypt',
      {
        schema: {
          tags,
          security,
          ...operation(docs, 'reencryptValues'),
          body: s.ReencryptRequest,
          'x-body-optional': true,
          response: {
            200: ok('admin', s.ReencryptResult, 'How many values were re-encrypted, and how many are left.'),
            ...errorAnswers({ access: 'admin', body: true, cases: { 400: [badLimit] } }),
          },
        },
      },
      async (request) => {
        const result = await deps.keys.reencrypt(request.body?.limit ?? 1000);
        await deps.audit.record(auditOriginOf(request), { action: 'keys_reencrypt', rows: result.reencrypted });
        request.log.info(result, 'values re-encrypted with the current key');
        return result;
      },
    );
  };
