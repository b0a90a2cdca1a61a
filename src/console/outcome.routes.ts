/**
 * The decision form of a lead's page (officers and admins): the form's fields become the API's
 * outcome request, checked by the same schema and rules; a refusal is shown with its fields.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, policy } from '../http/index.ts';
import { parseOutcomeRequest, type OutcomesService } from '../outcomes/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { originOf, pageContext, refusal, seeOther, sendPage } from './console-request.ts';
import { errorPage } from './error.views.ts';
import { conditionRows } from './outcome.views.ts';
import { parseAmount } from './format.ts';

export interface OutcomePagesDeps {
  outcomes: Pick<OutcomesService, 'record'>;
}

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

const filled = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());
/** "$250,000.50" or "250000.5" as a number (format.ts); anything else is left as text for the schema to refuse. */
const amountOf = (value: string | undefined) => {
  const given = filled(value);
  if (given === undefined) return undefined;
  const read = parseAmount(given);
  return 'value' in read ? read.value : given;
};

/** The API's request from the form: empty fields are absent; only condition rows with a detail count. */
function requestOf(form: Form): Record<string, unknown> {
  const conditions = Array.from({ length: conditionRows }, (_, i) => ({
    code: form[`conditionCode${i}`],
    description: filled(form[`conditionDescription${i}`]),
  })).filter((c) => c.description !== undefined);
  const body: Record<string, unknown> = {
    status: form.status,
    reasonCode: filled(form.reasonCode),
    amountApproved: amountOf(form.amountApproved),
    amountFunded: amountOf(form.amountFunded),
    note: filled(form.note),
    conditions: conditions.length > 0 ? conditions : undefined,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

export const outcomeRoutes =
  (deps: OutcomePagesDeps): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Params: Static<typeof LeadParams>; Body: Static<typeof OutcomeForm> }>(
      '/leads/:leadId/outcome',
      { config: policy({ roles: ['officer'] }), schema: { hide: true, params: LeadParams, body: OutcomeForm } },
      async (request, reply) => {
        const { leadId } = request.params;
        try {
          await deps.outcomes.record(originOf(request), leadId, parseOutcomeRequest(requestOf(request.body as Form)));
        } catch (error) {
          if (!(error instanceof AppError) || (error.statusCode !== 400 && error.statusCode !== 409)) throw error;
          const detail =
            error.statusCode === 409
              ? 'No se pudo guardar: la decisión actual no permite ese cambio (o la solicitud aún no está verificada).'
              : refusal(error);
          return sendPage(reply, errorPage(pageContext(request, reply), 400, detail), error.statusCode);
        }
        return seeOther(reply, `/console/leads/${leadId}#decision-credito`);
      },
    );
  };
