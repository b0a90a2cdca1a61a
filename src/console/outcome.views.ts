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
import { cells, headRow } from './markup.ts';

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

function history(outcome: OperatorOutcomeView): Html {
  const rows = outcome.history.map(
    (h) =>
      html`<tr>${cells([
        html`<time datetime="${h.at}">${dateTime(h.at)}</time>`,
        label(outcomeStatusLabels, h.status),
        label(outcomeReasonLabels, h.reasonCode),
        html`<code>${h.operatorId}</code>`,
      ])}</tr>`,
  );
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Historial de la decisión"><table>
<caption>Historial de la decisión, del más antiguo al más reciente</caption>
${headRow(['Fecha', 'Estado', 'Motivo', 'Operador'])}
<tbody>${rows}</tbody>
</table></div>`;
}

function form(csrf: string, leadId: string, outcome: OperatorOutcomeView | null): Html {
  const codes = CONDITION_CODES.map((c) => option(c, conditionLabels[c]));
  const row = (i: number) => {
    const code = `conditionCode${i}`;
    const detail = `conditionDescription${i}`;
    return html`<div class="condition">
  <label for="${code}">Condición ${i + 1}</label><select id="${code}" name="${code}">${codes}</select>
  <label for="${detail}">Detalle de la condición ${i + 1}</label><input id="${detail}" name="${detail}" maxlength="200">
</div>`;
  };
  const rows = Array.from({ length: conditionRows }, (_, i) => i);
  const more = rows.slice(openConditionRows);
  const conditions = html`${rows.slice(0, openConditionRows).map(row)}${
    more.length
      ? html`<details>
<summary>Más condiciones (${more[0] + 1} a ${conditionRows})</summary>${more.map(row)}</details>`
      : ''
  }`;
  const statuses = OUTCOME_STATUSES.map((s) => option(s, outcomeStatusLabels[s], outcome?.status));
  const reasons = [option('', 'Sin motivo'), OUTCOME_REASON_CODES.map((r) => option(r, outcomeReasonLabels[r]))];
  const reasonSelect = html`<select id="reasonCode" name="reasonCode">${reasons}</select>`;
  const legend = `Condiciones (condicionada, hasta ${conditionRows}): solo cuentan las que tienen detalle`;
  const amount = (id: string, text: string) =>
    html`<div><label for="${id}">${text}</label><input id="${id}" name="${id}" inputmode="decimal"></div>`;
  const note = [
    html`<div><label for="note">Nota interna (no la ve el socio)</label>`,
    html`<textarea id="note" name="note" maxlength="1000" rows="3"></textarea></div>`,
  ];
  const action = `/console/leads/${leadId}/outcome`;
  return html`<form method="post" action="${action}" class="outcome-form" aria-labelledby="cambiar-decision">
${csrfField(csrf)}
<h3 id="cambiar-decision">Cambiar la decisión</h3>
<div><label for="outcome-status">Decisión</label><select id="outcome-status" name="status">${statuses}</select></div>
<div><label for="reasonCode">Motivo (rechazada o retirada)</label>${reasonSelect}</div>
<fieldset><legend>${legend}</legend>${conditions}</fieldset>
${amount('amountApproved', 'Monto aprobado (MXN, aprobada)')}
${amount('amountFunded', 'Monto fondeado (MXN, fondeada)')}
${note}
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
  const heading = html`<h2 id="decision-credito">Decisión del crédito</h2>`;
  return html`<section aria-labelledby="decision-credito" class="card">${heading}
${outcome ? html`${current(outcome)}${history(outcome)}` : html`<p>Sin decisión del otorgante todavía.</p>`}
${canDecide ? form(csrf, leadId, outcome) : ''}</section>`;
}
