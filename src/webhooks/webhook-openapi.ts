/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type with its body and the Standard
 * Webhooks headers a receiver gets (docs/webhooks.md).
 */
import { Type, type TSchema } from 'typebox';
import { leadStatuses } from '../lead-status/index.ts';
import { leadEventTypes } from './outbox.ts';

const describe: Record<string, string> = {
  'lead.created': 'A lead was created (op 5).',
  'lead.card_created': 'Contact info was saved (op 7): the lead became a card in the partner’s pipeline.',
  'lead.updated': 'A section was saved; `sections` names each section and the fields sent.',
  'lead.pin_sent': 'A PIN was handed to the SMS or e-mail provider.',
  'lead.verified': 'The PIN was confirmed.',
  'lead.prequalification_decided':
    'Pre-qualification was evaluated, after verification and again on every re-evaluation.',
  'lead.outcome_changed':
    "The lender's decision on the lead changed (in review, conditioned, approved, " +
    'declined, funded, withdrawn); `outcome` is what GET /leads/{leadId} shows of it.',
  'lead.document_received':
    'A document was uploaded against a condition; `document` is its metadata (no file name, no digest) and ' +
    '`condition` the condition’s new status.',
  'lead.document_reviewed':
    'The lender accepted or rejected a document; `document` and `condition` as in `lead.document_received`.',
  'webhook.test': 'Sent by POST /webhooks/{endpointId}/test.',
};

const companyId = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
const leadId = '0b8f0d3e-8c39-4c59-9d0e-3a1f7f1d2b6a';

function bodyOf(type: string, payloads: EventPayloadSchemas) {
  const data: Record<string, ReturnType<typeof Type.String> | object> = {
    companyId: Type.String({ format: 'uuid' }),
  };
  const example: Record<string, unknown> = { companyId };
  if (type === 'webhook.test') {
    data.endpointId = Type.String({ format: 'uuid' });
    example.endpointId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  } else {
    Object.assign(data, {
      leadId: Type.String({ format: 'uuid' }),
      externalAutoId: Type.Union([Type.String(), Type.Null()]),
      status: Type.Enum(leadStatuses, { description: 'The lead’s status after the change' }),
    });
    Object.assign(example, { leadId, externalAutoId: 'AUTO-1842', status: 'IN_PROGRESS' });
  }
  if (type === 'lead.updated') {
    data.sections = Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'Section name → names of the fields sent',
    });
    example.sections = { loanInfo: ['downPayment', 'term'] };
  }
  if (type === 'lead.prequalification_decided') {
    data.decision = Type.Union([
      Type.Literal('PREQUALIFIED'),
      Type.Literal('NOT_PREQUALIFIED'),
      Type.Literal('INCOMPLETE'),
    ]);
    data.reasons = Type.Array(Type.String(), { description: 'Reason codes (docs/prequalification.md)' });
    Object.assign(example, {
      status: 'NOT_PREQUALIFIED',
      decision: 'NOT_PREQUALIFIED',
      reasons: ['PAYMENT_TO_INCOME_TOO_HIGH'],
    });
  }
  if (type === 'lead.outcome_changed') {
    data.outcome = payloads.partnerOutcome;
    Object.assign(example, {
      status: 'PREQUALIFIED',
      outcome: {
        status: 'CONDITIONED',
        at: '2026-01-15T12:00:00.000Z',
        reasonCode: null,
        conditions: [
          {
            id: 'cond_4f1c2a9e7b3d5e6f8a0b',
            code: 'PROOF_OF_INCOME',
            description: 'Últimos 3 recibos de nómina',
            status: 'PENDING',
          },
        ],
        amountApproved: null,
        amountFunded: null,
      },
    });
  }
  if (type === 'lead.document_received' || type === 'lead.document_reviewed') {
    const reviewed = type === 'lead.document_reviewed';
    data.document = payloads.document;
    data.condition = Type.Object({
      id: Type.String(),
      status: Type.Union(['RECEIVED', 'ACCEPTED', 'REJECTED'].map((s) => Type.Literal(s))),
    });
    Object.assign(example, {
      status: 'PREQUALIFIED',
      document: {
        id: '3d6f0a57-8b0e-4c5f-9a41-1f2e3d4c5b6a',
        conditionId: 'cond_4f1c2a9e7b3d5e6f8a0b',
        type: 'PROOF_OF_INCOME',
        contentType: 'application/pdf',
        size: 183422,
        status: reviewed ? 'REJECTED' : 'RECEIVED',
        rejectionReason: reviewed ? 'ILLEGIBLE' : null,
        uploadedAt: '2026-01-16T10:30:00.000Z',
        reviewedAt: reviewed ? '2026-01-16T11:05:00.000Z' : null,
      },
      condition: { id: 'cond_4f1c2a9e7b3d5e6f8a0b', status: reviewed ? 'REJECTED' : 'RECEIVED' },
    });
  }
  return Type.Object(
    {
      type: Type.Literal(type),
      timestamp: Type.String({ format: 'date-time', description: 'When the change happened' }),
      data: Type.Object(data),
    },
    { examples: [{ type, timestamp: '2026-01-15T12:00:00.000Z', data: example }] },
  );
}

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

/**
 * The schemas of what an event carries that other modules define: the partner's view of the lender's
 * decision (the outcomes module's, which writes its events through this module's outbox), and a document.
 */
export interface EventPayloadSchemas {
  partnerOutcome: TSchema;
  /** The documents module's: a document's metadata without its file name and digest. */
  document: TSchema;
}

export function webhookDocumentation(payloads: EventPayloadSchemas): Record<string, unknown> {
  const entries = [...leadEventTypes, 'webhook.test'].map((type) => [
    type,
    {
      post: {
        operationId: `on${type.replace(/(^|[._])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
        summary: type,
        // The receiver checks the Standard Webhooks signature, not a credential of this API.
        security: [],
        description: `${describe[type]} No personal data: read the lead with GET /leads/{leadId}.`,
        tags: ['webhooks'],
        parameters: [
          header(
            'webhook-id',
            'The event id, the same on every retry (deduplicate on it)',
            '7f6c2a1e-9d3b-4c8e-a5f0-2b1d3e4c5a6b',
          ),
          header('webhook-timestamp', 'Unix seconds of this attempt', '1768478400'),
          header(
            'webhook-signature',
            'Space-separated `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, two during 24 h after a rotation',
            'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
          ),
        ],
        requestBody: { required: true, content: { 'application/json': { schema: bodyOf(type, payloads) } } },
        responses: {
          '200': { description: 'Any 2xx: delivered' },
          '410': { description: 'Gone: the endpoint is disabled' },
          default: { description: 'Anything else, or no answer within WEBHOOK_TIMEOUT_MS: retried on the schedule' },
        },
      },
    },
  ]);
  return Object.fromEntries(entries);
}
