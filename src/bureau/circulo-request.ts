/**
 * The body of Círculo de Crédito's consolidated report with FICO Score (v2), built from a bureau
 * subject: names split into the fields it asks for, text folded to the characters it accepts (ASCII
 * upper case, accents dropped, Ñ as N) and cut to its lengths, the state as its catalog code.
 */
import type { BureauSubject } from './report.ts';
import { circuloStateOf } from './circulo-states.ts';

export interface CirculoRequest {
  primerNombre: string;
  segundoNombre?: string;
  apellidoPaterno: string;
  apellidoMaterno: string;
  fechaNacimiento: string;
  RFC: string;
  nacionalidad: 'MX';
  domicilio: {
    direccion: string;
    coloniaPoblacion: string;
    delegacionMunicipio: string;
    ciudad: string;
    estado: string;
    CP: string;
  };
}

/** What Círculo's documentation asks for a missing second surname. */
export const NO_SECOND_SURNAME = 'NO PROPORCIONADO';

/**
 * ASCII upper case: accents and the tilde dropped (Ñ → N, Ü → U), anything but letters, digits and a
 * few address signs turned into a space, runs of spaces collapsed.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 .,#/-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Folded and cut to `max` characters, at a word boundary when one is near enough. */
export function fitText(text: string, max: number): string {
  const folded = foldText(text);
  if (folded.length <= max) return folded;
  const cut = folded.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : folded.slice(0, max)).trim();
}

/**
 * Given names into primerNombre and segundoNombre: the second name when there is one; otherwise a
 * first name of several words keeps its first word as the first name and the rest as the second.
 */
export function splitGivenNames(
  firstName: string,
  secondName: string,
): { primerNombre: string; segundoNombre: string | null } {
  const first = foldText(firstName);
  const second = foldText(secondName);
  if (second) return { primerNombre: fitText(first, 50), segundoNombre: fitText(second, 50) };
  const [head, ...rest] = first.split(' ');
  return { primerNombre: fitText(head ?? '', 50), segundoNombre: rest.length ? fitText(rest.join(' '), 50) : null };
}

/** Street and number (and interior), at most 85 characters and at least two words as Círculo requires. */
export function addressLine(street: string, number: string, interior: string | null): string {
  const parts = [street, number, interior ? `INT ${interior}` : ''].map(foldText).filter(Boolean);
  const line = fitText(parts.join(' '), 85);
  return line.includes(' ') ? line : fitText(`${line} SN`, 85);
}

/** The RFC folded like other text, but keeping `&`, which RFCs may contain. */
export function rfcOf(rfc: string): string {
  return rfc
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9&]/g, '')
    .slice(0, 13);
}

export type RequestOutcome = { ok: true; body: CirculoRequest } | { ok: false; reason: string };

export function buildCirculoRequest(subject: BureauSubject): RequestOutcome {
  const { address } = subject;
  const estado = circuloStateOf(address.stateId);
  if (!estado) return { ok: false, reason: 'the address has no state of the ZIP catalog' };
  if (!/^\d{5}$/.test(address.zipCode)) return { ok: false, reason: 'the ZIP code is not 5 digits' };
  const { primerNombre, segundoNombre } = splitGivenNames(subject.firstName, subject.secondName);
  const apellidoPaterno = fitText(subject.lastName, 30);
  if (!primerNombre || !apellidoPaterno) return { ok: false, reason: 'the person has no first name or surname' };
  const municipality = fitText(address.municipality ?? '', 65);
  const body: CirculoRequest = {
    primerNombre,
    ...(segundoNombre ? { segundoNombre } : {}),
    apellidoPaterno,
    apellidoMaterno: fitText(subject.secondLastName, 30) || NO_SECOND_SURNAME,
    fechaNacimiento: subject.birthDate,
    RFC: rfcOf(subject.rfc),
    nacionalidad: 'MX',
    domicilio: {
      direccion: addressLine(address.street, address.number, address.interior),
      coloniaPoblacion: fitText(address.neighborhood, 65),
      delegacionMunicipio: municipality,
      ciudad: fitText(address.city ?? '', 65) || municipality,
      estado,
      CP: address.zipCode,
    },
  };
  return { ok: true, body };
}
