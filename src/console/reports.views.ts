/**
 * `/console/reports`: the funnel of the leads created in a window, drawn as a server-rendered SVG
 * bar chart (a title and a description for screen readers) with the same numbers in a table, and
 * each stage's conversion from the one before it.
 */
import type { FunnelService } from '../outcomes/index.ts';
import { html, type Html } from './html.ts';
import { count, dayRange, money, percent } from './format.ts';
import { page, type PageContext } from './layout.ts';
import { headRow } from './markup.ts';

type Report = Awaited<ReturnType<FunnelService['report']>>;

export interface ReportFilter {
  from?: string;
  to?: string;
  companyId?: string;
}

/** Why a filter's field was refused, by field ("from", "to"): shown beside it, the typed values kept. */
export type ReportFieldErrors = Partial<Record<'from' | 'to', string>>;

const stages = [
  ['created', 'Creadas'],
  ['verified', 'Verificadas'],
  ['prequalified', 'Precalificadas'],
  ['approved', 'Aprobadas'],
  ['funded', 'Fondeadas'],
] as const;

const option = (value: string, text: string, selected: string | undefined) =>
  html`<option value="${value}"${value === (selected ?? '') ? html` selected` : ''}>${text}</option>`;

/** Horizontal bars of the totals, one per stage, each labelled with its stage and count. */
function chart(totals: Report['totals'], windowText: string): Html {
  const width = 640;
  const labelWidth = 130;
  const barSpace = width - labelWidth - 80;
  const rowHeight = 36;
  const top = Math.max(1, totals.created);
  const perStage = stages.map(([key, name]) => `${name}: ${count(totals[key])}`).join('; ');
  const description = `${perStage}. Monto fondeado: ${money(totals.fundedAmount)}.`;
  const font = html`fill="#1a1a1a" font-size="14"`;
  const bars = stages.map(([key, name], i) => {
    const y = i * rowHeight + 8;
    const length = Math.round((totals[key] / top) * barSpace);
    const bar = Math.max(length, 1);
    return html`<g><text x="${labelWidth - 8}" y="${y + 18}" text-anchor="end" ${font}>${name}</text>
<rect x="${labelWidth}" y="${y}" width="${bar}" height="24" fill="#1f5f8b"></rect>
<text x="${labelWidth + bar + 6}" y="${y + 18}" ${font}>${count(totals[key])}</text></g>`;
  });
  const height = stages.length * rowHeight + 12;
  const size = html`viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"`;
  return html`<svg class="chart" role="img" aria-labelledby="embudo-titulo embudo-desc" ${size}>
<title id="embudo-titulo">Embudo de solicitudes ${windowText}</title>
<desc id="embudo-desc">${description}</desc>
${bars}</svg>`;
}

/** A stage's count as a share of the previous stage's; "—" when the previous stage has none. */
export function conversion(count: number, previous: number): string {
  return previous === 0 ? '—' : percent(count / previous);
}

/** Each stage after the first as a percentage of the stage before it, over the totals. */
function conversionTable(totals: Report['totals']): Html {
  const rows = stages.slice(1).map(([key, name], i) => {
    const [previousKey, previousName] = stages[i]!;
    return html`<tr><th scope="row">${previousName} → ${name}</th><td class="number">${count(totals[key])} de ${count(
      totals[previousKey],
    )}</td><td class="number">${conversion(totals[key], totals[previousKey])}</td></tr>`;
  });
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Conversión entre etapas"><table>
<caption>Conversión entre etapas</caption>
${headRow(['Etapas', 'Solicitudes', 'Conversión'])}
<tbody>${rows}</tbody>
</table></div>`;
}

function table(report: Report): Html {
  const row = (name: Html | string, c: Report['totals'], header = false) =>
    html`<tr>${header ? html`<th scope="row">${name}</th>` : html`<td>${name}</td>`}${stages.map(
      ([key]) => html`<td class="number">${count(c[key])}</td>`,
    )}<td class="number">${money(c.fundedAmount)}</td></tr>`;
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Embudo por empresa"><table>
<caption>Embudo por empresa</caption>
${headRow(['Empresa', stages.map(([, name]) => name), 'Monto fondeado'].flat())}
<tbody>${report.items.map((i) => row(i.companyName, i))}</tbody>
<tfoot>${row('Total', report.totals, true)}</tfoot>
</table></div>`;
}

/** A date field of the filters, its refusal beside it and tied to it. */
function dayField(name: 'from' | 'to', text: string, value: string | undefined, error: string | undefined): Html {
  const invalid = error ? html` aria-invalid="true" aria-describedby="${name}-error"` : '';
  const message = error ? html`<p class="field-error" id="${name}-error">${error}</p>` : '';
  return html`<div><label for="${name}">${text}</label><input id="${name}" name="${name}" type="date" value="${
    value ?? ''
  }"${invalid}>${message}</div>`;
}

/**
 * The page: the filters, then the funnel of the window. With `errors` (a refused filter) the filters
 * show each refusal beside its field, with what was typed, and no funnel.
 */
export function reportsPage(
  context: PageContext,
  input: {
    filter: ReportFilter;
    report: Report | null;
    companies: { id: string; name: string }[];
    errors?: ReportFieldErrors;
  },
): Html {
  const { filter, report } = input;
  const errors = input.errors ?? {};
  const windowText = dayRange(filter.from, filter.to);
  const companies = [
    option('', 'Todas', filter.companyId),
    input.companies.map((c) => option(c.id, c.name, filter.companyId)),
  ];
  const form = html`<form method="get" action="/console/reports" class="filters" aria-label="Filtros del reporte">
  ${dayField('from', 'Desde', filter.from, errors.from)}
  ${dayField('to', 'Hasta', filter.to, errors.to)}
  <div><label for="companyId">Empresa</label><select id="companyId" name="companyId">${companies}</select></div>
  <div class="actions"><button type="submit">Ver reporte</button> <a href="/console/reports">Quitar filtros</a></div>
</form>`;
  const body =
    report === null
      ? ''
      : report.items.length === 0
        ? html`<p>No hay solicitudes creadas en este periodo.</p>`
        : html`<section aria-labelledby="embudo" class="card"><h2 id="embudo">Embudo ${windowText}</h2>
<p>Cada etapa cuenta las solicitudes creadas en el periodo que llegaron hasta ella.</p>
${chart(report.totals, windowText)}${conversionTable(report.totals)}${table(report)}</section>`;
  const refused = { kind: 'error', text: 'No se generó el reporte: revisa las fechas marcadas.' } as const;
  return page({ ...context, section: 'reports' }, 'Reportes', html`${form}${body}`, report ? undefined : refused);
}
