/** The lead inbox and a lead's page: what a loan officer reads, in Spanish. */
import { leadStatuses } from '../leads/index.ts';
import type { LenderLeadsService } from '../lender/index.ts';
import { html, type Html } from './html.ts';
import {
  calendarDate,
  count,
  dateTime,
  decisionLabels,
  label,
  money,
  monthOfYear,
  outcomeLabels,
  percent,
  plain,
  plainCode,
  statusLabels,
} from './format.ts';
import {
  bureauProviderLabels,
  enumLabels,
  eventLabels,
  fieldLabels,
  fieldPathLabel,
  reasonLabels,
  ruleLabels,
  shareKeys,
  thresholdLabels,
  warningLabels,
} from './lead-labels.ts';
import { page, type Notice, type PageContext } from './layout.ts';
import { outcomeFilterField } from './outcome.views.ts';

export interface InboxFilter {
  status?: string;
  decision?: string;
  companyId?: string;
  from?: string;
  to?: string;
  outcome?: string;
}

type LeadPage = Awaited<ReturnType<LenderLeadsService['list']>>;
type LeadRead = Awaited<ReturnType<LenderLeadsService['read']>>;

const shortId = (id: string) => id.slice(0, 8);

const option = (value: string, text: string, selected: string | undefined) =>
  html`<option value="${value}"${value === (selected ?? '') ? html` selected` : ''}>${text}</option>`;

