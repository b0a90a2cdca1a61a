/** Companies, their credentials (a new secret shown once; revocation confirmed first) and affiliates. */
import type { CompaniesService, CredentialSecret } from '../companies/index.ts';
import { html, type Html } from './html.ts';
import { dateTime } from './format.ts';
import { buttonForm, csrfField, page, type Notice, type PageContext } from './layout.ts';
import { actionsHeading, cells, headRow, scrollTable } from './markup.ts';

type Company = Awaited<ReturnType<CompaniesService['showCompany']>>;
type Credentials = Awaited<ReturnType<CompaniesService['listCredentials']>>['items'];
type Affiliates = Awaited<ReturnType<CompaniesService['listAffiliates']>>['items'];

export function companiesPage(context: PageContext, companies: Company[], notice?: Notice): Html {
  const admin = context.viewer?.role === 'admin';
  const rows = companies.map((c) => {
    const name = admin ? html`<a href="/console/companies/${c.id}">${c.name}</a>` : c.name;
    return html`<tr>${cells([name, dateTime(c.createdAt), html`<code>${c.id}</code>`])}</tr>`;
  });
  const table =
    companies.length === 0
      ? html`<p>Aún no hay empresas.</p>`
      : html`${scrollTable('Empresas socias')}${headRow(['Empresa', 'Alta', 'Id'])}
<tbody>${rows}</tbody></table></div>`;
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
<dl class="facts">${[
        html`<dt>consumer_key</dt><dd><code>${secret.consumer_key}</code></dd>`,
        html`<dt>consumer_secret</dt><dd><code>${secret.consumer_secret}</code></dd>`,
      ]}</dl></section>`
    : '';
  const credentialRows = input.credentials.map((c) => {
    const state = c.revokedAt ? `Revocada el ${dateTime(c.revokedAt)}` : 'Activa';
    const revokeUrl = `/console/companies/${company.id}/credentials/${c.consumer_key}/revoke`;
    const revoke = html`<a href="${revokeUrl}" aria-label="Revocar ${c.consumer_key}">Revocar</a>`;
    return html`<tr>${cells([html`<code>${c.consumer_key}</code>`, dateTime(c.createdAt), state])}
<td>${c.revokedAt ? '' : revoke}</td></tr>`;
  });
  const credentialHeadings = headRow(['consumer_key', 'Creada', 'Estado', actionsHeading]);
  const createCredential = buttonForm(`/console/companies/${company.id}/credentials`, context.csrf, 'Crear credencial');
  const credentials = html`<section aria-labelledby="credenciales" class="card"><h2 id="credenciales">Credenciales</h2>
${
  input.credentials.length === 0
    ? html`<p>Sin credenciales.</p>`
    : html`${scrollTable('Credenciales de la empresa')}${credentialHeadings}
<tbody>${credentialRows}</tbody></table></div>`
}
${createCredential}</section>`;
  const affiliateRows = input.affiliates.map(
    (a) => html`<tr>${cells([html`<code>${a.user_id}</code>`, a.user_type])}</tr>`,
  );
  const userType = [
    html`<label for="user_type">Tipo de afiliado</label>`,
    html`<input id="user_type" name="user_type" required maxlength="50" value="DEALER">`,
  ];
  const affiliates = html`<section aria-labelledby="afiliados" class="card"><h2 id="afiliados">Afiliados</h2>
${
  input.affiliates.length === 0
    ? html`<p>Sin afiliados.</p>`
    : html`${scrollTable('Afiliados de la empresa')}${headRow(['user_id', 'Tipo'])}
<tbody>${affiliateRows}</tbody></table></div>`
}
<form method="post" action="/console/companies/${company.id}/affiliates">${csrfField(context.csrf)}
${userType}
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
  const action = `/console/companies/${company.id}/credentials/${consumerKey}/revoke`;
  const warning = 'Sus tokens dejan de funcionar en menos de un segundo. No se puede deshacer.';
  return page(
    { ...context, section: 'companies' },
    'Revocar credencial',
    html`
<form method="post" action="${action}" class="card narrow">${csrfField(context.csrf)}
<p>¿Revocar la credencial <code>${consumerKey}</code> de ${company.name}? ${warning}</p>
<button type="submit" class="danger">Revocar</button> <a href="/console/companies/${company.id}">Cancelar</a>
</form>`,
  );
}
