/** Ops 13 and 14: send a PIN to the lead's person, and confirm it. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponse } from '../http/error-response.ts';
import { requireAuth } from '../http/partner-guard.ts';
import { sendEmpty } from '../http/empty-reply.ts';
import { traceProviderCalls } from '../http/call-context-hook.ts';
import { LeadIdParams } from '../leads/leads.schemas.ts';
import type { VerificationService } from './verification.service.ts';
import { NipSendRequest, PinConfirmationPayload } from './verification.schemas.ts';

const tags = ['verification'];
const security = [{ bearerAuth: [] }];
const noContent = Type.Null({ description: 'Done. No content.' });
const fails = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 412: ErrorResponse, 429: ErrorResponse };

export const verificationRoutes =
  (deps: { verification: VerificationService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Both routes call providers: their log lines carry this request's ids.
    app.addHook('preHandler', traceProviderCalls);

    app.post('/leads/:leadId/pin', {
      config: { invalidInput: 'pin' },
      schema: {
        tags, security, operationId: 'sendPin', summary: 'Send or resend a PIN',
        description: 'Sends a new 6-digit PIN, valid 10 minutes, replacing any earlier one. No phone / e-mail on file: 400 / 4003. ' +
          'At most 5 sends per lead in 10 minutes (429 with Retry-After). A provider failure is 412 with a 6XXYYY code and changes nothing.',
        params: LeadIdParams, body: NipSendRequest, response: { 204: noContent, ...fails },
      },
    }, async (request, reply) => {
      const auth = requireAuth(request);
      await deps.verification.sendPin(auth, request.params.leadId, request.body.channel);
      return sendEmpty(reply, 204);
    });

    app.post('/leads/:leadId/pin/confirmation', {
      config: { invalidInput: 'pin' },
      schema: {
        tags, security, operationId: 'confirmPin', summary: 'Confirm the PIN',
        description: 'Confirms the PIN, obtains the credit bureau report and pre-qualifies the lead. Wrong, expired, void or no PIN: 400 / 4003 ' +
          'with `additionalData.reason`. Person and address are needed first. A bureau failure is 412 and the same confirmation can be retried.',
        params: LeadIdParams, body: PinConfirmationPayload, response: { 204: noContent, ...fails },
      },
    }, async (request, reply) => {
      const auth = requireAuth(request);
      const userAgent = request.headers['user-agent']?.slice(0, 512) ?? null;
      await deps.verification.confirmPin(auth, request.params.leadId, request.body, { requestId: request.id, clientAddress: request.ip, userAgent });
      return sendEmpty(reply, 204);
    });
  };
