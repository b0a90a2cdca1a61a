/** Send PIN and confirm PIN: a PIN to the lead's person, and its confirmation. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  errors,
  empty,
  errorAnswers,
  errorCase,
  type ErrorCase,
  policy,
  sendEmpty,
  traceProviderCalls,
  operation,
} from '../http/index.ts';
import { requireAuth } from '../auth/index.ts';
import { LeadIdParams } from '../leads/index.ts';
import type { VerificationService } from './verification.service.ts';
import { NipSendRequest, PinConfirmationPayload } from './verification.schemas.ts';
import { verificationOperations as docs } from './verification.operations.ts';

const tags = ['verification'];
const security = [{ bearerAuth: [] }];
const noContent = empty('partner', 'Done. No content.');
const rejected = (summary: string, reason: string, fields: { field: string; errorDetail: string }[] = []) =>
  errorCase(summary, errors.pinRejected(reason, fields));
const common = (bad: ErrorCase[], providerFailures: ErrorCase[], more: { 429?: ErrorCase[] } = {}) =>
  errorAnswers({
    access: 'partner',
    body: true,
    cases: {
      400: [rejected('Invalid request', 'INVALID_REQUEST', [{ field: 'channel', errorDetail: 'is required' }]), ...bad],
      404: [errorCase('No such lead, or another company’s', errors.leadNotFound())],
      409: [errorCase('The lead is already verified', errors.leadVerified())],
      412: providerFailures,
      ...more,
    },
    descriptions: { 400: 'Refused: `additionalData.reason` says why (and `errors` lists invalid fields).' },
  });
const sendFails = common(
  [
    rejected('No phone on file for an SMS', 'NO_PHONE_ON_FILE'),
    rejected('No e-mail on file for an EMAIL', 'NO_EMAIL_ON_FILE'),
  ],
  [
    errorCase('The SMS provider timed out', errors.providerFailed('sms', 'timeout')),
    errorCase('The e-mail provider refused the message', errors.providerFailed('email', 'rejected')),
  ],
  {
    429: [
      errorCase(
        'Five PINs were sent to this lead in the last 10 minutes',
        errors.tooManyRequests('PIN_SEND_LIMIT', 240),
      ),
    ],
  },
);
const confirmFails = common(
  [
    rejected('Wrong PIN', 'PIN_MISMATCH'),
    rejected('The PIN expired', 'PIN_EXPIRED'),
    rejected('Five wrong tries made the PIN void', 'PIN_VOID'),
    rejected('No PIN was sent', 'NO_PIN_PENDING'),
    rejected('pinConfirmation differs from pin', 'PIN_CONFIRMATION_MISMATCH', [
      { field: 'pinConfirmation', errorDetail: 'must equal pin' },
    ]),
    rejected('The person or the address is missing', 'PERSON_AND_ADDRESS_REQUIRED'),
  ],
  [
    errorCase(
      'The credit bureau timed out (the same confirmation can be retried)',
      errors.providerFailed('bureau', 'timeout'),
    ),
    errorCase(
      'The credit bureau failed (the same confirmation can be retried)',
      errors.providerFailed('bureau', 'error'),
    ),
  ],
);

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
          response: { 204: noContent, ...sendFails },
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
          response: { 204: noContent, ...confirmFails },
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
