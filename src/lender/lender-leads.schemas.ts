/** Schemas of the lender's lead routes: nothing outside them leaves the server. */
import { Type, type TSchema } from 'typebox';
import { LeadSchema, LeadEventsSchema } from '../leads/index.ts';
import { leadStatuses } from '../lead-status/index.ts';
import { DECISIONS } from '../prequalification/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { EXPORT_FORMATS } from './lead-export.ts';
import { dateFilter } from '../http/index.ts';
import { OperatorOutcomeSchema, OUTCOME_STATUSES } from '../outcomes/index.ts';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const dateTime = Type.String({ format: 'date-time' });
const leadId = '0b8f0d3e-8c39-4c59-9d0e-3a1f7f1d2b6a';
const companyId = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';

const filters = {
  companyId: Type.Optional(Type.String({ pattern: uuidPattern })),
  status: Type.Optional(Type.Enum(leadStatuses)),
  outcome: Type.Optional(
    Type.Enum(OUTCOME_STATUSES, { description: "Only leads whose lender's decision has this status" }),
  ),
  decision: Type.Optional(Type.Enum([...DECISIONS])),
  affiliate: Type.Optional(Type.String({ pattern: uuidPattern, description: "The affiliate's user_id" })),
  createdFrom: Type.Optional(dateFilter('ISO date or date-time, inclusive')),
  createdTo: Type.Optional(dateFilter('ISO date or date-time, exclusive')),
};

export const LenderLeadListQuery = Type.Object(
  {
    ...filters,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const LeadExportQuery = Type.Object(
  { ...filters, format: Type.Optional(Type.Enum([...EXPORT_FORMATS], { default: 'ndjson' })) },
  { additionalProperties: false },
);

export const LenderLeadSummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    companyId: Type.String({ format: 'uuid' }),
    status: Type.Enum(leadStatuses),
    createdAt: dateTime,
    updatedAt: dateTime,
    externalAutoId: nullable(Type.String()),
    affiliate: nullable(Type.Object({ user_id: nullable(Type.String()), user_type: nullable(Type.String()) })),
    decision: nullable(Type.String()),
    erasedAt: nullable(dateTime),
    outcomeStatus: nullable(Type.Enum(OUTCOME_STATUSES)),
  },
  { $id: 'LenderLeadSummary' },
);

export const LenderLeadList = Type.Object(
  {
    items: Type.Array(LenderLeadSummary),
    nextCursor: nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
  },
  {
    $id: 'LenderLeadList',
    examples: [
      {
        items: [
          {
            id: leadId,
            companyId,
            status: 'PREQUALIFIED',
            createdAt: '2026-01-15T12:00:00.000Z',
            updatedAt: '2026-01-15T12:20:00.000Z',
            externalAutoId: null,
            affiliate: null,
            decision: 'PREQUALIFIED',
            erasedAt: null,
            outcomeStatus: 'APPROVED',
          },
        ],
        nextCursor: null,
      },
    ],
  },
);

const Consent = Type.Object(
  {
    channel: Type.String(),
    destination: nullable(Type.String({ description: 'Masked' })),
    pinSentAt: dateTime,
    confirmedAt: dateTime,
    consumerKey: Type.String(),
    requestId: nullable(Type.String()),
    clientAddress: nullable(Type.String()),
    userAgent: nullable(Type.String()),
  },
  { description: 'The PIN confirmation that authorized the bureau query' },
);

const Bureau = Type.Object(
  {
    provider: Type.String(),
    queriedAt: dateTime,
    noRecord: Type.Boolean(),
    score: nullable(Type.Integer()),
    openAccounts: Type.Integer(),
    totalBalance: Type.Number(),
    pastDueBalance: Type.Number(),
    worstDelinquencyDays: Type.Integer(),
  },
  { description: 'A summary of the bureau report; null before the query and after erasure' },
);

