/** The lender's own webhook endpoints and their deliveries (redeliver one). */
import type { WebhooksService } from '../webhooks/index.ts';
import { html, type Html } from './html.ts';
import { dateTime } from './format.ts';
import { csrfField, page, type Notice, type PageContext } from './layout.ts';

type Endpoint = Awaited<ReturnType<WebhooksService['get']>>;
type Deliveries = Awaited<ReturnType<WebhooksService['deliveries']>>;

function lastAttempt(attempts: { at: string; statusCode: number | null; error: string | null }[]): string {
  const last = attempts[attempts.length - 1];
  if (!last) return '0';
  return `${attempts.length} (último: ${dateTime(last.at)}, ${last.statusCode ?? last.error ?? 'sin respuesta'})`;
}

const deliveryStatus: Record<string, string> = {
  pending: 'Pendiente',
  succeeded: 'Entregada',
  failed: 'Fallida',
};

export function webhooksPage(context: PageContext, endpoints: Endpoint[], notice?: Notice): Html {
  const table =
    endpoints.length === 0
      ? html`<p>Aún no hay endpoints del otorgante.</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="Endpoints que reciben los eventos de todas las empresas"><table><caption>Endpoints que reciben los eventos de todas las empresas</caption><thead><tr><th scope="col">URL</th><th scope="col">Eventos</th><th scope="col">Activo</th><th scope="col">Alta</th></tr></thead>
<tbody>${endpoints.map((e) => html`<tr><td><a href="/console/webhooks/${e.id}">${e.url}</a></td><td>${e.eventTypes?.join(', ') ?? 'Todos'}</td><td>${e.enabled ? 'Sí' : 'No'}</td><td>${dateTime(e.createdAt)}</td></tr>`)}</tbody></table></div>`;
  return page(
    { ...context, section: 'webhooks' },
    'Webhooks',
    html`${table}
<section aria-labelledby="nuevo" class="card"><h2 id="nuevo">Nuevo endpoint</h2>
<form method="post" action="/console/webhooks">${csrfField(context.csrf)}
<label for="url">URL (https)</label><input id="url" name="url" type="url" required maxlength="2000">
<label for="description">Descripción (opcional)</label><input id="description" name="description" maxlength="200">
<button type="submit">Crear endpoint</button></form></section>`,
    notice,
  );
}

export function webhookPage(
  context: PageContext,
  input: { endpoint: Endpoint; deliveries: Deliveries; secret?: string; notice?: Notice },
): Html {
  const { endpoint, deliveries } = input;
  const rows = deliveries.items.map(
    (
      d,
    ) => html`<tr><td><code>${d.eventType}</code></td><td>${deliveryStatus[d.status] ?? d.status}</td><td>${lastAttempt(d.attempts)}</td><td>${dateTime(d.nextAttemptAt)}</td>
<td><form method="post" action="/console/webhooks/${endpoint.id}/deliveries/${d.id}/redeliver">${csrfField(context.csrf)}<button type="submit" class="secondary" aria-label="Reenviar ${d.eventType} (${d.id.slice(0, 8)})">Reenviar</button></form></td></tr>`,
  );
  return page(
    { ...context, section: 'webhooks' },
    'Endpoint de webhooks',
    html`
<p><a href="/console/webhooks">← Volver a los webhooks</a></p>
${input.secret ? html`<section class="card highlight" aria-labelledby="secreto"><h2 id="secreto">Secreto de firma</h2><p><strong>Copia el secreto ahora: no se volverá a mostrar.</strong></p><p><code>${input.secret}</code></p></section>` : ''}
<section class="card" aria-labelledby="datos"><h2 id="datos">Datos</h2><dl class="facts"><dt>URL</dt><dd>${endpoint.url}</dd><dt>Eventos</dt><dd>${endpoint.eventTypes?.join(', ') ?? 'Todos'}</dd><dt>Activo</dt><dd>${endpoint.enabled ? 'Sí' : 'No'}</dd><dt>Descripción</dt><dd>${endpoint.description ?? '—'}</dd></dl>
<form method="post" action="/console/webhooks/${endpoint.id}/test">${csrfField(context.csrf)}<button type="submit" class="secondary">Enviar evento de prueba</button></form></section>
<section class="card" aria-labelledby="entregas"><h2 id="entregas">Entregas</h2>
${
  deliveries.items.length === 0
    ? html`<p>Sin entregas.</p>`
    : html`<div class="scroll" tabindex="0" role="region" aria-label="Entregas, de la más reciente a la más antigua"><table><caption>Entregas, de la más reciente a la más antigua</caption><thead><tr><th scope="col">Evento</th><th scope="col">Estado</th><th scope="col">Intentos</th><th scope="col">Próximo intento</th><th scope="col"><span class="visually-hidden">Acciones</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}</section>`,
    input.notice,
  );
}
