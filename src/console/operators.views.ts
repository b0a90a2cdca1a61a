/** Operators (people and tools of the lender) and the audit log: admin pages. */
import type { OperatorsService } from '../operators/index.ts';
import type { AuditService } from '../audit/index.ts';
import { html, type Html } from './html.ts';
import { dateTime, roleLabels } from './format.ts';
import { csrfField, page, type Notice, type PageContext } from './layout.ts';

type Operator = Awaited<ReturnType<OperatorsService['list']>>['items'][number];
type AuditPage = Awaited<ReturnType<AuditService['list']>>;

export function operatorsPage(
  context: PageContext,
  input: { operators: Operator[]; self: string; created?: { name: string; key: string }; notice?: Notice },
): Html {
  const created = input.created
    ? html`<section class="card highlight" aria-labelledby="clave"><h2 id="clave">Operador creado</h2><p><strong>Copia la clave de API de ${input.created.name} ahora: no se volverá a mostrar.</strong></p><p><code>${input.created.key}</code></p></section>`
    : '';
  const rows = input.operators.map(
    (
      o,
    ) => html`<tr><td>${o.name}</td><td>${o.email ?? '—'}</td><td>${roleLabels[o.role]}</td><td>${dateTime(o.createdAt)}</td>
<td>${o.id === input.self ? 'Tú' : html`<form method="post" action="/console/operators/${o.id}/delete">${csrfField(context.csrf)}<button type="submit" class="danger" aria-label="Borrar a ${o.name}">Borrar</button></form>`}</td></tr>`,
  );
  return page(
    { ...context, section: 'operators' },
    'Operadores',
    html`${created}
<div class="scroll" tabindex="0" role="region" aria-label="Operadores con acceso"><table><caption>Operadores con acceso</caption><thead><tr><th scope="col">Nombre</th><th scope="col">Correo electrónico</th><th scope="col">Rol</th><th scope="col">Alta</th><th scope="col"><span class="visually-hidden">Acciones</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>
<section class="card" aria-labelledby="nuevo"><h2 id="nuevo">Nuevo operador</h2>
<form method="post" action="/console/operators">${csrfField(context.csrf)}
<label for="name">Nombre</label><input id="name" name="name" required maxlength="200">
<label for="email">Correo electrónico</label><input id="email" name="email" type="email" maxlength="320">
<label for="role">Rol</label><select id="role" name="role"><option value="analyst">${roleLabels.analyst}</option><option value="officer">${roleLabels.officer}</option><option value="admin">${roleLabels.admin}</option></select>
<label for="password">Contraseña (12 caracteres o más; requiere correo)</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="12">
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
  const rows = audit.items.map(
    (
      r,
    ) => html`<tr><td>${dateTime(r.at)}</td><td>${operatorNames.get(r.operatorId) ?? r.operatorId}</td><td>${actionLabels[r.action] ?? r.action}</td>
<td>${r.leadId ? html`<a href="/console/leads/${r.leadId}">${r.leadId.slice(0, 8)}</a>` : '—'}</td><td>${r.rows ?? '—'}</td><td><code>${r.requestId ?? '—'}</code></td><td>${r.clientAddress ?? '—'}</td></tr>`,
  );
  return page(
    { ...context, section: 'audit' },
    'Auditoría',
    html`
<p>Quién leyó, exportó o borró datos personales. Nada borra este registro.</p>
${
  audit.items.length === 0
    ? html`<p>Sin registros.</p>`
    : html`<div class="scroll" tabindex="0" role="region" aria-label="Registros, del más reciente al más antiguo"><table><caption>Registros, del más reciente al más antiguo</caption><thead><tr><th scope="col">Fecha</th><th scope="col">Operador</th><th scope="col">Acción</th><th scope="col">Solicitud</th><th scope="col">Filas</th><th scope="col">Id. de la solicitud HTTP</th><th scope="col">Dirección IP</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
${audit.nextCursor ? html`<p class="pager"><a href="/console/audit?cursor=${audit.nextCursor}" rel="next">Siguiente página</a></p>` : ''}`,
  );
}
