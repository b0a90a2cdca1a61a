/**
 * The checks of each lead section beyond its schema (docs/api.md, "Leads"), turning a payload into
 * what is stored. Pure: the catalog lookup and today's date are given. Every failing field is
 * reported at once.
 */
import { errors, type FieldError } from '../http/index.ts';
import type { CatalogLookup } from '../catalogs/index.ts';
import { checkBirthDate } from './birth-date.ts';
import { isoDateInMexico, parseIsoDate } from '../shared/index.ts';
import { checkRfc, RFC_CHECK_DIGIT_MISMATCH } from './rfc.ts';

export interface Warning {
  code: string;
  message: string;
  field: string;
}

export interface Address {
  street: string;
  number: string;
  interior: string | null;
  zipCode: string;
  neighborhood: string;
  neighborhoodMatched: boolean;
  municipality: string;
  city: string;
  state: { id: string; name: string };
}

export interface Vehicle {
  id: number;
  price: number | null;
  year: number;
  brand: { id: string; name: string };
  model: { id: string; name: string };
  version: string;
}

export interface Person {
  firstName: string;
  secondName: string;
  lastName: string;
  secondLastName: string;
  rfc: string;
  birthDate: string;
}

export interface Financial {
  employmentType?: string;
  startEmploymentDate?: string;
  startDate?: { year: number; month: number };
  jobPosition?: string;
  jobTitle?: string;
  businessLine?: string;
  employmentCompany?: string;
  income?: number;
}

function fail(fieldErrors: FieldError[]): void {
  if (fieldErrors.length > 0) throw errors.invalidInput(fieldErrors);
}

/**
 * The checks below take a body as sent: each looks only at the fields of the type its schema
 * declares, so a body the schema refuses still gets its other fields checked in the same answer.
 */
type Body = Record<string, unknown>;
const isText = (value: unknown): value is string => typeof value === 'string';
const blank = (body: Body, names: readonly string[]): FieldError[] =>
  names
    .filter((name) => isText(body[name]) && (body[name] as string).trim() === '')
    .map((field) => ({ field, errorDetail: 'must not be blank' }));

export function addressErrors(body: Body, catalogs: CatalogLookup): FieldError[] {
  // The pattern lets spaces through: a required text that trims to nothing is missing, not saved as ''.
  const out = blank(body, ['street', 'number']);
  if (isText(body.zipCode) && /^\d{5}$/.test(body.zipCode) && !catalogs.findZipCode(body.zipCode)) {
    out.push({ field: 'zipCode', errorDetail: 'is not a ZIP code of the SEPOMEX catalog' });
  }
  return out;
}

export function vehicleErrors(body: Body, catalogs: CatalogLookup): FieldError[] {
  const id = body.id;
  const known = typeof id === 'number' && Number.isSafeInteger(id) && catalogs.findVersion(id) !== undefined;
  return typeof id === 'number' && Number.isInteger(id) && !known
    ? [{ field: 'id', errorDetail: 'is not a version of the vehicle catalog' }]
    : [];
}

export function personErrors(body: Body, today: Date): FieldError[] {
  const out: FieldError[] = [];
  const birth = isText(body.birthDate) ? checkBirthDate(body.birthDate.trim(), today) : undefined;
  if (birth && !birth.ok) out.push({ field: 'birthDate', errorDetail: birth.errorDetail });
  out.push(...blank(body, ['firstName', 'lastName']));
  if (isText(body.rfc)) {
    // Without a valid birth date the RFC's own form is still checked (its date against a placeholder).
    const rfc = checkRfc(body.rfc, birth?.ok ? birth.date : '');
    const cannotCompare = !birth?.ok && rfc.ok === false && rfc.errorDetail.startsWith('cannot be checked');
    if (!rfc.ok && !cannotCompare) out.push({ field: 'rfc', errorDetail: rfc.errorDetail });
  }
  return out;
}

export function financialErrors(body: Body, today: Date): FieldError[] {
  const out: FieldError[] = [];
  const todayIso = isoDateInMexico(today);
  if (isText(body.startEmploymentDate)) {
    if (!parseIsoDate(body.startEmploymentDate))
      out.push({ field: 'startEmploymentDate', errorDetail: 'must be a real date (YYYY-MM-DD)' });
    else if (body.startEmploymentDate > todayIso)
      out.push({ field: 'startEmploymentDate', errorDetail: 'must not be in the future' });
  }
  const start = body.startDate as { year?: unknown; month?: unknown } | undefined;
  if (start && typeof start === 'object' && Number.isInteger(start.year) && Number.isInteger(start.month)) {
    const month = `${String(start.year).padStart(4, '0')}-${String(start.month).padStart(2, '0')}`;
    if (month > todayIso.slice(0, 7)) out.push({ field: 'startDate', errorDetail: 'must not be in the future' });
  }
  out.push(...blank(body, ['jobPosition', 'employmentCompany']));
  return out;
}

export function checkAddress(
  payload: { street: string; number: string; interior?: string; zipCode: string; neighborhood: string },
  catalogs: CatalogLookup,
): { address: Address; warnings: Warning[] } {
  fail(addressErrors(payload, catalogs));
  const zip = catalogs.findZipCode(payload.zipCode)!;
  const match = catalogs.matchNeighborhood(payload.zipCode, payload.neighborhood.trim());
  const address: Address = {
    street: payload.street.trim(),
    number: payload.number.trim(),
    interior: payload.interior?.trim() || null,
    zipCode: payload.zipCode,
    neighborhood: match.neighborhood,
    neighborhoodMatched: match.matched,
    municipality: zip.municipality,
    city: zip.city,
    state: zip.state,
  };
  const warnings = match.matched
    ? []
    : [
        {
          code: 'NEIGHBORHOOD_NOT_IN_ZIP_CODE',
          message: 'The neighborhood is not one of the ZIP code’s settlements',
          field: 'address.neighborhood',
        },
      ];
  return { address, warnings };
}

export function checkVehicle(payload: { id: number; price?: number }, catalogs: CatalogLookup): Vehicle {
  fail(vehicleErrors(payload, catalogs));
  const version = catalogs.findVersion(payload.id)!;
  return {
    id: version.versionId,
    price: payload.price ?? null,
    year: version.year,
    brand: { id: String(version.makeId), name: version.make },
    model: { id: String(version.modelId), name: version.model },
    version: version.version,
  };
}

export function checkPerson(payload: Person, today: Date): { person: Person; warnings: Warning[] } {
  fail(personErrors(payload as unknown as Body, today));
  const birthDate = payload.birthDate.trim();
  const checked = checkRfc(payload.rfc, birthDate) as { ok: true; normalized: string; warnings: string[] };
  const person: Person = {
    firstName: payload.firstName.trim(),
    secondName: payload.secondName.trim(),
    lastName: payload.lastName.trim(),
    secondLastName: payload.secondLastName.trim(),
    rfc: checked.normalized,
    birthDate,
  };
  const warnings = checked.warnings.includes(RFC_CHECK_DIGIT_MISMATCH)
    ? [
        {
          code: RFC_CHECK_DIGIT_MISMATCH,
          message: 'The RFC check digit does not match; kept as given',
          field: 'person.rfc',
        },
      ]
    : [];
  return { person, warnings };
}

export function checkFinancial(payload: Financial, today: Date): Financial {
  fail(financialErrors(payload as Body, today));
  return {
    ...payload,
    ...(payload.jobPosition !== undefined ? { jobPosition: payload.jobPosition.trim() } : {}),
    ...(payload.employmentCompany !== undefined ? { employmentCompany: payload.employmentCompany.trim() } : {}),
  };
}