const Explanation = Type.Object(
  {
    rulesVersion: Type.String(),
    rules: Type.Array(
      Type.Object({
        rule: Type.String(),
        outcome: Type.Union([Type.Literal('pass'), Type.Literal('fail'), Type.Literal('missing')]),
        inputs: nullable(
          Type.Record(Type.String(), Type.Unknown(), { description: 'Values the rule read; null after erasure' }),
        ),
        threshold: Type.Record(Type.String(), Type.Unknown()),
        reason: nullable(Type.Object({ code: Type.String(), message: Type.String() })),
      }),
    ),
  },
  { description: 'Why the rules decided what they decided' },
);

/** How long the lead's personal data is kept (docs/lender-api.md, "Erasure and retention"). */
export const Retention = Type.Object(
  {
    class: Type.Enum(['credit', 'lead'] as const, { description: 'credit: a FUNDED lead' }),
    retainedUntil: Type.String({
      format: 'date-time',
      description:
        "When the purge may erase it: a credit's funding plus CREDIT_RETENTION_YEARS, " +
        'else the last change plus PII_RETENTION_DAYS',
    }),
    legalHold: Type.Boolean(),
  },
  { $id: 'Retention' },
);

export const LegalHoldRequest = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 200 }) },
  { $id: 'LegalHoldRequest', additionalProperties: false, examples: [{ reason: 'Juicio mercantil 123/2026' }] },
);

export const LegalHold = Type.Object(
  {
    reason: Type.String(),
    since: Type.String({ format: 'date-time', description: 'When the first hold was set (a second one keeps it)' }),
    operatorId: Type.String(),
  },
  { $id: 'LegalHold' },
);

export const LenderLead = Type.Object(
  {
    ...LeadSchema.properties,
    outcome: nullable(OperatorOutcomeSchema),
    retention: Retention,
    companyId: Type.String({ format: 'uuid' }),
    consent: nullable(Consent),
    bureau: nullable(Bureau),
    explanation: nullable(Explanation),
    events: LeadEventsSchema.properties.items,
  },
  {
    $id: 'LenderLead',
    description: "The partner's view of the lead plus what the lender needs. Reading it is audited.",
  },
);

export const LenderLeadIdParams = Type.Object({ leadId: Type.String({ pattern: uuidPattern }) });

export const PurgeRequest = Type.Object(
  { dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Only list the leads that would be erased' })) },
  { $id: 'PurgeRequest', additionalProperties: false, examples: [{ dryRun: true }] },
);

export const PurgeResult = Type.Object(
  {
    dryRun: Type.Boolean(),
    cutoff: dateTime,
    retentionDays: Type.Integer(),
    count: Type.Integer({ description: 'The leads erased; in a dry run, every lead that would be' }),
    leadIds: Type.Array(Type.String({ format: 'uuid' }), {
      description: 'The leads erased; in a dry run, the oldest 10,000 that would be',
    }),
  },
  {
    $id: 'PurgeResult',
    examples: [{ dryRun: true, cutoff: '2025-07-19T12:00:00.000Z', retentionDays: 180, count: 1, leadIds: [leadId] }],
  },
);

const lead = LeadSchema.properties;

/** The person's access to their data (ARCO): every personal datum held for the lead, decrypted. */
export const PersonalDataExport = Type.Object(
  {
    leadId: Type.String({ format: 'uuid' }),
    erasedAt: nullable(Type.String({ format: 'date-time', description: 'When the personal data was erased' })),
    person: lead.person,
    contact: lead.contact,
    address: lead.address,
    financial: lead.financial,
    consent: nullable(
      Type.Object({
        channel: Type.String(),
        destination: nullable(Type.String({ description: 'The phone or e-mail the PIN was sent to, unmasked' })),
        pinSentAt: dateTime,
        confirmedAt: dateTime,
        clientAddress: nullable(Type.String()),
        userAgent: nullable(Type.String()),
      }),
    ),
    bureau: nullable(
      Type.Object({}, { additionalProperties: true, description: 'The credit bureau report as stored' }),
    ),
    documents: Type.Array(Type.Object({}, { additionalProperties: true }), {
      description: "The documents' metadata (documents for conditions)",
    }),
    conditions: OperatorOutcomeSchema.properties.conditions,
  },
  {
    $id: 'PersonalDataExport',
    description: 'Every personal datum held for the lead, decrypted. Reading it is audited.',
  },
);
