/**
 * `/console/reports`: the funnel of the leads created in a window, drawn as a server-rendered SVG
 * bar chart (a title and a description for screen readers) with the same numbers in a table.
 */
import type { FunnelService } from '../outcomes/index.ts';
import { html, type Html } from './html.ts';
import { count, money } from './format.ts';
import { page, type PageContext } from './layout.ts';
import { headRow } from './markup.ts';

type Report = Awaited<ReturnType<FunnelService['report']>>;

export interface ReportFilter {
  from?: string;
  to?: string;
  companyId?: string;
}

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

export function reportsPage(
  context: PageContext,
  input: { filter: ReportFilter; report: Report; companies: { id: string; name: string }[] },
): Html {
  const { filter, report } = input;
  const windowText =
    filter.from || filter.to ? `del ${filter.from ?? 'inicio'} al ${filter.to ?? 'día de hoy'}` : 'de todo el periodo';
  const companies = [
    option('', 'Todas', filter.companyId),
    input.companies.map((c) => option(c.id, c.name, filter.companyId)),
  ];
  const form = html`<form method="get" action="/console/reports" class="filters" aria-label="Filtros del reporte">
  <div><label for="from">Desde</label><input id="from" name="from" type="date" value="${filter.from ?? ''}"></div>
  <div><label for="to">Hasta</label><input id="to" name="to" type="date" value="${filter.to ?? ''}"></div>
  <div><label for="companyId">Empresa</label><select id="companyId" name="companyId">${companies}</select></div>
  <div class="actions"><button type="submit">Ver reporte</button> <a href="/console/reports">Quitar filtros</a></div>
</form>`;
  const body =
    report.items.length === 0
      ? html`<p>No hay solicitudes creadas en este periodo.</p>`
      : html`<section aria-labelledby="embudo" class="card"><h2 id="embudo">Embudo ${windowText}</h2>
<p>Cada etapa cuenta las solicitudes creadas en el periodo que llegaron hasta ella.</p>
${chart(report.totals, windowText)}${table(report)}</section>`;
  return page({ ...context, section: 'reports' }, 'Reportes', html`${form}${body}`);
}
