/**
 * The lender's decision on a lead's page (its current outcome, its history and, for officers and
 * admins, the form that changes it) and the inbox's filter by outcome. es-MX labels, amounts as $220,000.00.
 */
import {
  CONDITION_CODES,
  OUTCOME_REASON_CODES,
  OUTCOME_STATUSES,
  conditionLabels,
  isFinalOutcome,
  outcomeReasonLabels,
  outcomeStatusLabels,
  type OperatorOutcomeView,
} from '../outcomes/index.ts';
import { html, type Html } from './html.ts';
import { dateTime, label, money } from './format.ts';
import { csrfField } from './layout.ts';
import { cells, headRow } from './markup.ts';
import { adminTokenOperator } from '../shared/index.ts';

/** Condition rows the form offers: as many as the API takes; the empty ones are left out. */
export const conditionRows = 10;
/** Rows shown open; the others are behind a disclosure (a native one: no script). */
const openConditionRows = 3;

const option = (value: string, text: string, selected?: string | null) =>
  html`<option value="${value}"${value === (selected ?? '') ? html` selected` : ''}>${text}</option>`;

/** The inbox's "Decisión del otorgante" select. */
export function outcomeFilterField(selected: string | undefined): Html {
  const options = [
    option('', 'Todas', selected),
    OUTCOME_STATUSES.map((s) => option(s, outcomeStatusLabels[s], selected)),
  ];
  const select = html`<select id="outcome" name="outcome">${options}</select>`;
  return html`<div><label for="outcome">Decisión del otorgante</label>${select}</div>`;
}

function current(outcome: OperatorOutcomeView): Html {
  const conditions = outcome.conditions?.length
    ? html`<ul>${outcome.conditions.map(
        (c) => html`<li>${label(conditionLabels, c.code)}: ${c.description}</li>`,
      )}</ul>`
    : '—';
  return html`<dl class="facts">
<dt>Estado</dt><dd><strong>${label(outcomeStatusLabels, outcome.status)}</strong></dd>
<dt>Desde</dt><dd>${dateTime(outcome.at)}</dd>
<dt>Motivo</dt><dd>${label(outcomeReasonLabels, outcome.reasonCode)}</dd>
<dt>Condiciones</dt><dd>${conditions}</dd>
<dt>Monto aprobado</dt><dd>${money(outcome.amountApproved)}</dd>
<dt>Monto fondeado</dt><dd>${money(outcome.amountFunded)}</dd>
<dt>Nota interna</dt><dd>${outcome.note ?? '—'}</dd>
</dl>`;
}

/** Who made a change, by name: ADMIN_TOKEN's changes as the token, an operator deleted since as such. */
export function operatorName(operatorId: string, names: ReadonlyMap<string, string>): string {
  if (operatorId === adminTokenOperator.operatorId) return 'Token de administración';
  return names.get(operatorId) ?? 'Operador dado de baja';
}