/** The query string of a filter (and a cursor), for links that keep it. */
export function filterQuery(filter: InboxFilter, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function inboxPage(
  context: PageContext,
  input: {
    filter: InboxFilter;
    leads: LeadPage;
    counts: { status: string; count: number }[];
    companies: { id: string; name: string }[];
    notice?: Notice;
  },
): Html {
  const { filter, leads } = input;
  const companyName = new Map(input.companies.map((c) => [c.id, c.name]));
  const total = input.counts.reduce((sum, c) => sum + c.count, 0);
  const byStatus = new Map(input.counts.map((c) => [c.status, c.count]));
  const counts = html`<section aria-labelledby="por-estado"><h2 id="por-estado">Por estado</h2>
<ul class="counts">${leadStatuses.map((s) => html`<li><a href="/console/leads${filterQuery({ ...filter, status: s })}">${statusLabels[s]}</a> <strong>${count(byStatus.get(s) ?? 0)}</strong></li>`)}
<li>Total <strong>${count(total)}</strong></li></ul></section>`;
  const form = html`<form method="get" action="/console/leads" class="filters" aria-label="Filtros">
  <div><label for="status">Estado</label><select id="status" name="status">${option('', 'Todos', filter.status)}${leadStatuses.map((s) => option(s, statusLabels[s], filter.status))}</select></div>
  <div><label for="decision">Decisión</label><select id="decision" name="decision">${option('', 'Todas', filter.decision)}${Object.entries(decisionLabels).map(([v, t]) => option(v, t, filter.decision))}</select></div>
  ${outcomeFilterField(filter.outcome)}
  <div><label for="companyId">Empresa</label><select id="companyId" name="companyId">${option('', 'Todas', filter.companyId)}${input.companies.map((c) => option(c.id, c.name, filter.companyId))}</select></div>
  <div><label for="from">Desde</label><input id="from" name="from" type="date" value="${filter.from ?? ''}"></div>
  <div><label for="to">Hasta</label><input id="to" name="to" type="date" value="${filter.to ?? ''}"></div>
  <div class="actions"><button type="submit">Filtrar</button> <a href="/console/leads">Quitar filtros</a></div>
</form>`;
  const rows = leads.items.map(
    (lead) => html`<tr>
  <td><a href="/console/leads/${lead.id}" aria-label="Abrir la solicitud ${shortId(lead.id)}">${shortId(lead.id)}</a></td>
  <td>${dateTime(lead.createdAt)}</td>
  <td>${companyName.get(lead.companyId) ?? shortId(lead.companyId)}</td>
  <td>${label(statusLabels, lead.status)}</td>
  <td>${label(decisionLabels, lead.decision)}</td>
  <td>${lead.externalAutoId ?? '—'}</td>
</tr>`,
  );
  const table =
    leads.items.length === 0
      ? html`<p>No hay solicitudes con estos filtros.</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="Solicitudes, de la más reciente a la más antigua"><table><caption>Solicitudes, de la más reciente a la más antigua</caption>
<thead><tr><th scope="col">Solicitud</th><th scope="col">Creada</th><th scope="col">Empresa</th><th scope="col">Estado</th><th scope="col">Decisión</th><th scope="col">Referencia del socio</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
  const more = leads.nextCursor
    ? html`<p class="pager"><a href="/console/leads${filterQuery(filter, leads.nextCursor)}" rel="next">Siguiente página</a></p>`
    : '';
  return page({ ...context, section: 'leads' }, 'Solicitudes', html`${form}${counts}${table}${more}`, input.notice);
}

const moneyFields = new Set([
  'downPayment',
  'price',
  'income',
  'amountFinanced',
  'monthlyPayment',
  'reportedMonthlyDebts',
]);
const dateFields = new Set(['birthDate', 'startEmploymentDate', 'date']);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function facts(entries: [string, Html | string][]): Html {
  return html`<dl class="facts">${entries.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

/** A value as people write it: amounts in pesos, dates and months in words, codes in Spanish, names not ids. */
function valueOf(key: string, value: unknown): string {
  if (moneyFields.has(key) && typeof value === 'number') return money(value);
  if (shareKeys.has(key) && typeof value === 'number') return percent(value);
  if (typeof value === 'string' && enumLabels[key]) return label(enumLabels[key], value);
  if (typeof value === 'string' && dateFields.has(key)) return calendarDate(value);
  if (Array.isArray(value)) return value.length ? value.map((v) => valueOf(key, v)).join('; ') : '—';
  if (isRecord(value)) {
    // A catalog entry ({ id, name }: a state, a brand, a model) is its name; { year, month } a month.
    if (typeof value.name === 'string') return value.name;
    if (typeof value.year === 'number' && typeof value.month === 'number')
      return monthOfYear({ year: value.year, month: value.month });
    return described(value, fieldLabels);
  }
  return plainCode(key, value);
}

/** "Label: value, …" for a small object (a rule's inputs or thresholds), each key in Spanish. */
function described(values: Record<string, unknown>, names: Record<string, string>): string {
  const entries = Object.entries(values);
  return entries.length
    ? entries.map(([k, v]) => `${names[k] ?? fieldLabels[k] ?? k}: ${valueOf(k, v)}`).join(', ')
    : '—';
}

function section(id: string, title: string, value: object | null, erased: boolean): Html {
  const body =
    value === null
      ? html`<p>${erased ? 'Datos personales borrados.' : 'Sin capturar.'}</p>`
      : facts(Object.entries(value).map(([k, v]) => [fieldLabels[k] ?? k, valueOf(k, v)]));
  return html`<section aria-labelledby="${id}" class="card"><h2 id="${id}">${title}</h2>${body}</section>`;
}

/** `outcome`: the lender's decision section (outcome.views.ts). */
export function leadPage(context: PageContext, lead: LeadRead, companyName: string | undefined, outcome?: Html): Html {
  const erased = lead.erasedAt !== null;
  const summary = facts([
    ['Empresa', companyName ?? lead.companyId],
    ['Estado', label(statusLabels, lead.status)],
    ['Decisión', label(decisionLabels, lead.prequalification?.decision)],
    ['Creada', dateTime(lead.createdAt)],
    ['Actualizada', dateTime(lead.updatedAt)],
    ['Referencia del socio', lead.externalAutoId ?? '—'],
    ['Afiliado', lead.affiliate?.user_id ?? '—'],
    ['Datos personales borrados', erased ? dateTime(lead.erasedAt) : 'No'],
  ]);
  const offer = lead.prequalification?.offer;
  const decision = lead.prequalification
    ? html`<section aria-labelledby="decision" class="card"><h2 id="decision">Decisión</h2>${facts([
        ['Resultado', label(decisionLabels, lead.prequalification.decision)],
        ['Evaluada', dateTime(lead.prequalification.evaluatedAt)],
        ['Motivos', lead.prequalification.reasons.map((r) => label(reasonLabels, r.code)).join('; ') || '—'],
      ])}${offer ? html`<h3>Oferta</h3>${facts(Object.entries(offer).map(([k, v]) => [fieldLabels[k] ?? k, valueOf(k, v)]))}` : ''}</section>`
    : '';
  const warnings = html`<section aria-labelledby="advertencias" class="card"><h2 id="advertencias">Advertencias</h2>${
    lead.warnings.length === 0
      ? html`<p>Sin advertencias.</p>`
      : html`<ul>${lead.warnings.map((w) => html`<li>${label(warningLabels, w.code)}${w.field ? ` (${fieldPathLabel(w.field)})` : ''}</li>`)}</ul>`
  }</section>`;
  const consent = html`<section aria-labelledby="consentimiento" class="card"><h2 id="consentimiento">Consentimiento</h2>${
    lead.consent
      ? facts([
          ['Canal', valueOf('channel', lead.consent.channel)],
          ['Destino', lead.consent.destination ?? '—'],
          ['PIN enviado', dateTime(lead.consent.pinSentAt)],
          ['PIN confirmado', dateTime(lead.consent.confirmedAt)],
          ['Clave de consumidor', lead.consent.consumerKey],
          ['Id. de la solicitud HTTP', lead.consent.requestId ?? '—'],
          ['Dirección IP', lead.consent.clientAddress ?? '—'],
          ['Navegador o cliente', lead.consent.userAgent ?? '—'],
        ])
      : html`<p>Sin consentimiento: el PIN no se ha confirmado.</p>`
  }</section>`;
  const bureau = html`<section aria-labelledby="buro" class="card"><h2 id="buro">Buró de crédito</h2>${
    lead.bureau
      ? facts([
          ['Proveedor', label(bureauProviderLabels, lead.bureau.provider)],
          ['Consultado', dateTime(lead.bureau.queriedAt)],
          ['Sin historial', lead.bureau.noRecord ? 'Sí' : 'No'],
          ['Puntaje', plain(lead.bureau.score)],
          ['Cuentas abiertas', count(lead.bureau.openAccounts)],
          ['Saldo total', money(lead.bureau.totalBalance)],
          ['Saldo vencido', money(lead.bureau.pastDueBalance)],
          ['Peor atraso (días)', count(lead.bureau.worstDelinquencyDays)],
        ])
      : html`<p>${erased ? 'Reporte borrado.' : 'Sin consulta al buró.'}</p>`
  }</section>`;
  const explanation = html`<section aria-labelledby="explicacion" class="card"><h2 id="explicacion">Explicación de la decisión</h2>${
    lead.explanation
      ? html`<p>Versión de las reglas: <strong>${lead.explanation.rulesVersion}</strong></p>
<div class="scroll" tabindex="0" role="region" aria-label="Resultado de cada regla"><table><caption>Resultado de cada regla</caption><thead><tr><th scope="col">Regla</th><th scope="col">Resultado</th><th scope="col">Datos</th><th scope="col">Umbral</th><th scope="col">Motivo</th></tr></thead>
<tbody>${lead.explanation.rules.map((r) => html`<tr><td>${label(ruleLabels, r.rule)}</td><td>${label(outcomeLabels, r.outcome)}</td><td>${r.inputs ? described(r.inputs, fieldLabels) : '—'}</td><td>${described(r.threshold, thresholdLabels)}</td><td>${r.reason ? label(reasonLabels, r.reason.code) : '—'}</td></tr>`)}</tbody></table></div>`
      : html`<p>Aún no se ha evaluado.</p>`
  }</section>`;
  const events = html`<section aria-labelledby="eventos" class="card"><h2 id="eventos">Eventos</h2>${
    lead.events.length === 0
      ? html`<p>Sin eventos.</p>`
      : html`<ol class="timeline">${lead.events.map((e) => html`<li><time datetime="${e.at}">${dateTime(e.at)}</time> ${label(eventLabels, e.type)}${e.fields?.length ? html` — ${e.fields.map(fieldPathLabel).join(', ')}` : ''}</li>`)}</ol>`
  }</section>`;
  return page(
    { ...context, section: 'leads' },
    `Solicitud ${shortId(lead.id)}`,
    html`
<p><a href="/console/leads">← Volver a las solicitudes</a></p>
<section aria-labelledby="resumen" class="card"><h2 id="resumen">Resumen</h2>${summary}</section>
${decision}${outcome ?? ''}${warnings}${consent}${bureau}${explanation}
${section('prestamo', 'Préstamo', lead.loanInfo, false)}
${section('contacto', 'Contacto', lead.contact, erased)}
${section('domicilio', 'Domicilio', lead.address, erased)}
${section('vehiculo', 'Vehículo', lead.vehicle, false)}
${section('empleo', 'Empleo e ingresos', lead.financial, erased)}
${section('persona', 'Persona', lead.person, erased)}
${events}`,
  );
}
