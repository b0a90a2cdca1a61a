/** Catalogs: what is in force (rows, when imported, checksum) and importing a new file. */
import type { CatalogMeta, CatalogKind } from '../catalogs/index.ts';
import { html, type Html } from './html.ts';
import { count, dateTime } from './format.ts';
import { csrfField, page, type Notice, type PageContext } from './layout.ts';
import { cells, headRow, scrollTable } from './markup.ts';

export const catalogNames: Record<CatalogKind, string> = {
  vehicles: 'Vehículos',
  zipCodes: 'Códigos postales (SEPOMEX)',
};

const importRules =
  'CSV en UTF-8 con el encabezado documentado, o el mismo CSV comprimido con gzip. El archivo se toma completo ' +
  'o se rechaza completo; el catálogo vigente no cambia si hay un error.';

export function catalogsPage(
  context: PageContext,
  catalogs: { kind: CatalogKind; meta: CatalogMeta | undefined }[],
  notice?: Notice,
): Html {
  const rows = catalogs.map(
    (c) =>
      html`<tr>${cells([
        catalogNames[c.kind],
        count(c.meta?.rowCount),
        dateTime(c.meta?.importedAt),
        html`<code class="hash">${c.meta?.sha256 ?? '—'}</code>`,
      ])}</tr>`,
  );
  const kinds = catalogs.map((c) => html`<option value="${c.kind}">${catalogNames[c.kind]}</option>`);
  const file = [
    html`<label for="file">Archivo</label>`,
    html`<input id="file" name="file" type="file" required accept=".csv,.gz,text/csv,application/gzip">`,
  ];
  return page(
    { ...context, section: 'catalogs' },
    'Catálogos',
    html`
${scrollTable('Catálogos en vigor')}${headRow(['Catálogo', 'Registros', 'Última importación', 'SHA-256'])}
<tbody>${rows}</tbody></table></div>
<section class="card" aria-labelledby="importar"><h2 id="importar">Importar un archivo</h2>
<p>${importRules}</p>
<form method="post" action="/console/catalogs/import" enctype="multipart/form-data">${csrfField(context.csrf)}
<label for="kind">Catálogo</label><select id="kind" name="kind">${kinds}</select>
${file}
<button type="submit">Importar</button></form></section>`,
    notice,
  );
}
