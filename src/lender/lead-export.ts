/**
 * One flat record per lead for the lender's export, and its CSV and NDJSON lines. Personal data is
 * decrypted here, one batch at a time, so memory stays flat whatever the number of leads.
 */
import type { Lead } from '../leads/index.ts';

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const exportContentTypes: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

export const exportColumns = [
  'id',
  'companyId',
  'status',
  'decision',
  'reasons',
  'createdAt',
  'updatedAt',
  'erasedAt',
  'externalAutoId',
  'affiliateUserId',
  'affiliateUserType',
  'firstName',
  'secondName',
  'lastName',
  'secondLastName',
  'rfc',
  'birthDate',
  'phone',
  'email',
  'street',
  'number',
  'interior',
  'zipCode',
  'neighborhood',
  'municipality',
  'city',
  'state',
  'vehicleId',
  'vehicleYear',
  'vehicleBrand',
  'vehicleModel',
  'vehicleVersion',
  'price',
  'downPayment',
  'term',
  'employmentType',
  'income',
  'amountFinanced',
  'annualRate',
  'monthlyPayment',
  'cat',
  'verifiedAt',
] as const;

export type ExportRecord = Record<(typeof exportColumns)[number], string | number | null>;

export function exportRecord(lead: Lead): ExportRecord {
  const { person, address, vehicle, financial, prequalification: pq, loanInfo } = lead;
  return {
    id: lead.id,
    companyId: lead.companyId,
    status: lead.status,
    decision: pq?.decision ?? null,
    reasons: pq ? pq.reasons.map((r) => r.code).join(';') : null,
    createdAt: lead.createdAt.toISOString(),
    updatedAt: lead.updatedAt.toISOString(),
    erasedAt: lead.erasedAt?.toISOString() ?? null,
    externalAutoId: lead.externalAutoId,
    affiliateUserId: lead.affiliate?.user_id ?? null,
    affiliateUserType: lead.affiliate?.user_type ?? null,
    firstName: person?.firstName ?? null,
    secondName: person?.secondName ?? null,
    lastName: person?.lastName ?? null,
    secondLastName: person?.secondLastName ?? null,
    rfc: person?.rfc ?? null,
    birthDate: person?.birthDate ?? null,
    phone: lead.phone,
    email: lead.email,
    street: address?.street ?? null,
    number: address?.number ?? null,
    interior: address?.interior ?? null,
    zipCode: address?.zipCode ?? null,
    neighborhood: address?.neighborhood ?? null,
    municipality: address?.municipality ?? null,
    city: address?.city ?? null,
    state: address?.state?.name ?? null,
    vehicleId: vehicle?.id ?? null,
    vehicleYear: vehicle?.year ?? null,
    vehicleBrand: vehicle?.brand?.name ?? null,
    vehicleModel: vehicle?.model?.name ?? null,
    vehicleVersion: vehicle?.version ?? null,
    price: vehicle?.price ?? null,
    downPayment: loanInfo?.downPayment ?? null,
    term: loanInfo?.term ?? null,
    employmentType: financial?.employmentType ?? null,
    income: financial?.income ?? null,
    amountFinanced: pq?.offer?.amountFinanced ?? null,
    annualRate: pq?.offer?.annualRate ?? null,
    monthlyPayment: pq?.offer?.monthlyPayment ?? null,
    cat: pq?.offer?.cat ?? null,
    verifiedAt: lead.verification?.verifiedAt ?? null,
  };
}

/**
 * RFC 4180 quoting. A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a
 * leading apostrophe: names and addresses come from the public. So does one whose formula character
 * follows blanks or separators a spreadsheet may drop or split on first (`;=…`, ` =…`, `,+…`, `|@…`):
 * a spreadsheet set to read `;` as the separator sees a cell that starts with the formula.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[\s;,|]*[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvHeader = `${exportColumns.join(',')}\r\n`;

export function exportLine(record: ExportRecord, format: ExportFormat): string {
  return format === 'csv'
    ? `${exportColumns.map((c) => csvCell(record[c])).join(',')}\r\n`
    : `${JSON.stringify(record)}\n`;
}
