/**
 * The CAT disclosure a partner shows beside an offer (Banxico's rules for advertising credit; docs/api.md,
 * "The offer and its CAT"): the offer's CAT as the offer writes it, without IVA, and the day it was
 * computed in Mexico City, in Spanish.
 */
import { isoDateInMexico, parseIsoDate } from '../shared/index.ts';

const months = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
] as const;

/** `CAT promedio 18.7% sin IVA. Para fines informativos y de comparación. Fecha de cálculo: 5 de marzo de 2026.` */
export function catDisclosure(cat: number, evaluatedAt: Date): string {
  const day = parseIsoDate(isoDateInMexico(evaluatedAt))!;
  const date = `${day.day} de ${months[day.month - 1]} de ${day.year}`;
  return `CAT promedio ${cat}% sin IVA. Para fines informativos y de comparación. Fecha de cálculo: ${date}.`;
}
