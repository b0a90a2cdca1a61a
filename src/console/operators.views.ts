/** Operators (people and tools of the lender) and the audit log: admin pages. */
import type { OperatorsService } from '../operators/index.ts';
import type { AuditService } from '../audit/index.ts';
import { html, type Html } from './html.ts';
import { dateTime, roleLabels } from './format.ts';
import { buttonForm, csrfField, page, type Notice, type PageContext } from './layout.ts';
import { actionsHeading, cells, headRow, scrollTable } from './markup.ts';

type Operator = Awaited<ReturnType<OperatorsService['list']>>['items'][number];
type AuditPage = Awaited<ReturnType<AuditService['list']>>;

export function operatorsPage(
  context: PageContext,
  input: { operators: Operator[]; self: string; created?: { name: string; key: string }; notice?: Notice },
): Html {
  const created = input.created
    ? html`<section class="card highlight" aria-labelledby="clave"><h2 id="clave">Operador creado</h2>${[
        html`<p><strong>Copia la clave de API de ${input.created.name} ahora: no se volverá a mostrar.</strong></p>`,
        html`<p><code>${input.created.key}</code></p>`,
      ]}</section>`
    : '';
  const rows = input.operators.map((o) => {
    const remove = buttonForm(`/console/operators/${o.id}/delete`, context.csrf, 'Borrar', {
      kind: 'danger',
      label: `Borrar a ${o.name}`,
    });
    return html`<tr>${cells([o.name, o.email ?? '—', roleLabels[o.role], dateTime(o.createdAt)])}
<td>${o.id === input.self ? 'Tú' : remove}</td></tr>`;
  });
  const headings = headRow(['Nombre', 'Correo electrónico', 'Rol', 'Alta', actionsHeading]);
  const roles = (['analyst', 'officer', 'admin'] as const).map(
    (role) => html`<option value="${role}">${roleLabels[role]}</option>`,
  );
  const password = [
    html`<label for="password">Contraseña (12 caracteres o más; requiere correo)</label>`,
    html`<input id="password" name="password" type="password" autocomplete="new-password" minlength="12">`,
  ];
  return page(
    { ...context, section: 'operators' },
    'Operadores',
    html`${created}
${scrollTable('Operadores con acceso')}${headings}
<tbody>${rows}</tbody></table></div>
<section class="card" aria-labelledby="nuevo"><h2 id="nuevo">Nuevo operador</h2>
<form method="post" action="/console/operators">${csrfField(context.csrf)}
<label for="name">Nombre</label><input id="name" name="name" required maxlength="200">
<label for="email">Correo electrónico</label><input id="email" name="email" type="email" maxlength="320">
<label for="role">Rol</label><select id="role" name="role">${roles}</select>
${password}
<button type="submit">Crear operador</button></form></section>`,
    input.notice,
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
