/** The lender's own webhook endpoints and their deliveries (redeliver one). */
import type { WebhooksService } from '../webhooks/index.ts';
import { html, type Html } from './html.ts';
import { dateTime } from './format.ts';
import { buttonForm, csrfField, page, type Notice, type PageContext } from './layout.ts';
import { actionsHeading, cells, headRow, scrollTable } from './markup.ts';

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
  const rows = endpoints.map((e) => {
    const url = html`<a href="/console/webhooks/${e.id}">${e.url}</a>`;
    const events = e.eventTypes?.join(', ') ?? 'Todos';
    return html`<tr>${cells([url, events, e.enabled ? 'Sí' : 'No', dateTime(e.createdAt)])}</tr>`;
  });
  const caption = 'Endpoints que reciben los eventos de todas las empresas';
  const table =
    endpoints.length === 0
      ? html`<p>Aún no hay endpoints del otorgante.</p>`
      : html`${scrollTable(caption)}${headRow(['URL', 'Eventos', 'Activo', 'Alta'])}
<tbody>${rows}</tbody></table></div>`;
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
  const rows = deliveries.items.map((d) => {
    const redeliver = buttonForm(
      `/console/webhooks/${endpoint.id}/deliveries/${d.id}/redeliver`,
      context.csrf,
      'Reenviar',
      {
        kind: 'secondary',
        label: `Reenviar ${d.eventType} (${d.id.slice(0, 8)})`,
      },
    );
    const status = deliveryStatus[d.status] ?? d.status;
    const event = html`<code>${d.eventType}</code>`;
    return html`<tr>${cells([event, status, lastAttempt(d.attempts), dateTime(d.nextAttemptAt)])}
<td>${redeliver}</td></tr>`;
  });
  const secret = input.secret
    ? html`<section class="card highlight" aria-labelledby="secreto"><h2 id="secreto">Secreto de firma</h2>${[
        html`<p><strong>Copia el secreto ahora: no se volverá a mostrar.</strong></p>`,
        html`<p><code>${input.secret}</code></p>`,
      ]}</section>`
    : '';
  const facts = [
    html`<dt>URL</dt><dd>${endpoint.url}</dd><dt>Eventos</dt><dd>${endpoint.eventTypes?.join(', ') ?? 'Todos'}</dd>`,
    html`<dt>Activo</dt><dd>${endpoint.enabled ? 'Sí' : 'No'}</dd>`,
    html`<dt>Descripción</dt><dd>${endpoint.description ?? '—'}</dd>`,
  ];
  const sendTest = buttonForm(`/console/webhooks/${endpoint.id}/test`, context.csrf, 'Enviar evento de prueba', {
    kind: 'secondary',
  });
  const headings = headRow(['Evento', 'Estado', 'Intentos', 'Próximo intento', actionsHeading]);
  return page(
    { ...context, section: 'webhooks' },
    'Endpoint de webhooks',
    html`
<p><a href="/console/webhooks">← Volver a los webhooks</a></p>
${secret}
<section class="card" aria-labelledby="datos"><h2 id="datos">Datos</h2><dl class="facts">${facts}</dl>
${sendTest}</section>
<section class="card" aria-labelledby="entregas"><h2 id="entregas">Entregas</h2>
${
  deliveries.items.length === 0
    ? html`<p>Sin entregas.</p>`
    : html`${scrollTable('Entregas, de la más reciente a la más antigua')}${headings}
<tbody>${rows}</tbody></table></div>`
}</section>`,
    input.notice,
  );
}