function history(outcome: OperatorOutcomeView, names: ReadonlyMap<string, string>): Html {
  const rows = outcome.history.map(
    (h) =>
      html`<tr>${cells([
        html`<time datetime="${h.at}">${dateTime(h.at)}</time>`,
        label(outcomeStatusLabels, h.status),
        label(outcomeReasonLabels, h.reasonCode),
        operatorName(h.operatorId, names),
      ])}</tr>`,
  );
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Historial de la decisión"><table>
<caption>Historial de la decisión, del más antiguo al más reciente</caption>
${headRow(['Fecha', 'Estado', 'Motivo', 'Operador'])}
<tbody>${rows}</tbody>
</table></div>`;
}

/** What an officer typed in a refused decision form, and each field's message (by the field's name). */
export interface OutcomeFormState {
  values: Readonly<Record<string, string | undefined>>;
  errors: Readonly<Record<string, string>>;
}

const noState: OutcomeFormState = { values: {}, errors: {} };

/** A control's error beside it, and the attributes that tie the control to it. */
function fieldError(state: OutcomeFormState, name: string): { attributes: Html; message: Html } {
  const error = state.errors[name];
  if (!error) return { attributes: html``, message: html`` };
  return {
    attributes: html` aria-invalid="true" aria-describedby="${name}-error"`,
    message: html`<p class="field-error" id="${name}-error">${error}</p>`,
  };
}

function conditionRow(state: OutcomeFormState, i: number): Html {
  const code = `conditionCode${i}`;
  const detail = `conditionDescription${i}`;
  const codes = CONDITION_CODES.map((c) => option(c, conditionLabels[c], state.values[code]));
  const error = fieldError(state, detail);
  const input = html`<input id="${detail}" name="${detail}" maxlength="200" value="${state.values[detail] ?? ''}"${
    error.attributes
  }>`;
  return html`<div class="condition">
  <label for="${code}">Condición ${i + 1}</label><select id="${code}" name="${code}">${codes}</select>
  <label for="${detail}">Detalle de la condición ${i + 1}</label>${input}${error.message}
</div>`;
}

function conditionsField(state: OutcomeFormState): Html {
  const rows = Array.from({ length: conditionRows }, (_, i) => i);
  const more = rows.slice(openConditionRows);
  // Rows behind the disclosure open when one of them holds a value or a message.
  const typed = more.some(
    (i) => state.values[`conditionDescription${i}`]?.trim() || state.errors[`conditionDescription${i}`],
  );
  const summary = html`<summary>Más condiciones (${more[0] + 1} a ${conditionRows})</summary>`;
  const hidden = more.length
    ? html`<details${typed ? html` open` : ''}>
${summary}${more.map((i) => conditionRow(state, i))}</details>`
    : '';
  const error = fieldError(state, 'conditions');
  // A group is described by its message; being invalid is for its controls.
  const described = state.errors.conditions ? html` aria-describedby="conditions-error"` : '';
  const legend = `Condiciones (condicionada, hasta ${conditionRows}): solo cuentan las que tienen detalle`;
  return html`<fieldset${described}><legend>${legend}</legend>${error.message}${rows
    .slice(0, openConditionRows)
    .map((i) => conditionRow(state, i))}${hidden}</fieldset>`;
}

function amountField(state: OutcomeFormState, id: string, text: string): Html {
  const error = fieldError(state, id);
  // As long as the route takes (a longer one would be refused before its message could be shown here).
  const value = state.values[id] ?? '';
  const input = html`<input id="${id}" name="${id}" inputmode="decimal" value="${value}" maxlength="30"${
    error.attributes
  }>`;
  return html`<div><label for="${id}">${text}</label>${input}${error.message}</div>`;
}

function statusField(state: OutcomeFormState, outcome: OperatorOutcomeView | null): Html {
  const statuses = OUTCOME_STATUSES.map((s) =>
    option(s, outcomeStatusLabels[s], state.values.status ?? outcome?.status),
  );
  const error = fieldError(state, 'status');
  const select = html`<select id="outcome-status" name="status"${error.attributes}>${statuses}</select>`;
  return html`<div><label for="outcome-status">Decisión</label>${select}${error.message}</div>`;
}

function reasonField(state: OutcomeFormState): Html {
  const selected = state.values.reasonCode;
  const reasons = [
    option('', 'Sin motivo', selected),
    OUTCOME_REASON_CODES.map((r) => option(r, outcomeReasonLabels[r], selected)),
  ];
  const error = fieldError(state, 'reasonCode');
  const select = html`<select id="reasonCode" name="reasonCode"${error.attributes}>${reasons}</select>`;
  return html`<div><label for="reasonCode">Motivo (rechazada o retirada)</label>${select}${error.message}</div>`;
}

function noteField(state: OutcomeFormState): Html {
  const error = fieldError(state, 'note');
  const textarea = html`<textarea id="note" name="note" maxlength="1000" rows="3"${error.attributes}>${
    state.values.note ?? ''
  }</textarea>`;
  return html`<div><label for="note">Nota interna (no la ve el socio)</label>${textarea}${error.message}</div>`;
}

function form(csrf: string, leadId: string, outcome: OperatorOutcomeView | null, state: OutcomeFormState): Html {
  const refused = Object.keys(state.errors).length > 0;
  const summary = refused
    ? html`<p class="notice error" role="alert">No se guardó la decisión: revisa los datos marcados.</p>`
    : '';
  const action = `/console/leads/${leadId}/outcome`;
  return html`<form method="post" action="${action}" class="outcome-form" aria-labelledby="cambiar-decision">
${csrfField(csrf)}
<h3 id="cambiar-decision">Cambiar la decisión</h3>
${summary}
${statusField(state, outcome)}
${reasonField(state)}
${conditionsField(state)}
${amountField(state, 'amountApproved', 'Monto aprobado (aprobada)')}
${amountField(state, 'amountFunded', 'Monto fondeado (fondeada)')}
${noteField(state)}
<div class="actions"><button type="submit">Guardar decisión</button></div>
</form>`;
}

/** Why the form is not offered: nothing can change on this lead now. */
function closed(outcome: OperatorOutcomeView | null, verified: boolean): Html {
  if (!verified)
    return html`<p class="muted">Sin formulario de decisión: la solicitud aún no está verificada (el solicitante no ha
confirmado su PIN).</p>`;
  const status = outcome ? label(outcomeStatusLabels, outcome.status) : '';
  return html`<p class="muted">Sin formulario de decisión: la decisión «${status}» es final.</p>`;
}

/**
 * The lead page's section: the outcome, its history and, when the viewer may decide and the lead can
 * still change (verified, its decision not final), the form, holding what a refused submission typed.
 */
export function outcomeSection(input: {
  csrf: string;
  leadId: string;
  outcome: OperatorOutcomeView | null;
  verified: boolean;
  canDecide: boolean;
  /** Operators' names by id, for the history. */
  operatorNames: ReadonlyMap<string, string>;
  form?: OutcomeFormState;
}): Html {
  const { outcome } = input;
  const heading = html`<h2 id="decision-credito">Decisión del otorgante</h2>`;
  const changeable = input.verified && !(outcome && isFinalOutcome(outcome.status));
  const decide = changeable
    ? form(input.csrf, input.leadId, outcome, input.form ?? noState)
    : closed(outcome, input.verified);
  const shown = outcome
    ? html`${current(outcome)}${history(outcome, input.operatorNames)}`
    : html`<p>Sin decisión del otorgante todavía.</p>`;
  return html`<section aria-labelledby="decision-credito" class="card">${heading}
${shown}
${input.canDecide ? decide : ''}</section>`;
}
