/** Companies, their credentials (a new secret shown once; revocation confirmed first) and affiliates. */
import type { CompaniesService, CredentialSecret } from '../companies/index.ts';
import { html, type Html } from './html.ts';
import { dateTime } from './format.ts';
import { buttonForm, csrfField, page, type Notice, type PageContext } from './layout.ts';
import { actionsHeading, cells, headRow, scrollTable } from './markup.ts';
import { AFFILIATE_TYPES, affiliateTypeLabel, affiliateTypeLabels } from './companies-affiliate-types.ts';

type Company = Awaited<ReturnType<CompaniesService['showCompany']>>;
type Credentials = Awaited<ReturnType<CompaniesService['listCredentials']>>['items'];
type Affiliates = Awaited<ReturnType<CompaniesService['listAffiliates']>>['items'];

/** What a refused form held and each field's message (by the field's name). */
export interface CompanyFormState {
  values: Readonly<Record<string, string | undefined>>;
  errors: Readonly<Record<string, string>>;
}

const noState: CompanyFormState = { values: {}, errors: {} };

/** A control's message beside it, and the attributes that tie the control to it (and to its hint). */
function fieldError(state: CompanyFormState, name: string, hint?: string): { attributes: Html; message: Html } {
  const error = state.errors[name];
  const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  const invalid = error ? html` aria-invalid="true"` : '';
  return {
    attributes: html`${invalid}${described ? html` aria-describedby="${described}"` : ''}`,
    message: error ? html`<p class="field-error" id="${name}-error">${error}</p>` : html``,
  };
}

function textField(state: CompanyFormState, name: string, label: string, attributes: Html, hint?: string): Html {
  const error = fieldError(state, name, hint);
  const input = html`<input id="${name}" name="${name}"${attributes} value="${state.values[name] ?? ''}"${
    error.attributes
  }>`;
  const shownHint = hint ? html`<p class="muted" id="${name}-hint">${hint}</p>` : '';
  return html`<div><label for="${name}">${label}</label>${input}${shownHint}${error.message}</div>`;
}

function affiliateTypeField(state: CompanyFormState): Html {
  const chosen = state.values.user_type ?? 'DEALER';
  const options = AFFILIATE_TYPES.map(
    (type) =>
      html`<option value="${type}"${type === chosen ? html` selected` : ''}>${affiliateTypeLabels[type]}</option>`,
  );
  const error = fieldError(state, 'user_type');
  const select = html`<select id="user_type" name="user_type"${error.attributes}>${options}</select>`;
  return html`<div><label for="user_type">Tipo de afiliado</label>${select}${error.message}</div>`;
}

const refusedSummary = (state: CompanyFormState, text: string): Html =>
  Object.keys(state.errors).length > 0 ? html`<p class="notice error" role="alert">${text}</p>` : html``;

export function companiesPage(
  context: PageContext,
  companies: Company[],
  notice?: Notice,
  form: CompanyFormState = noState,
): Html {
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
${refusedSummary(form, 'No se creó la empresa: revisa los datos marcados.')}
${textField(form, 'name', 'Nombre de la empresa', html` required maxlength="200"`)}
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
    /** A refused "Agregar afiliado" form. */
    affiliateForm?: CompanyFormState;
  },
): Html {
  const affiliateForm = input.affiliateForm ?? noState;
  const { company, secret } = input;
  const shownSecret = secret
    ? html`<section aria-labelledby="secreto" class="card highlight"><h2 id="secreto">Credencial creada</h2>
<p><strong>Copia el secreto ahora: no se volverá a mostrar.</strong></p>
<dl class="facts">${[
        html`<dt>Clave de consumidor</dt><dd><code>${secret.consumer_key}</code></dd>`,
        html`<dt>Secreto de consumidor</dt><dd><code>${secret.consumer_secret}</code></dd>`,
      ]}</dl></section>`
    : '';
  const credentialRows = input.credentials.map((c) => {
    const state = c.revokedAt ? `Revocada el ${dateTime(c.revokedAt)}` : 'Activa';
    const revokeUrl = `/console/companies/${company.id}/credentials/${c.consumer_key}/revoke`;
    const revoke = html`<a href="${revokeUrl}" aria-label="Revocar ${c.consumer_key}">Revocar</a>`;
    return html`<tr>${cells([html`<code>${c.consumer_key}</code>`, dateTime(c.createdAt), state])}
<td>${c.revokedAt ? '' : revoke}</td></tr>`;
  });
  const credentialHeadings = headRow(['Clave de consumidor', 'Creada', 'Estado', actionsHeading]);
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
    (a) => html`<tr>${cells([html`<code>${a.user_id}</code>`, affiliateTypeLabel(a.user_type)])}</tr>`,
  );
  const userId = textField(
    affiliateForm,
    'user_id',
    'Identificador del usuario (opcional)',
    html` maxlength="36" autocomplete="off"`,
    'Un UUID, como 123e4567-e89b-12d3-a456-426614174000. Si lo dejas vacío se genera uno.',
  );
  const affiliates = html`<section aria-labelledby="afiliados" class="card"><h2 id="afiliados">Afiliados</h2>
${
  input.affiliates.length === 0
    ? html`<p>Sin afiliados.</p>`
    : html`${scrollTable('Afiliados de la empresa')}${headRow(['Identificador del usuario', 'Tipo'])}
<tbody>${affiliateRows}</tbody></table></div>`
}
<form method="post" action="/console/companies/${company.id}/affiliates" aria-labelledby="agregar-afiliado">
${csrfField(context.csrf)}<h3 id="agregar-afiliado">Agregar afiliado</h3>
${refusedSummary(affiliateForm, 'No se agregó el afiliado: revisa los datos marcados.')}
${affiliateTypeField(affiliateForm)}
${userId}
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
