/**
 * Routes that exist only in the sandbox environment (docs/sandbox.md): a lead's PIN messages for
 * its company, and the sandbox guide itself, so /docs can link to it on a hosted sandbox.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorAnswers, ok, operation } from '../http/index.ts';
import { requireAuth } from '../auth/index.ts';
import { LeadIdParams } from '../leads/index.ts';
import type { SandboxService } from './sandbox.service.ts';
import { SandboxMessageList } from './sandbox.schemas.ts';
import { projectFile } from '../shared/index.ts';
import { sandboxOperations as docs } from './sandbox.operations.ts';

const tags = ['sandbox'];
const fails = errorAnswers({
  access: 'partner',
  cases: docs.listSandboxMessages.errorCases,
});
const security = [{ bearerAuth: [] }];

/** Partner routes, registered inside the partner scope. */
export const sandboxRoutes =
  (deps: { sandbox: SandboxService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/sandbox/leads/:leadId/messages',
      {
        schema: {
          tags,
          security,
          ...operation(docs, 'listSandboxMessages'),
          params: LeadIdParams,
          response: { 200: ok('partner', SandboxMessageList, "The lead's PIN messages, newest first."), ...fails },
        },
      },
      async (request, reply) => {
        const messages = await deps.sandbox.listMessages(requireAuth(request).companyId, request.params.leadId);
        // The bodies carry PINs: no cache on the way may keep them.
        return reply.header('cache-control', 'no-store').send(messages);
      },
    );
  };

export const sandboxGuidePath = '/docs/sandbox.md';
const guideFile = projectFile('docs/sandbox.md');

/** The guide, public like /docs: magic values, bureau profiles and test people. */
export const sandboxGuideRoute = (): FastifyPluginAsyncTypebox => async (app) => {
  const guide = await readFile(guideFile, 'utf8');
  app.get(sandboxGuidePath, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/markdown; charset=utf-8').send(guide),
  );
};
