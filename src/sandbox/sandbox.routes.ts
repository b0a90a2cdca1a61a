/**
 * Routes that exist only in the sandbox environment (docs/sandbox.md): a lead's PIN messages for
 * its company, and the sandbox guide itself, so /docs can link to it on a hosted sandbox.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, errorAnswers, errorCase, ok } from '../http/index.ts';
import { requireAuth } from '../auth/index.ts';
import { LeadIdParams } from '../leads/index.ts';
import type { SandboxService } from './sandbox.service.ts';
import { SandboxMessageList } from './sandbox.schemas.ts';
import { projectFile } from '../shared/index.ts';

const tags = ['sandbox'];
const fails = errorAnswers({
  access: 'partner',
  cases: {
    400: [
      errorCase(
        'A lead id that is not a UUID',
        errors.invalidInput([{ field: 'leadId', errorDetail: 'must match pattern' }]),
      ),
    ],
    404: [errorCase("Unknown lead, or another company's", errors.leadNotFound())],
  },
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
          operationId: 'listSandboxMessages',
          summary: 'Read the PIN messages sent for a lead (sandbox only)',
          description:
            'Every SMS and e-mail a provider accepted for the lead, newest first, with the body as sent (PIN included) and the ' +
            'recipient masked. Sends to magic recipients fail before any provider and are not listed. Exists only when the environment ' +
            "is `sandbox` (elsewhere 404 / 4044); another company's or an unknown lead is 404 / 4040.",
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
