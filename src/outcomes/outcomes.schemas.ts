/** Schemas of the outcome routes and of the outcome in the partner's and the lender's views. */
import { Type, type TSchema } from 'typebox';
import { uuidPattern } from '../shared/index.ts';
import { CONDITION_CODES, OUTCOME_REASON_CODES, OUTCOME_STATUSES } from './outcome-status.ts';
import { CONDITION_STATUSES } from './conditions.ts';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const dateTime = Type.String({ format: 'date-time' });
const amount = (description: string) =>
  Type.Number({ exclusiveMinimum: 0, maximum: 100_000_000, description: `${description}, MXN, at most 2 decimals` });
const status = Type.Enum(OUTCOME_STATUSES);
const reasonCode = Type.Enum(OUTCOME_REASON_CODES);
const Condition = Type.Object(
  { code: Type.Enum(CONDITION_CODES), description: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const OutcomeRequest = Type.Object(
  {
    status,
    reasonCode: Type.Optional(reasonCode),
    conditions: Type.Optional(Type.Array(Condition, { minItems: 1, maxItems: 10, description: 'CONDITIONED only' })),
    amountApproved: Type.Optional(amount('APPROVED only: the amount approved')),
    amountFunded: Type.Optional(amount('FUNDED only: the amount funded, at most the approved amount')),
    note: Type.Optional(
      Type.String({
        maxLength: 1000,
        description: "Internal: never shown to the partner; erased with the lead's personal data",
      }),
    ),
  },
  {
    $id: 'OutcomeRequest',
    additionalProperties: false,
    examples: [
      { status: 'CONDITIONED', conditions: [{ code: 'PROOF_OF_INCOME', description: 'Últimos 3 recibos de nómina' }] },
    ],
  },
);

/** A condition as the views show it: its stable id and whether a document answers it yet. */
const ConditionView = Type.Object(
  {
    id: Type.String({ description: 'Stable: kept while a later CONDITIONED decision repeats the condition' }),
    code: Type.Enum(CONDITION_CODES),
    description: Type.String(),
    status: Type.Enum(CONDITION_STATUSES, {
      description: 'PENDING until a document is uploaded for it; then RECEIVED, ACCEPTED or REJECTED',
    }),
  },
  { additionalProperties: false },
);

const shared = {
  status,
  at: dateTime,
  reasonCode: nullable(reasonCode),
  conditions: nullable(Type.Array(ConditionView)),
  amountApproved: nullable(Type.Number()),
  amountFunded: nullable(Type.Number()),
};
const example = {
  status: 'APPROVED',
  at: '2026-01-16T10:00:00.000Z',
  reasonCode: null,
  conditions: null,
  amountApproved: 250000,
  amountFunded: null,
};

/** What the partner sees of the lender's decision: no note, no operator. */
export const PartnerOutcome = Type.Object(shared, {
  $id: 'LeadOutcome',
  description: "The lender's decision after pre-qualification; null until there is one",
  examples: [example],
});

export const OperatorOutcome = Type.Object(
  {
    ...shared,
    operatorId: Type.String({ description: 'The operator who set it ("admin-token" for ADMIN_TOKEN)' }),
    note: nullable(Type.String({ description: 'Internal; null once erased' })),
    history: Type.Array(
      Type.Object({
        status,
        at: dateTime,
        operatorId: Type.String(),
        reasonCode: nullable(reasonCode),
      }),
      {
        description: 'Every change, oldest first; the current one last',
      },
    ),
  },
  {
    $id: 'OperatorOutcome',
    examples: [
      {
        ...example,
        operatorId: '3b0f1c9e-2d4a-4e8f-9a1b-7c6d5e4f3a2b',
        note: 'Verificado por teléfono',
        history: [
          {
            status: 'IN_REVIEW',
            at: '2026-01-15T18:00:00.000Z',
            operatorId: '3b0f1c9e-2d4a-4e8f-9a1b-7c6d5e4f3a2b',
            reasonCode: null,
          },
          {
            status: 'APPROVED',
            at: '2026-01-16T10:00:00.000Z',
            operatorId: '3b0f1c9e-2d4a-4e8f-9a1b-7c6d5e4f3a2b',
            reasonCode: null,
          },
        ],
      },
    ],
  },
);

export const OutcomeLeadParams = Type.Object({ leadId: Type.String({ pattern: uuidPattern }) });

export const FunnelQuery = Type.Object(
  {
    createdFrom: Type.Optional(Type.String({ maxLength: 40, description: 'ISO date or date-time, inclusive' })),
    createdTo: Type.Optional(Type.String({ maxLength: 40, description: 'ISO date or date-time, exclusive' })),
    companyId: Type.Optional(Type.String({ pattern: uuidPattern })),
  },
  { additionalProperties: false },
);

const counts = {
  created: Type.Integer({ description: 'Leads created in the window' }),
  verified: Type.Integer({ description: 'Of those, leads that reached VERIFIED or later' }),
  prequalified: Type.Integer({ description: 'Leads whose decision is PREQUALIFIED' }),
  approved: Type.Integer({ description: 'Leads whose outcome is or was APPROVED' }),
  funded: Type.Integer({ description: 'Leads whose outcome is FUNDED' }),
  fundedAmount: Type.Number({ description: 'Sum of the funded amounts, MXN, 2 decimals' }),
};

export const FunnelReport = Type.Object(
  {
    items: Type.Array(
      Type.Object({ companyId: Type.String({ format: 'uuid' }), companyName: Type.String(), ...counts }),
    ),
    totals: Type.Object(counts),
  },
  {
    $id: 'FunnelReport',
    examples: [
      {
        items: [
          {
            companyId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
            companyName: 'Autos del Valle',
            created: 120,
            verified: 80,
            prequalified: 60,
            approved: 30,
            funded: 20,
            fundedAmount: 4850000.5,
          },
        ],
        totals: { created: 120, verified: 80, prequalified: 60, approved: 30, funded: 20, fundedAmount: 4850000.5 },
      },
    ],
  },
);
