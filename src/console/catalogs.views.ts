/** Catalogs: what is in force (rows, when imported, checksum) and importing a new file. */
import type { CatalogMeta, CatalogKind } from '../catalogs/index.ts';
import { html, type Html } from './html.ts';
import { count, dateTime } from './format.ts';
import { csrfField, page, type Notice, type PageContext } from './layout.ts';

export const catalogNames: Record<CatalogKind, string> = {
  vehicles: 'Vehículos',
  zipCodes: 'Códigos postales (SEPOMEX)',
};

export function catalogsPage(
  context: PageContext,
  catalogs: { kind: CatalogKind; meta: CatalogMeta | undefined }[],
  notice?: Notice,
): Html {
  return page(
    { ...context, section: 'catalogs' },
    'Catálogos',
    html`
<div class="scroll" tabindex="0" role="region" aria-label="Catálogos en vigor"><table><caption>Catálogos en vigor</caption><thead><tr><th scope="col">Catálogo</th><th scope="col">Registros</th><th scope="col">Última importación</th><th scope="col">SHA-256</th></tr></thead>
<tbody>${catalogs.map((c) => html`<tr><td>${catalogNames[c.kind]}</td><td>${count(c.meta?.rowCount)}</td><td>${dateTime(c.meta?.importedAt)}</td><td><code class="hash">${c.meta?.sha256 ?? '—'}</code></td></tr>`)}</tbody></table></div>
<section class="card" aria-labelledby="importar"><h2 id="importar">Importar un archivo</h2>
<p>CSV en UTF-8 con el encabezado documentado, o el mismo CSV comprimido con gzip. El archivo se toma completo o se rechaza completo; el catálogo vigente no cambia si hay un error.</p>
<form method="post" action="/console/catalogs/import" enctype="multipart/form-data">${csrfField(context.csrf)}
<label for="kind">Catálogo</label><select id="kind" name="kind">${catalogs.map((c) => html`<option value="${c.kind}">${catalogNames[c.kind]}</option>`)}</select>
<label for="file">Archivo</label><input id="file" name="file" type="file" required accept=".csv,.gz,text/csv,application/gzip">
<button type="submit">Importar</button></form></section>`,
    notice,
  );
}
