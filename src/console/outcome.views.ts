/**
 * The lender's decision on a lead's page (its current outcome, its history and, for officers and
 * admins, the form that changes it) and the inbox's filter by outcome. es-MX labels, MXN amounts.
 */
import {
  CONDITION_CODES,
  OUTCOME_REASON_CODES,
  OUTCOME_STATUSES,
  conditionLabels,
  outcomeReasonLabels,
  outcomeStatusLabels,
  type OperatorOutcomeView,
} from '../outcomes/index.ts';
import { html, type Html } from './html.ts';
import { dateTime, label, money } from './format.ts';
import { csrfField } from './layout.ts';

/** Condition rows the form offers: as many as the API takes; the empty ones are left out. */
export const conditionRows = 10;
/** Rows shown open; the others are behind a disclosure (a native one: no script). */
const openConditionRows = 3;

const option = (value: string, text: string, selected?: string | null) =>
  html`<option value="${value}"${value === (selected ?? '') ? html` selected` : ''}>${text}</option>`;

/** The inbox's "Resultado del crédito" select. */
export function outcomeFilterField(selected: string | undefined): Html {
  return html`<div><label for="outcome">Resultado del crédito</label><select id="outcome" name="outcome">${option('', 'Todas', selected)}${OUTCOME_STATUSES.map(
    (s) => option(s, outcomeStatusLabels[s], selected),
  )}</select></div>`;
}

function current(outcome: OperatorOutcomeView): Html {
  const conditions = outcome.conditions?.length
    ? html`<ul>${outcome.conditions.map((c) => html`<li>${label(conditionLabels, c.code)}: ${c.description}</li>`)}</ul>`
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

function history(outcome: OperatorOutcomeView): Html {
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Historial de la decisión"><table>
<caption>Historial de la decisión, del más antiguo al más reciente</caption>
<thead><tr><th scope="col">Fecha</th><th scope="col">Estado</th><th scope="col">Motivo</th><th scope="col">Operador</th></tr></thead>
<tbody>${outcome.history.map((h) => html`<tr><td><time datetime="${h.at}">${dateTime(h.at)}</time></td><td>${label(outcomeStatusLabels, h.status)}</td><td>${label(outcomeReasonLabels, h.reasonCode)}</td><td><code>${h.operatorId}</code></td></tr>`)}</tbody>
</table></div>`;
}

function form(csrf: string, leadId: string, outcome: OperatorOutcomeView | null): Html {
  const row = (i: number) => html`<div class="condition">
  <label for="conditionCode${i}">Condición ${i + 1}</label><select id="conditionCode${i}" name="conditionCode${i}">${CONDITION_CODES.map((c) => option(c, conditionLabels[c]))}</select>
  <label for="conditionDescription${i}">Detalle de la condición ${i + 1}</label><input id="conditionDescription${i}" name="conditionDescription${i}" maxlength="200">
</div>`;
  const rows = Array.from({ length: conditionRows }, (_, i) => i);
  const more = rows.slice(openConditionRows);
  const conditions = html`${rows.slice(0, openConditionRows).map(row)}${
    more.length
      ? html`<details>
<summary>Más condiciones (${more[0] + 1} a ${conditionRows})</summary>${more.map(row)}</details>`
      : ''
  }`;
  return html`<form method="post" action="/console/leads/${leadId}/outcome" class="outcome-form" aria-labelledby="cambiar-decision">
${csrfField(csrf)}
<h3 id="cambiar-decision">Cambiar la decisión</h3>
<div><label for="outcome-status">Decisión</label><select id="outcome-status" name="status">${OUTCOME_STATUSES.map((s) => option(s, outcomeStatusLabels[s], outcome?.status))}</select></div>
<div><label for="reasonCode">Motivo (rechazada o retirada)</label><select id="reasonCode" name="reasonCode">${option('', 'Sin motivo')}${OUTCOME_REASON_CODES.map((r) => option(r, outcomeReasonLabels[r]))}</select></div>
<fieldset><legend>Condiciones (condicionada, hasta ${conditionRows}): solo cuentan las que tienen detalle</legend>${conditions}</fieldset>
<div><label for="amountApproved">Monto aprobado (MXN, aprobada)</label><input id="amountApproved" name="amountApproved" inputmode="decimal"></div>
<div><label for="amountFunded">Monto fondeado (MXN, fondeada)</label><input id="amountFunded" name="amountFunded" inputmode="decimal"></div>
<div><label for="note">Nota interna (no la ve el socio)</label><textarea id="note" name="note" maxlength="1000" rows="3"></textarea></div>
<div class="actions"><button type="submit">Guardar decisión</button></div>
</form>`;
}

/** The lead page's section: the outcome, its history and, when the viewer may decide, the form. */
export function outcomeSection(
  csrf: string,
  leadId: string,
  outcome: OperatorOutcomeView | null,
  canDecide: boolean,
): Html {
  return html`<section aria-labelledby="decision-credito" class="card"><h2 id="decision-credito">Decisión del crédito</h2>
${outcome ? html`${current(outcome)}${history(outcome)}` : html`<p>Sin decisión del otorgante todavía.</p>`}
${canDecide ? form(csrf, leadId, outcome) : ''}</section>`;
}
