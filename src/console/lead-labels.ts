/**
 * The Spanish an operator reads on a lead's page for the names and codes the service keeps in English:
 * the sections' fields, every enum value, the history's event types, the pre-qualification's rules,
 * thresholds and reasons, the warnings and the bureau. No code reaches the page as it is stored; a
 * value missing here is caught by lead-labels.test.ts, which checks each table against its enum.
 */
import type { DOCUMENT_TYPES, RejectionReason } from '../documents/index.ts';
import type { OperatorOutcomeView } from '../outcomes/index.ts';

/** Fields of the lead's sections, the offer, the rules' inputs and the history's field lists. */
export const fieldLabels: Record<string, string> = {
  downPayment: 'Enganche',
  term: 'Plazo (meses)',
  purchaseIntention: 'Intención de compra',
  phone: 'Teléfono',
  email: 'Correo electrónico',
  street: 'Calle',
  number: 'Número',
  interior: 'Interior',
  neighborhood: 'Colonia',
  neighborhoodMatched: 'Colonia en el código postal',
  zipCode: 'Código postal',
  city: 'Ciudad',
  state: 'Estado',
  municipality: 'Municipio',
  id: 'Clave',
  price: 'Precio',
  year: 'Año',
  month: 'Mes',
  brand: 'Marca',
  model: 'Modelo',
  version: 'Versión',
  income: 'Ingreso mensual',
  employmentType: 'Tipo de empleo',
  businessLine: 'Giro',
  employmentCompany: 'Empresa donde trabaja',
  jobPosition: 'Puesto',
  jobTitle: 'Cargo',
  startEmploymentDate: 'Inicio del empleo',
  startDate: 'Inicio',
  firstName: 'Nombre',
  secondName: 'Segundo nombre',
  lastName: 'Apellido paterno',
  secondLastName: 'Apellido materno',
  birthDate: 'Fecha de nacimiento',
  rfc: 'RFC',
  amountFinanced: 'Monto a financiar',
  annualRate: 'Tasa anual (%)',
  monthlyPayment: 'Pago mensual',
  cat: 'CAT (%)',
  catDisclosure: 'Leyenda del CAT',
  channel: 'Canal',
  pin: 'PIN',
  prequalification: 'Precalificación',
  modelYear: 'Año del modelo',
  recordFound: 'Con historial en el buró',
  score: 'Puntaje',
  worstDelinquencyDays: 'Peor atraso (días)',
  delinquencies: 'Atrasos',
  days: 'Días',
  date: 'Fecha',
  reportedMonthlyDebts: 'Pagos mensuales en el buró',
  loanMonthlyPayment: 'Pago mensual de este crédito',
};

/** A field named by its section, as warnings and missing data name it (`address.neighborhood`). */
export const fieldPathLabel = (path: string): string => fieldLabels[path.slice(path.lastIndexOf('.') + 1)] ?? path;

export const purchaseIntentionLabels: Record<string, string> = {
  LESS_THAN_TWO_WEEKS: 'En menos de dos semanas',
  WITHIN_A_MONTH: 'En el próximo mes',
  JUST_SIMULATE: 'Solo quiere simular',
};

export const noRecordPolicyLabels: Record<string, string> = {
  ALLOW_WITH_MIN_DOWN_PAYMENT: 'Se acepta con el enganche mínimo sin historial',
  REJECT: 'Se rechaza',
};

/** Fields whose values are codes of a closed list, with the Spanish of each. */
export const enumLabels: Record<string, Record<string, string>> = {
  purchaseIntention: purchaseIntentionLabels,
  noRecordPolicy: noRecordPolicyLabels,
  channel: { SMS: 'SMS', EMAIL: 'Correo electrónico' },
};

/** What the lead's history records, as an operator says it. */
export const eventLabels: Record<string, string> = {
  LEAD_CREATED: 'Solicitud creada',
  LOAN_INFO_SAVED: 'Datos del préstamo guardados',
  CONTACT_INFO_SAVED: 'Datos de contacto guardados',
  CONTACT_UPDATED: 'Contacto actualizado',
  ADDRESS_SAVED: 'Domicilio guardado',
  VEHICLE_SAVED: 'Vehículo guardado',
  FINANCIAL_SAVED: 'Empleo e ingresos guardados',
  PERSON_SAVED: 'Datos de la persona guardados',
  PIN_SENT: 'PIN enviado',
  PIN_CONFIRMED: 'PIN confirmado',
  BUREAU_REPORT_RECEIVED: 'Reporte del buró recibido',
  PREQUALIFICATION_EVALUATED: 'Precalificación evaluada',
  PERSONAL_DATA_ERASED: 'Datos personales borrados',
  OUTCOME_CHANGED: 'Decisión del otorgante cambiada',
};

