/**
 * The checks of each lead section beyond its schema (docs/api.md, "Leads"), turning a payload into
 * what is stored. Pure: the catalog lookup and today's date are given. Every failing field is
 * reported at once.
 */
import { errors, type FieldError } from '../http/app-error.ts';
import type { CatalogLookup } from '../catalogs/catalog-lookup.ts';
import { checkBirthDate } from './birth-date.ts';
import { isoDateInMexico, parseIsoDate } from '../shared/calendar.ts';
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

export function checkAddress(
  payload: { street: string; number: string; interior?: string; zipCode: string; neighborhood: string },
  catalogs: CatalogLookup,
): { address: Address; warnings: Warning[] } {
  const zip = catalogs.findZipCode(payload.zipCode);
  // The pattern lets spaces through: a required text that trims to nothing is missing, not saved as ''.
  const fieldErrors: FieldError[] = (['street', 'number'] as const)
    .filter((name) => payload[name].trim() === '')
    .map((field) => ({ field, errorDetail: 'must not be blank' }));
  if (!zip) fieldErrors.push({ field: 'zipCode', errorDetail: 'is not a ZIP code of the SEPOMEX catalog' });
  fail(fieldErrors);
  const match = catalogs.matchNeighborhood(payload.zipCode, payload.neighborhood.trim());
  const address: Address = {
    street: payload.street.trim(),
    number: payload.number.trim(),
    interior: payload.interior?.trim() || null,
    zipCode: payload.zipCode,
    neighborhood: match.neighborhood,
    neighborhoodMatched: match.matched,
    municipality: zip!.municipality,
    city: zip!.city,
    state: zip!.state,
  };
  const warnings = match.matched
    ? []
    : [{ code: 'NEIGHBORHOOD_NOT_IN_ZIP_CODE', message: 'The neighborhood is not one of the ZIP code’s settlements', field: 'address.neighborhood' }];
  return { address, warnings };
}

export function checkVehicle(payload: { id: number; price?: number }, catalogs: CatalogLookup): Vehicle {
  const version = catalogs.findVersion(payload.id);
  fail(version ? [] : [{ field: 'id', errorDetail: 'is not a version of the vehicle catalog' }]);
  return {
    id: version!.versionId,
    price: payload.price ?? null,
    year: version!.year,
    brand: { id: String(version!.makeId), name: version!.make },
    model: { id: String(version!.modelId), name: version!.model },
    version: version!.version,
  };
}

export function checkPerson(payload: Person, today: Date): { person: Person; warnings: Warning[] } {
  const fieldErrors: FieldError[] = [];
  const birth = checkBirthDate(payload.birthDate.trim(), today);
  if (!birth.ok) fieldErrors.push({ field: 'birthDate', errorDetail: birth.errorDetail });
  for (const name of ['firstName', 'lastName'] as const) {
    if (payload[name].trim() === '') fieldErrors.push({ field: name, errorDetail: 'must not be blank' });
  }
  const rfc = birth.ok ? checkRfc(payload.rfc, birth.date) : undefined;
  if (rfc && !rfc.ok) fieldErrors.push({ field: 'rfc', errorDetail: rfc.errorDetail });
  fail(fieldErrors);
  const checked = rfc as { ok: true; normalized: string; warnings: string[] };
  const person: Person = {
    firstName: payload.firstName.trim(),
    secondName: payload.secondName.trim(),
    lastName: payload.lastName.trim(),
    secondLastName: payload.secondLastName.trim(),
    rfc: checked.normalized,
    birthDate: (birth as { date: string }).date,
  };
  const warnings = checked.warnings.includes(RFC_CHECK_DIGIT_MISMATCH)
    ? [{ code: RFC_CHECK_DIGIT_MISMATCH, message: 'The RFC check digit does not match; kept as given', field: 'person.rfc' }]
    : [];
  return { person, warnings };
}

export function checkFinancial(payload: Financial, today: Date): Financial {
  const fieldErrors: FieldError[] = [];
  const todayIso = isoDateInMexico(today);
  if (payload.startEmploymentDate !== undefined) {
    if (!parseIsoDate(payload.startEmploymentDate)) fieldErrors.push({ field: 'startEmploymentDate', errorDetail: 'must be a real date (YYYY-MM-DD)' });
    else if (payload.startEmploymentDate > todayIso) fieldErrors.push({ field: 'startEmploymentDate', errorDetail: 'must not be in the future' });
  }
  if (payload.startDate) {
    const month = `${String(payload.startDate.year).padStart(4, '0')}-${String(payload.startDate.month).padStart(2, '0')}`;
    if (month > todayIso.slice(0, 7)) fieldErrors.push({ field: 'startDate', errorDetail: 'must not be in the future' });
  }
  for (const field of ['jobPosition', 'employmentCompany'] as const) {
    if (payload[field] !== undefined && payload[field]!.trim() === '') fieldErrors.push({ field, errorDetail: 'must not be blank' });
  }
  fail(fieldErrors);
  return {
    ...payload,
    ...(payload.jobPosition !== undefined ? { jobPosition: payload.jobPosition.trim() } : {}),
    ...(payload.employmentCompany !== undefined ? { employmentCompany: payload.employmentCompany.trim() } : {}),
  };
}
