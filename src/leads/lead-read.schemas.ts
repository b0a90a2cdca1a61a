/** Response schemas of the lead read operations: nothing outside them can leave the server. */
import { Type, type TSchema } from 'typebox';
import { leadStatuses } from '../lead-status/index.ts';
import { businessLines, employmentTypes, jobTitles, purchaseIntentions } from './leads.schemas.ts';
import { RFC_CHECK_DIGIT_MISMATCH } from './rfc.ts';
// Reason codes live with the decision; pre-qualification imports nothing of leads.
import { DECISIONS, MISSING_DATA, REASON_CODES } from '../prequalification/index.ts';
import { dateFilter } from '../http/index.ts';
import { OUTCOME_STATUSES, PartnerOutcomeSchema } from '../outcomes/index.ts';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const idName = Type.Object({ id: Type.String(), name: Type.String() });
const status = Type.Enum(leadStatuses);
const decision = Type.Enum(DECISIONS);
/** What a lead's history records, in the order a lead usually meets them. */
export const leadEventTypes = [
  'LEAD_CREATED',
  'LOAN_INFO_SAVED',
  'CONTACT_INFO_SAVED',
  'CONTACT_UPDATED',
  'ADDRESS_SAVED',
  'VEHICLE_SAVED',
  'FINANCIAL_SAVED',
  'PERSON_SAVED',
  'PIN_SENT',
  'PIN_CONFIRMED',
  'BUREAU_REPORT_RECEIVED',
  'PREQUALIFICATION_EVALUATED',
  'PERSONAL_DATA_ERASED',
  'OUTCOME_CHANGED',
] as const;
const warningCodes = ['NEIGHBORHOOD_NOT_IN_ZIP_CODE', RFC_CHECK_DIGIT_MISMATCH] as const;
const affiliate = nullable(Type.Object({ user_id: nullable(Type.String()), user_type: nullable(Type.String()) }));

export const LeadCreated = Type.Object(
  { id: Type.String({ format: 'uuid' }) },
  { $id: 'LeadCreated', examples: [{ id: '0b8f0d3e-8c39-4c59-9d0e-3a1f7f1d2b6a' }] },
);

export const Prequalification = Type.Object(
  {
    decision,
    reasons: Type.Array(Type.Object({ code: Type.Enum([...REASON_CODES, MISSING_DATA]), message: Type.String() })),
    offer: nullable(
      Type.Object({
        amountFinanced: Type.Number(),
        term: Type.Integer(),
        annualRate: Type.Number({ description: 'Percent' }),
        monthlyPayment: Type.Number({ description: 'With IVA on interest' }),
        cat: Type.Number({ description: 'Costo Anual Total, percent, without IVA' }),
        catDisclosure: Type.String({
          description:
            'The text to show beside the offer (Banxico): "CAT promedio {cat}% sin IVA. Para fines informativos y ' +
            'de comparación. Fecha de cálculo: {d} de {month} de {yyyy}.", the date of the evaluation in Mexico City',
        }),
      }),
    ),
    evaluatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Prequalification' },
);

export const Lead = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    externalAutoId: nullable(Type.String()),
    affiliate,
    loanInfo: nullable(
      Type.Object({
        downPayment: Type.Optional(Type.Number()),
        term: Type.Optional(Type.Integer()),
        purchaseIntention: Type.Optional(Type.Enum(purchaseIntentions)),
      }),
    ),
    contact: nullable(Type.Object({ phone: nullable(Type.String()), email: nullable(Type.String()) })),
    address: nullable(
      Type.Object({
        street: Type.String(),
        number: Type.String(),
        interior: nullable(Type.String()),
        zipCode: Type.String(),
        neighborhood: Type.String(),
        neighborhoodMatched: Type.Boolean(),
        municipality: Type.String(),
        city: Type.String(),
        state: idName,
      }),
    ),
    vehicle: nullable(
      Type.Object({
        id: Type.Integer(),
        price: nullable(Type.Number()),
        year: Type.Integer(),
        brand: idName,
        model: idName,
        version: Type.String(),
      }),
    ),
    financial: nullable(
      Type.Object({
        employmentType: Type.Optional(Type.Enum(employmentTypes)),
        startEmploymentDate: Type.Optional(Type.String()),
        startDate: Type.Optional(Type.Object({ year: Type.Integer(), month: Type.Integer() })),
        jobPosition: Type.Optional(Type.String()),
        jobTitle: Type.Optional(Type.Enum(jobTitles)),
        businessLine: Type.Optional(Type.Enum(businessLines)),
        employmentCompany: Type.Optional(Type.String()),
        income: Type.Optional(Type.Number()),
      }),
    ),
    person: nullable(
      Type.Object({
        firstName: Type.String(),
        secondName: Type.String(),
        lastName: Type.String(),
        secondLastName: Type.String(),
        rfc: Type.String(),
        birthDate: Type.String(),
      }),
    ),
    warnings: Type.Array(Type.Object({ code: Type.Enum(warningCodes), message: Type.String(), field: Type.String() })),
    verification: nullable(
      Type.Object({
        channel: Type.Enum(['SMS', 'EMAIL'] as const),
        pinSentAt: Type.String({ format: 'date-time' }),
        verifiedAt: nullable(Type.String({ format: 'date-time' })),
      }),
    ),
    prequalification: nullable(Prequalification),
    erasedAt: nullable(
      Type.String({
        format: 'date-time',
        description:
          'When the lender erased the personal data (contact, address, financial, person are null from then on)',
      }),
    ),
    outcome: nullable(PartnerOutcomeSchema),
  },
  { $id: 'Lead', description: 'A section never saved is null. The PIN and the bureau report are never returned.' },
);

export const LeadSummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    externalAutoId: nullable(Type.String()),
    affiliate,
    decision: nullable(decision),
    outcomeStatus: nullable(
      Type.Enum(OUTCOME_STATUSES, { description: "The status of the lender's decision, null until there is one" }),
    ),
  },
  { $id: 'LeadSummary' },
);

export const LeadList = Type.Object(
  {
    items: Type.Array(LeadSummary),
    nextCursor: nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
  },
  { $id: 'LeadList' },
);

export const LeadEvents = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        type: Type.Enum(leadEventTypes),
        at: Type.String({ format: 'date-time' }),
        actor: Type.String({
          description: 'Consumer key that made the change; `lender` for the lender’s decision (OUTCOME_CHANGED)',
        }),
        fields: Type.Array(Type.String()),
      }),
    ),
  },
  {
    $id: 'LeadEvents',
    examples: [
      {
        items: [
          {
            id: '5d1c9a7e-2f4b-4b8e-9c61-0e2a7b3d4f10',
            type: 'ADDRESS_SAVED',
            at: '2026-01-15T12:00:00.000Z',
            actor: 'ck_Xq3v9LmT2pR8sW1yZ4bN6cD0',
            fields: ['street', 'number', 'zipCode', 'neighborhood'],
          },
        ],
      },
    ],
  },
);

export const LeadListQuery = Type.Object(
  {
    status: Type.Optional(status),
    outcome: Type.Optional(
      Type.Enum(OUTCOME_STATUSES, { description: "Only leads whose lender's decision has this status" }),
    ),
    createdFrom: Type.Optional(dateFilter('ISO date or date-time, inclusive')),
    createdTo: Type.Optional(dateFilter('ISO date or date-time, exclusive')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
