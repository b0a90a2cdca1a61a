/** The lead inbox and a lead's page: what a loan officer reads, in Spanish. */
import { leadStatuses } from '../lead-status/index.ts';
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
import { cells, headRow, scrollTable } from './markup.ts';
import { outcomeFilterField } from './outcome.views.ts';
import { outcomeStatusLabels } from '../outcomes/index.ts';
import { amountRequested, applicantName, vehicleName } from './applicant.ts';

export interface InboxFilter {
  status?: string;
  decision?: string;
  companyId?: string;
  from?: string;
  to?: string;
  outcome?: string;
}

type LeadPage = Awaited<ReturnType<LenderLeadsService['inbox']>>;
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

/** One column per fact; the automatic pre-qualification is a filter, not a decision. */
const inboxHeadings = ['Solicitante', 'Monto', 'Estado', 'Decisión del otorgante', 'Empresa', 'Creada'];

function inboxRow(lead: LeadPage['items'][number], companyName: Map<string, string>): Html {
  const short = shortId(lead.id);
  const requested = amountRequested(lead.vehicle, lead.loanInfo);
  const name = applicantName(lead.person);
  // The applicant's name opens the lead; without one (none yet, or erased) the link says which lead it is.
  const link =
    name === '—'
      ? html`<a href="/console/leads/${lead.id}" aria-label="Solicitud ${short}, sin nombre">—</a>`
      : html`<a href="/console/leads/${lead.id}">${name}</a>`;
  return html`<tr>
  <td>${link}</td>
  <td>${money(requested)}</td>
  <td>${label(statusLabels, lead.status)}</td>
  <td>${label(outcomeStatusLabels, lead.outcomeStatus)}</td>
  <td>${companyName.get(lead.companyId) ?? shortId(lead.companyId)}</td>
  <td>${dateTime(lead.createdAt)}</td>
</tr>`;
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
  const statusCounts = leadStatuses.map((s) => {
    const link = html`<a href="/console/leads${filterQuery({ ...filter, status: s })}">${statusLabels[s]}</a>`;
    return html`<li>${link} <strong>${count(byStatus.get(s) ?? 0)}</strong></li>`;
  });
  const counts = html`<section aria-labelledby="por-estado"><h2 id="por-estado">Por estado</h2>
<ul class="counts">${statusCounts}
<li>Total <strong>${count(total)}</strong></li></ul></section>`;
  const statuses = [
    option('', 'Todos', filter.status),
    leadStatuses.map((s) => option(s, statusLabels[s], filter.status)),
  ];
  const decisions = [
    option('', 'Todas', filter.decision),
    Object.entries(decisionLabels).map(([v, t]) => option(v, t, filter.decision)),
  ];
  const companies = [
    option('', 'Todas', filter.companyId),
    input.companies.map((c) => option(c.id, c.name, filter.companyId)),
  ];
  const form = html`<form method="get" action="/console/leads" class="filters" aria-label="Filtros">
  <div><label for="status">Estado</label><select id="status" name="status">${statuses}</select></div>
  ${outcomeFilterField(filter.outcome)}
  <div><label for="decision">Precalificación</label><select id="decision" name="decision">${decisions}</select></div>
  <div><label for="companyId">Empresa</label><select id="companyId" name="companyId">${companies}</select></div>
  <div><label for="from">Desde</label><input id="from" name="from" type="date" value="${filter.from ?? ''}"></div>
  <div><label for="to">Hasta</label><input id="to" name="to" type="date" value="${filter.to ?? ''}"></div>
  <div class="actions"><button type="submit">Filtrar</button> <a href="/console/leads">Quitar filtros</a></div>
</form>`;
  const table =
    leads.items.length === 0
      ? html`<p>No hay solicitudes con estos filtros.</p>`
      : html`${scrollTable('Solicitudes, de la más reciente a la más antigua')}
${headRow(inboxHeadings)}
<tbody>${leads.items.map((lead) => inboxRow(lead, companyName))}</tbody></table></div>`;
  const next = `/console/leads${filterQuery(filter, leads.nextCursor ?? undefined)}`;
  const more = leads.nextCursor ? html`<p class="pager"><a href="${next}" rel="next">Siguiente página</a></p>` : '';
  return page({ ...context, section: 'leads' }, 'Solicitudes', html`${form}${counts}${table}${more}`, input.notice);
}

