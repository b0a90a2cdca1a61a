/** Companies, their credentials (a new secret shown once; revocation confirmed first) and affiliates. */
import type { CompaniesService, CredentialSecret } from '../companies/index.ts';
import { html, type Html } from './html.ts';
import { dateTime } from './format.ts';
import { csrfField, page, type Notice, type PageContext } from './layout.ts';

type Company = Awaited<ReturnType<CompaniesService['showCompany']>>;
type Credentials = Awaited<ReturnType<CompaniesService['listCredentials']>>['items'];
type Affiliates = Awaited<ReturnType<CompaniesService['listAffiliates']>>['items'];

export function companiesPage(context: PageContext, companies: Company[], notice?: Notice): Html {
  const admin = context.viewer?.role === 'admin';
  const table =
    companies.length === 0
      ? html`<p>Aún no hay empresas.</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="Empresas socias"><table><caption>Empresas socias</caption><thead><tr><th scope="col">Empresa</th><th scope="col">Alta</th><th scope="col">Id</th></tr></thead>
<tbody>${companies.map((c) => html`<tr><td>${admin ? html`<a href="/console/companies/${c.id}">${c.name}</a>` : c.name}</td><td>${dateTime(c.createdAt)}</td><td><code>${c.id}</code></td></tr>`)}</tbody></table></div>`;
  const create = admin
    ? html`<section aria-labelledby="nueva" class="card"><h2 id="nueva">Nueva empresa</h2>
<form method="post" action="/console/companies">${csrfField(context.csrf)}
<label for="name">Nombre de la empresa</label><input id="name" name="name" required maxlength="200">
<button type="submit">Crear empresa</button></form></section>`
    : '';
  return page({ ...context, section: 'companies' }, 'Empresas', html`${table}${create}`, notice);
}

export function companyPage(
  context: PageContext,
  input: {
    company: Company;
    credentials: Credentials;
    affiliates: Affiliates;
    secret?: CredentialSecret;
    notice?: Notice;
  },
): Html {
  const { company, secret } = input;
  const shownSecret = secret
    ? html`<section aria-labelledby="secreto" class="card highlight"><h2 id="secreto">Credencial creada</h2>
<p><strong>Copia el secreto ahora: no se volverá a mostrar.</strong></p>
<dl class="facts"><dt>consumer_key</dt><dd><code>${secret.consumer_key}</code></dd><dt>consumer_secret</dt><dd><code>${secret.consumer_secret}</code></dd></dl></section>`
    : '';
  const credentials = html`<section aria-labelledby="credenciales" class="card"><h2 id="credenciales">Credenciales</h2>
${
  input.credentials.length === 0
    ? html`<p>Sin credenciales.</p>`
    : html`<div class="scroll" tabindex="0" role="region" aria-label="Credenciales de la empresa"><table><caption>Credenciales de la empresa</caption><thead><tr><th scope="col">consumer_key</th><th scope="col">Creada</th><th scope="col">Estado</th><th scope="col"><span class="visually-hidden">Acciones</span></th></tr></thead>
<tbody>${input.credentials.map(
        (
          c,
        ) => html`<tr><td><code>${c.consumer_key}</code></td><td>${dateTime(c.createdAt)}</td><td>${c.revokedAt ? `Revocada el ${dateTime(c.revokedAt)}` : 'Activa'}</td>
<td>${c.revokedAt ? '' : html`<a href="/console/companies/${company.id}/credentials/${c.consumer_key}/revoke" aria-label="Revocar ${c.consumer_key}">Revocar</a>`}</td></tr>`,
      )}</tbody></table></div>`
}
<form method="post" action="/console/companies/${company.id}/credentials">${csrfField(context.csrf)}<button type="submit">Crear credencial</button></form></section>`;
  const affiliates = html`<section aria-labelledby="afiliados" class="card"><h2 id="afiliados">Afiliados</h2>
${
  input.affiliates.length === 0
    ? html`<p>Sin afiliados.</p>`
    : html`<div class="scroll" tabindex="0" role="region" aria-label="Afiliados de la empresa"><table><caption>Afiliados de la empresa</caption><thead><tr><th scope="col">user_id</th><th scope="col">Tipo</th></tr></thead>
<tbody>${input.affiliates.map((a) => html`<tr><td><code>${a.user_id}</code></td><td>${a.user_type}</td></tr>`)}</tbody></table></div>`
}
<form method="post" action="/console/companies/${company.id}/affiliates">${csrfField(context.csrf)}
<label for="user_type">Tipo de afiliado</label><input id="user_type" name="user_type" required maxlength="50" value="DEALER">
<label for="user_id">user_id (opcional, UUID)</label><input id="user_id" name="user_id" maxlength="36">
<button type="submit">Agregar afiliado</button></form></section>`;
  return page(
    { ...context, section: 'companies' },
    `Empresa: ${company.name}`,
    html`
<p><a href="/console/companies">← Volver a las empresas</a></p>
${shownSecret}${credentials}${affiliates}`,
    input.notice,
  );
}

export function revokeCredentialPage(context: PageContext, company: Company, consumerKey: string): Html {
  return page(
    { ...context, section: 'companies' },
    'Revocar credencial',
    html`
<form method="post" action="/console/companies/${company.id}/credentials/${consumerKey}/revoke" class="card narrow">${csrfField(context.csrf)}
<p>¿Revocar la credencial <code>${consumerKey}</code> de ${company.name}? Sus tokens dejan de funcionar en menos de un segundo. No se puede deshacer.</p>
<button type="submit" class="danger">Revocar</button> <a href="/console/companies/${company.id}">Cancelar</a>
</form>`,
  );
}
