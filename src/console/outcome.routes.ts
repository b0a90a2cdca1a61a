/**
 * The decision form of a lead's page (officers and admins): the form's fields become the API's
 * outcome request, checked by the same schema and rules. A refusal answers the lead's page again
 * (400 for its fields, 409 for a move the current decision does not allow) with each message, in
 * Spanish, beside the field it concerns and every value as it was typed.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, policy, type FieldError } from '../http/index.ts';
import { isVerified } from '../lead-status/index.ts';
import { parseOutcomeRequest, type OutcomesService } from '../outcomes/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { originOf, seeOther } from './console-request.ts';
import { fieldMessage, transitionMessage } from './console-messages.ts';
import { parseAmount } from './format.ts';
import { sendLeadPage, type LeadPageDeps, type LeadRead } from './lead-page.ts';
import { conditionRows } from './outcome.views.ts';

export type OutcomePagesDeps = LeadPageDeps & { outcomes: Pick<OutcomesService, 'record'> };

const LeadParams = Type.Object({ leadId: Type.String({ pattern: uuidPattern }) });
const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const OutcomeForm = Type.Object({
  _csrf: Type.String(),
  status: Type.String({ maxLength: 20 }),
  reasonCode: text(40),
  amountApproved: text(30),
  amountFunded: text(30),
  note: text(2000),
  ...Object.fromEntries(
    Array.from({ length: conditionRows }, (_, i) => [
      [`conditionCode${i}`, text(40)],
      [`conditionDescription${i}`, text(400)],
    ]).flat(),
  ),
});
type Form = Record<string, string | undefined>;
/** Messages by the form field they are shown beside. */
type Messages = Record<string, string>;

const filled = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());
const amountFields = ['amountApproved', 'amountFunded'] as const;

/**
 * The API's request from the form: empty fields are absent; only condition rows with a detail count
 * (`rows`: the form row of each condition). Amounts are read as typed ("$250,000.00"); one that is
 * not an amount is a message, and is left out of the request.
 */
function readForm(form: Form): { request: Record<string, unknown>; rows: number[]; messages: Messages } {
  const rows = Array.from({ length: conditionRows }, (_, i) => i).filter((i) =>
    filled(form[`conditionDescription${i}`]),
  );
  const conditions = rows.map((i) => ({
    code: form[`conditionCode${i}`],
    description: filled(form[`conditionDescription${i}`]),
  }));
  const messages: Messages = {};
  const amounts: Record<string, number | undefined> = {};
  for (const field of amountFields) {
    const given = filled(form[field]);
    const read = given === undefined ? undefined : parseAmount(given);
    if (read && 'error' in read) messages[field] = read.error;
    else amounts[field] = read?.value;
  }
  const body: Record<string, unknown> = {
    status: form.status,
    reasonCode: filled(form.reasonCode),
    ...amounts,
    note: filled(form.note),
    conditions: conditions.length > 0 ? conditions : undefined,
  };
  return { request: Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)), rows, messages };
}

/** The form field beside which a field the API refused is shown (a condition by its row). */
function formFieldOf(field: string, rows: number[]): string {
  // A condition's code or detail: beside the detail of its row, next to its code.
  const condition = /^conditions\.(\d+)\./.exec(field);
  if (condition) return `conditionDescription${rows[Number(condition[1])] ?? 0}`;
  if (field.startsWith('conditions')) return 'conditions';
  return ['reasonCode', 'note', ...amountFields].includes(field) ? field : 'status';
}

/** Each refused field's message in Spanish, beside its form field (two for one field are read together). */
function messagesOf(errors: readonly FieldError[], rows: number[], initial: Messages = {}): Messages {
  const out: Messages = { ...initial };
  for (const error of errors) {
    const field = formFieldOf(error.field, rows);
    if (field in initial) continue;
    out[field] = out[field] ? `${out[field]} ${fieldMessage(error)}` : fieldMessage(error);
  }
  return out;
}

const fieldErrorsOf = (error: AppError): FieldError[] =>
  (error.additionalData as { errors?: FieldError[] } | null)?.errors ?? [];

/** The schema's refusals of the rest of the form, when an amount could not be read. */
function otherRefusals(request: Record<string, unknown>): FieldError[] {
  try {
    parseOutcomeRequest(request);
    return [];
  } catch (error) {
    if (error instanceof AppError) return fieldErrorsOf(error);
    throw error;
  }
}

export const outcomeRoutes =
  (deps: OutcomePagesDeps): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Params: Static<typeof LeadParams>; Body: Static<typeof OutcomeForm> }>(
      '/leads/:leadId/outcome',
      { config: policy({ roles: ['officer'] }), schema: { hide: true, params: LeadParams, body: OutcomeForm } },
      async (request, reply) => {
        const { leadId } = request.params;
        const form = request.body as Form;
        const refuse = (status: 400 | 409, messages: (lead: LeadRead) => Messages) =>
          sendLeadPage(deps, request, reply, leadId, {
            status,
            form: (lead) => ({ values: form, errors: messages(lead) }),
          });
        const { request: change, rows, messages } = readForm(form);
        if (Object.keys(messages).length > 0)
          return refuse(400, () => messagesOf(otherRefusals(change), rows, messages));
        try {
          await deps.outcomes.record(originOf(request), leadId, parseOutcomeRequest(change));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          if (error.statusCode === 400) return refuse(400, () => messagesOf(fieldErrorsOf(error), rows));
          if (error.statusCode !== 409) throw error;
          return refuse(409, (lead) => ({
            status: transitionMessage(lead.outcome?.status ?? null, isVerified(lead.status)),
          }));
        }
        return seeOther(reply, `/console/leads/${leadId}#decision-credito`);
      },
    );
  };