export const warningLabels: Record<string, string> = {
  NEIGHBORHOOD_NOT_IN_ZIP_CODE: 'La colonia no es uno de los asentamientos del código postal',
  RFC_CHECK_DIGIT_MISMATCH: 'El dígito verificador del RFC no coincide; se guardó como se recibió',
};

/** Why a lead was not pre-qualified, one per reason code. */
export const reasonLabels: Record<string, string> = {
  AGE_OUT_OF_RANGE: 'Edad fuera del rango aceptado',
  AGE_AT_END_OF_TERM: 'Edad al final del plazo mayor que la aceptada',
  LOW_SCORE: 'Puntaje del buró menor que el mínimo',
  NO_CREDIT_RECORD: 'Sin historial en el buró',
  RECENT_DELINQUENCY: 'Atraso reciente',
  LOW_DOWN_PAYMENT: 'Enganche menor que el mínimo',
  NOTHING_TO_FINANCE: 'No queda monto a financiar',
  TERM_NOT_OFFERED: 'Plazo no ofrecido',
  EMPLOYMENT_TYPE_NOT_ACCEPTED: 'Tipo de empleo no aceptado',
  INSUFFICIENT_SENIORITY: 'Antigüedad en el empleo menor que la mínima',
  PAYMENT_TO_INCOME: 'Pago mensual alto para el ingreso',
  VEHICLE_TOO_OLD: 'Vehículo más antiguo que el aceptado',
  MISSING_DATA: 'Faltan datos',
};

/** The pre-qualification's rules, by their stable names. */
export const ruleLabels: Record<string, string> = {
  'applicant-age': 'Edad del solicitante',
  'age-at-end-of-term': 'Edad al final del plazo',
  'bureau-score': 'Puntaje del buró',
  'recent-delinquency': 'Atrasos recientes',
  'term-offered': 'Plazo ofrecido',
  'down-payment-share': 'Enganche',
  'employment-seniority': 'Antigüedad en el empleo',
  'payment-to-income': 'Pago respecto al ingreso',
  'vehicle-age': 'Antigüedad del vehículo',
};

/** The rules' thresholds (keys of the pre-qualification configuration). */
export const thresholdLabels: Record<string, string> = {
  minimumAge: 'Edad mínima',
  maximumAge: 'Edad máxima',
  maximumAgeAtEndOfTerm: 'Edad máxima al final del plazo',
  minimumScore: 'Puntaje mínimo',
  noRecordPolicy: 'Sin historial en el buró',
  maximumDaysPastDue: 'Atraso máximo (días)',
  delinquencyLookbackMonths: 'Meses revisados',
  allowedTerms: 'Plazos ofrecidos (meses)',
  minimumDownPaymentShare: 'Enganche mínimo',
  noRecordMinimumDownPaymentShare: 'Enganche mínimo sin historial',
  minimumSeniorityMonths: 'Antigüedad mínima (meses)',
  maximumPaymentToIncome: 'Pago máximo respecto al ingreso',
  maximumVehicleAgeYears: 'Antigüedad máxima del vehículo (años)',
};

/** Thresholds that are shares of a whole (0.1), shown as percentages. */
export const shareKeys = new Set([
  'minimumDownPaymentShare',
  'noRecordMinimumDownPaymentShare',
  'maximumPaymentToIncome',
]);

export const bureauProviderLabels: Record<string, string> = {
  sandbox: 'Buró de pruebas',
  circulo: 'Círculo de Crédito',
};

/** A condition's status, from its documents (PENDING until one answers it), and a document's. */
export const conditionStatusLabels: Record<NonNullable<OperatorOutcomeView['conditions']>[number]['status'], string> = {
  PENDING: 'Pendiente',
  RECEIVED: 'Recibido',
  ACCEPTED: 'Aceptado',
  REJECTED: 'Rechazado',
};

/** What a partner says a document is. */
export const documentTypeLabels: Record<(typeof DOCUMENT_TYPES)[number], string> = {
  OFFICIAL_ID: 'Identificación oficial',
  PROOF_OF_INCOME: 'Comprobante de ingresos',
  PROOF_OF_ADDRESS: 'Comprobante de domicilio',
  BANK_STATEMENT: 'Estado de cuenta bancario',
  OTHER: 'Otro',
};

/** Why the lender rejected a document. */
export const rejectionReasonLabels: Record<RejectionReason, string> = {
  ILLEGIBLE: 'Ilegible',
  EXPIRED: 'Vencido',
  WRONG_DOCUMENT: 'Documento equivocado',
  DATA_MISMATCH: 'Datos no coinciden',
  INCOMPLETE: 'Incompleto',
  SUSPECTED_ALTERATION: 'Posible alteración',
  OTHER: 'Otro',
};

/** A document's format, as its bytes show it. */
export const documentFormatLabels: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'Imagen JPEG',
  'image/png': 'Imagen PNG',
};
