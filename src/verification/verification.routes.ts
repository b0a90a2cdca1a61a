/** Send PIN and confirm PIN: a PIN to the lead's person, and its confirmation. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { empty, errorAnswers, policy, sendEmpty, traceProviderCalls, operation } from '../http/index.ts';
import { requireAuth } from '../auth/index.ts';
import { LeadIdParams } from '../leads/index.ts';
import type { VerificationService } from './verification.service.ts';
import { NipSendRequest, PinConfirmationPayload } from './verification.schemas.ts';
import { verificationOperations as docs } from './verification.operations.ts';

const tags = ['verification'];
const security = [{ bearerAuth: [] }];
const noContent = empty('partner', 'Done. No content.');
/** The error answers of PIN operation `id`, from its entry in the table. */
const fails = (id: keyof typeof docs) =>
  errorAnswers({ access: 'partner', body: true, cases: docs[id].errorCases, descriptions: docs[id].errorDescriptions });

export const verificationRoutes =
  (deps: { verification: VerificationService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Both routes call providers: their log lines carry this request's ids.
    app.addHook('preHandler', traceProviderCalls);

    app.post(
      '/leads/:leadId/pin',
      {
        config: policy({ invalidInput: 'pin' }),
        schema: {
          tags,
          security,
          ...operation(docs, 'sendPin'),
          params: LeadIdParams,
          body: NipSendRequest,
          response: { 204: noContent, ...fails('sendPin') },
        },
      },
      async (request, reply) => {
        const auth = requireAuth(request);
        await deps.verification.sendPin(auth, request.params.leadId, request.body.channel);
        return sendEmpty(reply, 204);
      },
    );

    app.post(
      '/leads/:leadId/pin/confirmation',
      {
        config: policy({ invalidInput: 'pin' }),
        schema: {
          tags,
          security,
          ...operation(docs, 'confirmPin'),
          params: LeadIdParams,
          body: PinConfirmationPayload,
          response: { 204: noContent, ...fails('confirmPin') },
        },
      },
      async (request, reply) => {
        const auth = requireAuth(request);
        const userAgent = request.headers['user-agent']?.slice(0, 512) ?? null;
        await deps.verification.confirmPin(auth, request.params.leadId, request.body, {
          requestId: request.id,
          clientAddress: request.ip,
          userAgent,
        });
        return sendEmpty(reply, 204);
      },
    );
  };
