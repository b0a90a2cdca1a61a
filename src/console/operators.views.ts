/** Operators (people and tools of the lender) and the audit log: admin pages. */
import type { OperatorsService } from '../operators/index.ts';
import type { AuditService } from '../audit/index.ts';
import { html, type Html } from './html.ts';
import { dateTime, roleLabels } from './format.ts';
import { csrfField, page, type Notice, type PageContext } from './layout.ts';
import { actionsHeading, cells, headRow, scrollTable } from './markup.ts';

type Operator = Awaited<ReturnType<OperatorsService['list']>>['items'][number];
type AuditPage = Awaited<ReturnType<AuditService['list']>>;

/** What a refused "Nuevo operador" form held (the password never comes back) and each field's message. */
export interface OperatorFormState {
  values: Readonly<Record<string, string | undefined>>;
  errors: Readonly<Record<string, string>>;
}

const noState: OperatorFormState = { values: {}, errors: {} };

/** A control's message beside it, and the attributes that tie the control to it. */
function fieldError(state: OperatorFormState, name: string): { attributes: Html; message: Html } {
  const error = state.errors[name];
  if (!error) return { attributes: html``, message: html`` };
  return {
    attributes: html` aria-invalid="true" aria-describedby="${name}-error"`,
    message: html`<p class="field-error" id="${name}-error">${error}</p>`,
  };
}

function textField(state: OperatorFormState, name: string, label: string, attributes: Html): Html {
  const error = fieldError(state, name);
  const input = html`<input id="${name}" name="${name}"${attributes} value="${state.values[name] ?? ''}"${
    error.attributes
  }>`;
  return html`<div><label for="${name}">${label}</label>${input}${error.message}</div>`;
}

function roleField(state: OperatorFormState): Html {
  const roles = (['analyst', 'officer', 'admin'] as const).map((role) => {
    const selected = role === state.values.role ? html` selected` : '';
    return html`<option value="${role}"${selected}>${roleLabels[role]}</option>`;
  });
  const error = fieldError(state, 'role');
  const select = html`<select id="role" name="role"${error.attributes}>${roles}</select>`;
  return html`<div><label for="role">Rol</label>${select}${error.message}</div>`;
}

function passwordField(state: OperatorFormState): Html {
  const error = fieldError(state, 'password');
  // A refused form never sends a password back: when one was typed, the page asks for it again.
  const again = !error.message.text && state.values.password;
  const note = again ? html`<p class="muted" id="password-again">Vuelve a escribir la contraseña.</p>` : '';
  const described = again ? html` aria-describedby="password-again"` : error.attributes;
  const input = html`<input id="password" name="password" type="password" autocomplete="new-password" minlength="12"${
    described
  }>`;
  const label = html`<label for="password">Contraseña (12 caracteres o más; requiere correo)</label>`;
  return html`<div>${label}${input}${error.message}${note}</div>`;
}

function newOperatorForm(csrf: string, state: OperatorFormState): Html {
  const refused = Object.keys(state.errors).length > 0;
  const summary = refused
    ? html`<p class="notice error" role="alert">No se creó el operador: revisa los datos marcados.</p>`
    : '';
  return html`<section class="card" aria-labelledby="nuevo"><h2 id="nuevo">Nuevo operador</h2>
<form method="post" action="/console/operators">${csrfField(csrf)}
${summary}
${textField(state, 'name', 'Nombre', html` required maxlength="200" autocomplete="off"`)}
${textField(state, 'email', 'Correo electrónico', html` type="email" maxlength="320" autocomplete="off"`)}
${roleField(state)}
${passwordField(state)}
<button type="submit">Crear operador</button></form></section>`;
}

export function operatorsPage(
  context: PageContext,
  input: {
    operators: Operator[];
    self: string;
    created?: { name: string; key: string };
    notice?: Notice;
    form?: OperatorFormState;
  },
): Html {
  const created = input.created
    ? html`<section class="card highlight" aria-labelledby="clave"><h2 id="clave">Operador creado</h2>${[
        html`<p><strong>Copia la clave de API de ${input.created.name} ahora: no se volverá a mostrar.</strong></p>`,
        html`<p><code>${input.created.key}</code></p>`,
      ]}</section>`
    : '';
  const rows = input.operators.map((o) => {
    // Deleting is confirmed on a page of its own first (a link, so it needs no script).
    const remove = html`<a href="/console/operators/${o.id}/delete" aria-label="Borrar a ${o.name}">Borrar</a>`;
    return html`<tr>${cells([o.name, o.email ?? '—', roleLabels[o.role], dateTime(o.createdAt)])}
<td>${o.id === input.self ? 'Tú' : remove}</td></tr>`;
  });
  const headings = headRow(['Nombre', 'Correo electrónico', 'Rol', 'Alta', actionsHeading]);
  return page(
    { ...context, section: 'operators' },
    'Operadores',
    html`${created}
${scrollTable('Operadores con acceso')}${headings}
<tbody>${rows}</tbody></table></div>
${newOperatorForm(context.csrf, input.form ?? noState)}`,
    input.notice,
  );
}

/** The step before deleting an operator: what it does, "Sí, borrar" or back. */
export function deleteOperatorPage(context: PageContext, operator: Operator): Html {
  const what = 'Deja de tener acceso: su clave de API deja de funcionar y sus sesiones terminan. No se puede deshacer.';
  return page(
    { ...context, section: 'operators' },
    'Borrar operador',
    html`
<form method="post" action="/console/operators/${operator.id}/delete" class="card narrow">${csrfField(context.csrf)}
<p>¿Borrar a ${operator.name} (${roleLabels[operator.role]})? ${what}</p>
<button type="submit" class="danger">Sí, borrar</button> <a href="/console/operators">Cancelar</a>
</form>`,
  );
}

const actionLabels: Record<string, string> = {
  'lead.read': 'Lectura de solicitud',
  'leads.export': 'Exportación',
  'lead.personal_data_erased': 'Borrado de datos personales',
};

export function auditPage(context: PageContext, audit: AuditPage, operatorNames: Map<string, string>): Html {
  const rows = audit.items.map((r) => {
    const who = operatorNames.get(r.operatorId) ?? r.operatorId;
    const lead = r.leadId ? html`<a href="/console/leads/${r.leadId}">${r.leadId.slice(0, 8)}</a>` : '—';
    return html`<tr>${cells([dateTime(r.at), who, actionLabels[r.action] ?? r.action])}
${cells([lead, r.rows ?? '—', html`<code>${r.requestId ?? '—'}</code>`, r.clientAddress ?? '—'])}</tr>`;
  });
  const caption = 'Registros, del más reciente al más antiguo';
  const headings = ['Fecha', 'Operador', 'Acción', 'Solicitud', 'Filas', 'Id. de la solicitud HTTP', 'Dirección IP'];
  const next = audit.nextCursor
    ? html`<p class="pager"><a href="/console/audit?cursor=${audit.nextCursor}" rel="next">Siguiente página</a></p>`
    : '';
  return page(
    { ...context, section: 'audit' },
    'Auditoría',
    html`
<p>Quién leyó, exportó o borró datos personales. Nada borra este registro.</p>
${
  audit.items.length === 0
    ? html`<p>Sin registros.</p>`
    : html`${scrollTable(caption)}${headRow(headings)}
<tbody>${rows}</tbody></table></div>`
}
${next}`,
  );
}
