/**
 * The lender's decision on a lead, after the service's automatic pre-qualification, and every move
 * between its statuses (docs/lender-api.md, "Outcomes"). Pure: no database, no clock.
 */
export const OUTCOME_STATUSES = ['IN_REVIEW', 'CONDITIONED', 'APPROVED', 'DECLINED', 'FUNDED', 'WITHDRAWN'] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/** What a conditioned approval asks for ("stipulations"). */
export const CONDITION_CODES = [
  'PROOF_OF_INCOME',
  'PROOF_OF_ADDRESS',
  'OFFICIAL_ID',
  'LARGER_DOWN_PAYMENT',
  'CO_SIGNER',
  'OTHER',
] as const;
export type ConditionCode = (typeof CONDITION_CODES)[number];

/** Why a lead was declined or withdrawn. */
export const OUTCOME_REASON_CODES = [
  'CREDIT_POLICY',
  'INCOME_NOT_VERIFIED',
  'IDENTITY_NOT_VERIFIED',
  'FRAUD_SUSPECTED',
  'CUSTOMER_DECLINED',
  'NO_CONTACT',
  'DUPLICATE',
  'OTHER',
] as const;
export type OutcomeReasonCode = (typeof OUTCOME_REASON_CODES)[number];

const next: Record<OutcomeStatus | 'NONE', readonly OutcomeStatus[]> = {
  // A first outcome may be anything but FUNDED: funding follows an approval.
  NONE: ['IN_REVIEW', 'CONDITIONED', 'APPROVED', 'DECLINED', 'WITHDRAWN'],
  IN_REVIEW: ['CONDITIONED', 'APPROVED', 'DECLINED', 'WITHDRAWN'],
  // CONDITIONED → CONDITIONED replaces the conditions.
  CONDITIONED: ['IN_REVIEW', 'CONDITIONED', 'APPROVED', 'DECLINED', 'WITHDRAWN'],
  APPROVED: ['FUNDED', 'DECLINED', 'WITHDRAWN'],
  FUNDED: [],
  DECLINED: [],
  WITHDRAWN: [],
};

/** Whether a lead whose outcome is `from` (null: none yet) may be given `to`. */
export const outcomeMayMove = (from: OutcomeStatus | null, to: OutcomeStatus): boolean =>
  next[from ?? 'NONE'].includes(to);

/** Statuses after which nothing changes any more. */
export const isFinalOutcome = (status: OutcomeStatus): boolean => next[status].length === 0;

/** The console's labels (es-MX). */
export const outcomeStatusLabels: Record<OutcomeStatus, string> = {
  IN_REVIEW: 'En revisión',
  CONDITIONED: 'Condicionada',
  APPROVED: 'Aprobada',
  DECLINED: 'Rechazada',
  FUNDED: 'Fondeada',
  WITHDRAWN: 'Retirada',
};

export const conditionLabels: Record<ConditionCode, string> = {
  PROOF_OF_INCOME: 'Comprobante de ingresos',
  PROOF_OF_ADDRESS: 'Comprobante de domicilio',
  OFFICIAL_ID: 'Identificación oficial',
  LARGER_DOWN_PAYMENT: 'Enganche mayor',
  CO_SIGNER: 'Aval',
  OTHER: 'Otra',
};

export const outcomeReasonLabels: Record<OutcomeReasonCode, string> = {
  CREDIT_POLICY: 'Política de crédito',
  INCOME_NOT_VERIFIED: 'Ingresos no comprobados',
  IDENTITY_NOT_VERIFIED: 'Identidad no comprobada',
  FRAUD_SUSPECTED: 'Sospecha de fraude',
  CUSTOMER_DECLINED: 'El cliente desistió',
  NO_CONTACT: 'Sin contacto',
  DUPLICATE: 'Duplicada',
  OTHER: 'Otra',
};
