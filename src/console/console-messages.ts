/**
 * The Spanish of the API's refusals, for the console's forms: each field the API names, each error
 * detail it gives (src/http/validation-errors.ts, the outcome rules) and the moves a decision allows,
 * as an operator reads them. No field name, code or English text reaches a page: a detail not known
 * here reads "Revisa …", naming the field in Spanish.
 */
import type { FieldError } from '../http/index.ts';
import { OUTCOME_STATUSES, outcomeMayMove, outcomeStatusLabels, type OutcomeStatus } from '../outcomes/index.ts';
import { lazily } from '../shared/index.ts';
import { money } from './format.ts';

/** Each field as an operator names it; a condition's parts by their last segment (`conditions.2.description`). */
const fieldNames: Record<string, string> = {
  status: 'la decisión',
  reasonCode: 'el motivo',
  conditions: 'las condiciones',
  code: 'la condición',
  description: 'el detalle de la condición',
  amountApproved: 'el monto aprobado',
  amountFunded: 'el monto fondeado',
  note: 'la nota interna',
  name: 'el nombre',
  email: 'el correo electrónico',
  password: 'la contraseña',
  role: 'el rol',
  url: 'la dirección (URL)',
  events: 'los eventos',
  user_type: 'el tipo de afiliado',
  user_id: 'el identificador del usuario',
};

const amountFields = new Set(['amountApproved', 'amountFunded']);
const lastSegment = (field: string) => field.slice(field.lastIndexOf('.') + 1);
const nameOf = (field: string) => fieldNames[lastSegment(field)] ?? 'este dato';
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const statusName = (status: string) => `«${outcomeStatusLabels[status as OutcomeStatus] ?? status}»`;

type Rule = [RegExp, (name: string, match: RegExpExecArray, field: string) => string];

/** Error details, in the order they are tried; the first that matches writes the message. */
const rules: Rule[] = [
  [/^is required$/, (name) => `Falta ${name}.`],
  [/^is required when status is (\w+)$/, (name, m) => `Una decisión ${statusName(m[1])} lleva ${name}.`],
  [/^is only taken when status is (\w+)$/, (name, m) => `Solo una decisión ${statusName(m[1])} lleva ${name}.`],
  [/^is not taken when status is (\w+)$/, (name, m) => `Una decisión ${statusName(m[1])} no lleva ${name}.`],
  [/^must have at most 2 decimals$/, () => 'El monto lleva a lo más dos decimales (centavos).'],
  [
    /^must be at most the approved amount \(([\d.]+)\)$/,
    (_, m) => `El monto fondeado no puede pasar del aprobado (${money(Number(m[1]))}).`,
  ],
  [/^must be > 0$/, (name) => `${capital(name)} debe ser mayor que cero.`],
  [
    /^must be <= ([\d.]+)$/,
    (name, m, field) => `${capital(name)} no puede pasar de ${amountFields.has(field) ? money(Number(m[1])) : m[1]}.`,
  ],
  [/^must be at most (\d+) characters$/, (_, m) => `Escribe a lo más ${m[1]} caracteres.`],
  [/^must be at least (\d+) characters$/, (_, m) => `Escribe al menos ${m[1]} caracteres.`],
  [/^must be one of/, (name) => `Elige ${name} de la lista.`],
  [/^must match the pattern/, (name) => `Revisa cómo está escrito ${name}.`],
  [/^must not be blank$/, (name) => `Falta ${name}.`],
  // Operators (src/operators).
  [/^requires email$/, () => 'Una contraseña necesita un correo electrónico para entrar.'],
  [/^is already used by another operator$/, () => 'Ese correo electrónico ya es de otro operador.'],
  [/^is not an e-mail address$/, () => 'Escribe un correo electrónico completo, como nombre@empresa.mx.'],
  [/^must have (\d+) characters or more$/, (_, m) => `Escribe al menos ${m[1]} caracteres.`],
  // A company's affiliate (src/companies).
  [/^must be a UUID$/, () => 'Escribe un identificador con el formato 123e4567-e89b-12d3-a456-426614174000.'],
  [/^must be unique: this user is already an affiliate$/, () => 'Ese usuario ya es afiliado.'],
  // A webhook endpoint's address (src/webhooks/url-policy.ts).
  [/^must be an absolute URL$/, () => 'Escribe la dirección completa, con https://.'],
  [/^must use https$/, () => 'La dirección debe usar https.'],
  [/^must use http or https$/, () => 'La dirección debe usar http o https.'],
  [/^must not carry credentials$/, () => 'La dirección no puede llevar usuario ni contraseña.'],
  [/^must use a port from 1 to 65535$/, () => 'El puerto debe ir de 1 a 65535.'],
  [/^must have a hostname that resolves$/, () => 'No se encuentra el servidor de esa dirección (DNS).'],
  [/^must not point to a loopback address$/, () => 'La dirección no puede apuntar a este mismo equipo.'],
  [
    /^must not point to a port of this service/,
    () => 'La dirección no puede apuntar a un puerto de este servicio ni de los servidores que usa.',
  ],
  [/^must point to a public address/, () => 'La dirección debe ser pública: no privada, local ni reservada.'],
];

/** One refused field's message, in Spanish. */
export function fieldMessage(error: FieldError): string {
  for (const [pattern, write] of rules) {
    const match = pattern.exec(error.errorDetail);
    if (match) return write(nameOf(error.field), match, error.field);
  }
  return `Revisa ${nameOf(error.field)}.`;
}

const orList = lazily(() => new Intl.ListFormat('es', { type: 'disjunction' }));

/** The decisions a lead whose current one is `from` (null: none yet) may be given. */
export const allowedChanges = (from: OutcomeStatus | null): OutcomeStatus[] =>
  OUTCOME_STATUSES.filter((to) => outcomeMayMove(from, to));

/**
 * Why a decision cannot be saved on this lead (the API's 409 / 4092): not verified yet, or a move its
 * current decision does not allow, naming the ones it does.
 */
export function transitionMessage(from: OutcomeStatus | null, verified: boolean): string {
  if (!verified)
    return 'La solicitud aún no está verificada (el solicitante no ha confirmado su PIN): no lleva decisión.';
  const allowed = allowedChanges(from).map(statusName);
  if (allowed.length === 0) return `La decisión ${statusName(from ?? '')} es final: ya no cambia.`;
  const list = orList().format(allowed);
  return from === null
    ? `La primera decisión puede ser ${list}.`
    : `Una decisión ${statusName(from)} solo puede cambiar a ${list}.`;
}