const moneyFields = new Set([
  'downPayment',
  'price',
  'income',
  'amountFinanced',
  'monthlyPayment',
  'reportedMonthlyDebts',
  'loanMonthlyPayment',
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

/** Each field of an object with its Spanish label and its value as people write it. */
function labelled(value: object): [string, string][] {
  return Object.entries(value).map(([k, v]) => [fieldLabels[k] ?? k, valueOf(k, v)]);
}

/** A titled card of the lead page; `id` names its heading. */
const card = (id: string, title: string, body: Html): Html =>
  html`<section aria-labelledby="${id}" class="card"><h2 id="${id}">${title}</h2>${body}</section>`;

function section(id: string, title: string, value: object | null, erased: boolean): Html {
  const body =
    value === null ? html`<p>${erased ? 'Datos personales borrados.' : 'Sin capturar.'}</p>` : facts(labelled(value));
  return card(id, title, body);
}

/** The offer's figures in the order an officer reads them: amount, term, rate, payment, then the CAT. */
const offerOrder = ['amountFinanced', 'term', 'annualRate', 'monthlyPayment', 'cat'];

function offerFacts(terms: Record<string, unknown>): [string, string][] {
  const known = offerOrder.filter((k) => k in terms);
  const others = Object.keys(terms).filter((k) => !offerOrder.includes(k));
  return [...known, ...others].map((k) => [fieldLabels[k] ?? k, valueOf(k, terms[k])]);
}

function decisionCard(prequalification: NonNullable<LeadRead['prequalification']>): Html {
  const { offer } = prequalification;
  const decision = facts([
    ['Resultado', label(decisionLabels, prequalification.decision)],
    ['Evaluada', dateTime(prequalification.evaluatedAt)],
    ['Motivos', prequalification.reasons.map((r) => label(reasonLabels, r.code)).join('; ') || '—'],
  ]);
  if (!offer) return card('precalificacion', 'Precalificación automática', decision);
  // The CAT disclosure the partner shows beside the offer, under its figures.
  const { catDisclosure, ...terms } = offer;
  const body = html`${decision}<h3>Oferta</h3>${facts(offerFacts(terms))}<p>${catDisclosure}</p>`;
  return card('precalificacion', 'Precalificación automática', body);
}

function warningsCard(lead: LeadRead): Html {
  const items = lead.warnings.map(
    (w) => html`<li>${label(warningLabels, w.code)}${w.field ? ` (${fieldPathLabel(w.field)})` : ''}</li>`,
  );
  return card(
    'advertencias',
    'Advertencias',
    items.length === 0 ? html`<p>Sin advertencias.</p>` : html`<ul>${items}</ul>`,
  );
}

function consentCard(consent: LeadRead['consent']): Html {
  const body = consent
    ? facts([
        ['Canal', valueOf('channel', consent.channel)],
        ['Destino', consent.destination ?? '—'],
        ['PIN enviado', dateTime(consent.pinSentAt)],
        ['PIN confirmado', dateTime(consent.confirmedAt)],
        ['Clave de consumidor', consent.consumerKey],
        ['Id. de la solicitud HTTP', consent.requestId ?? '—'],
        ['Dirección IP', consent.clientAddress ?? '—'],
        ['Navegador o cliente', consent.userAgent ?? '—'],
      ])
    : html`<p>Sin consentimiento: el PIN no se ha confirmado.</p>`;
  return card('consentimiento', 'Consentimiento', body);
}

function bureauCard(bureau: LeadRead['bureau'], erased: boolean): Html {
  const body = bureau
    ? facts([
        ['Proveedor', label(bureauProviderLabels, bureau.provider)],
        ['Consultado', dateTime(bureau.queriedAt)],
        ['Sin historial', bureau.noRecord ? 'Sí' : 'No'],
        ['Puntaje', plain(bureau.score)],
        ['Cuentas abiertas', count(bureau.openAccounts)],
        ['Saldo total', money(bureau.totalBalance)],
        ['Saldo vencido', money(bureau.pastDueBalance)],
        ['Peor atraso (días)', count(bureau.worstDelinquencyDays)],
      ])
    : html`<p>${erased ? 'Reporte borrado.' : 'Sin consulta al buró.'}</p>`;
  return card('buro', 'Buró de crédito', body);
}

type RuleRead = NonNullable<LeadRead['explanation']>['rules'][number];
type OfferRead = NonNullable<LeadRead['prequalification']>['offer'];

const numberOf = (values: Record<string, unknown> | null, key: string): number | undefined => {
  const value = values?.[key];
  return typeof value === 'number' ? value : undefined;
};

/**
 * The share of the income the monthly payments would take: this loan's payment (the offer's when there is
 * one, else the one the rule computes, among its inputs) plus the debts the bureau reports.
 */
function paymentToIncome(rule: RuleRead, offer: OfferRead): string | undefined {
  const income = numberOf(rule.inputs, 'income');
  const debts = numberOf(rule.inputs, 'reportedMonthlyDebts');
  const payment = offer?.monthlyPayment ?? numberOf(rule.inputs, 'loanMonthlyPayment');
  if (income === undefined || debts === undefined || payment === undefined) return undefined;
  return income > 0 ? `${percent((payment + debts) / income)} del ingreso` : 'Todo el ingreso';
}

/** What a rule computed from its inputs, as compared with its threshold; "—" when it computed nothing. */
function computedFigure(rule: RuleRead, offer: OfferRead): string {
  if (rule.rule === 'payment-to-income') return paymentToIncome(rule, offer) ?? '—';
  if (rule.rule === 'down-payment-share') {
    const price = numberOf(rule.inputs, 'price');
    const downPayment = numberOf(rule.inputs, 'downPayment');
    if (price !== undefined && price > 0 && downPayment !== undefined)
      return `${percent(downPayment / price)} del precio`;
  }
  return '—';
}

/** A rule's outcome; a failed one stands out (in bold and marked), so the reason of a refusal is seen first. */
function outcomeCell(outcome: RuleRead['outcome']): Html | string {
  const text = label(outcomeLabels, outcome);
  return outcome === 'fail' ? html`<strong class="rule-fail">${text}</strong>` : text;
}

function explanationCard(explanation: LeadRead['explanation'], offer: OfferRead): Html {
  if (!explanation) return card('explicacion', 'Explicación de la decisión', html`<p>Aún no se ha evaluado.</p>`);
  const rows = explanation.rules.map(
    (r) =>
      html`<tr${r.outcome === 'fail' ? html` class="rule-fail"` : ''}>${cells([
        label(ruleLabels, r.rule),
        outcomeCell(r.outcome),
        r.inputs ? described(r.inputs, fieldLabels) : '—',
        computedFigure(r, offer),
        described(r.threshold, thresholdLabels),
        r.reason ? label(reasonLabels, r.reason.code) : '—',
      ])}</tr>`,
  );
  const headings = headRow(['Regla', 'Resultado', 'Datos', 'Cálculo', 'Umbral', 'Motivo']);
  const body = html`<p>Versión de las reglas: <strong>${explanation.rulesVersion}</strong></p>
${scrollTable('Resultado de cada regla')}${headings}
<tbody>${rows}</tbody></table></div>`;
  return card('explicacion', 'Explicación de la decisión', body);
}

function eventsCard(events: LeadRead['events']): Html {
  const items = events.map((e) => {
    const fields = e.fields?.length ? html` — ${e.fields.map(fieldPathLabel).join(', ')}` : '';
    return html`<li><time datetime="${e.at}">${dateTime(e.at)}</time> ${label(eventLabels, e.type)}${fields}</li>`;
  });
  return card(
    'eventos',
    'Eventos',
    items.length === 0 ? html`<p>Sin eventos.</p>` : html`<ol class="timeline">${items}</ol>`,
  );
}

/** The first screen: who applies, for how much and which vehicle, the partner's status and the lender's decision. */
function headerCard(lead: LeadRead, companyName: string | undefined): Html {
  const erased = lead.erasedAt !== null;
  const summary = facts([
    ['Solicitante', erased ? '— (datos personales borrados)' : applicantName(lead.person)],
    ['Monto solicitado', money(amountRequested(lead.vehicle, lead.loanInfo))],
    ['Vehículo', vehicleName(lead.vehicle)],
    ['Estado', label(statusLabels, lead.status)],
    ['Decisión del otorgante', label(outcomeStatusLabels, lead.outcome?.status)],
    ['Empresa', companyName ?? lead.companyId],
    ['Creada', dateTime(lead.createdAt)],
  ]);
  return card('resumen', 'Resumen', summary);
}

/** What the partner sent about the lead itself, after the decision. */
function detailsCard(lead: LeadRead): Html {
  const erased = lead.erasedAt !== null;
  return card(
    'datos-solicitud',
    'Datos de la solicitud',
    facts([
      ['Actualizada', dateTime(lead.updatedAt)],
      ['Referencia del socio', lead.externalAutoId ?? '—'],
      ['Afiliado', lead.affiliate?.user_id ?? '—'],
      ['Datos personales borrados', erased ? dateTime(lead.erasedAt) : 'No'],
    ]),
  );
}

/**
 * A lead's page, in the order a credit officer works: the header; the evidence (consent, bureau, the
 * pre-qualification and its explanation, the conditions' documents); the lender's decision and its
 * form (`decision`, outcome.views.ts); then everything else the partner sent and the history.
 */
export function leadPage(
  context: PageContext,
  lead: LeadRead,
  parts: { companyName?: string; documents: Html; decision: Html },
  notice?: Notice,
): Html {
  const erased = lead.erasedAt !== null;
  const prequalification = lead.prequalification ? decisionCard(lead.prequalification) : '';
  const explanation = explanationCard(lead.explanation, lead.prequalification?.offer ?? null);
  return page(
    { ...context, section: 'leads' },
    `Solicitud ${shortId(lead.id)}`,
    html`
<p><a href="/console/leads">← Volver a las solicitudes</a></p>
${headerCard(lead, parts.companyName)}
${consentCard(lead.consent)}${bureauCard(lead.bureau, erased)}${prequalification}${explanation}
${parts.documents}${parts.decision}
${warningsCard(lead)}${detailsCard(lead)}
${section('prestamo', 'Préstamo', lead.loanInfo, false)}
${section('vehiculo', 'Vehículo', lead.vehicle, false)}
${section('persona', 'Persona', lead.person, erased)}
${section('contacto', 'Contacto', lead.contact, erased)}
${section('domicilio', 'Domicilio', lead.address, erased)}
${section('empleo', 'Empleo e ingresos', lead.financial, erased)}
${eventsCard(lead.events)}`,
    notice,
  );
}
