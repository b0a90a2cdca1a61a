/**
 * The lender's own webhook endpoints and their deliveries (redeliver one); an endpoint disabled,
 * enabled, its secret rotated (shown once) or deleted after a confirmation page. The pages call an
 * endpoint a "receptor" and name event types in Spanish (`webhookEventLabels`).
 */
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

/** Each event type as an operator says it; an unknown one (a newer type) is shown as sent. */
export const webhookEventLabels: Readonly<Record<string, string>> = {
  'lead.created': 'Solicitud creada',
  'lead.card_created': 'Contacto guardado (tarjeta creada)',
  'lead.updated': 'Solicitud actualizada',
  'lead.pin_sent': 'PIN enviado',
  'lead.verified': 'PIN confirmado',
  'lead.prequalification_decided': 'Precalificación evaluada',
  'lead.outcome_changed': 'Decisión del otorgante cambiada',
  'lead.document_received': 'Documento recibido',
  'lead.document_reviewed': 'Documento revisado',
  'webhook.test': 'Evento de prueba',
};

const eventLabel = (type: string): string => webhookEventLabels[type] ?? type;
const eventList = (types: readonly string[] | null | undefined): string =>
  types ? types.map(eventLabel).join(', ') : 'Todos';

const deliveryStatus: Record<string, string> = {
  pending: 'Pendiente',
  succeeded: 'Entregada',
  failed: 'Fallida',
};

/** What a refused "Nuevo receptor" form held and each field's message (by the field's name). */
export interface EndpointFormState {
  values: Readonly<Record<string, string | undefined>>;
  errors: Readonly<Record<string, string>>;
}

const noState: EndpointFormState = { values: {}, errors: {} };

/** A text field, its message beside it (tied by `aria-describedby`) and the value typed. */
function textField(state: EndpointFormState, name: string, label: string, attributes: Html): Html {
  const error = state.errors[name];
  const invalid = error ? html` aria-invalid="true" aria-describedby="${name}-error"` : '';
  const message = error ? html`<p class="field-error" id="${name}-error">${error}</p>` : '';
  const input = html`<input id="${name}" name="${name}"${attributes} value="${state.values[name] ?? ''}"${invalid}>`;
  return html`<div><label for="${name}">${label}</label>${input}${message}</div>`;
}

export function webhooksPage(
  context: PageContext,
  endpoints: Endpoint[],
  notice?: Notice,
  form: EndpointFormState = noState,
): Html {
  const rows = endpoints.map((e) => {
    const url = html`<a href="/console/webhooks/${e.id}">${e.url}</a>`;
    const events = eventList(e.eventTypes);
    return html`<tr>${cells([url, events, e.enabled ? 'Sí' : 'No', dateTime(e.createdAt)])}</tr>`;
  });
  const caption = 'Receptores de los eventos de todas las empresas';
  const table =
    endpoints.length === 0
      ? html`<p>Aún no hay receptores del otorgante.</p>`
      : html`${scrollTable(caption)}${headRow(['URL', 'Eventos', 'Activo', 'Alta'])}
<tbody>${rows}</tbody></table></div>`;
  return page(
    { ...context, section: 'webhooks' },
    'Webhooks',
    html`${table}
<section aria-labelledby="nuevo" class="card"><h2 id="nuevo">Nuevo receptor</h2>
<form method="post" action="/console/webhooks">${csrfField(context.csrf)}
${textField(form, 'url', 'URL (https)', html` type="url" required maxlength="2000"`)}
${textField(form, 'description', 'Descripción (opcional)', html` maxlength="200"`)}
<button type="submit">Crear receptor</button></form></section>`,
    notice,
  );
}

/** A signing secret shown once: a new receptor's, or a rotated one (the previous stays valid a while). */
export interface ShownSecret {
  value: string;
  rotated: boolean;
}

function secretCard(secret: ShownSecret): Html {
  const title = secret.rotated ? 'Secreto de firma nuevo' : 'Secreto de firma';
  const overlap = secret.rotated
    ? html`<p>El secreto anterior sigue siendo válido 24 horas, para que cambies el receptor sin perder eventos.</p>`
    : '';
  return html`<section class="card highlight" aria-labelledby="secreto"><h2 id="secreto">${title}</h2>${[
    html`<p><strong>Copia el secreto ahora: no se volverá a mostrar.</strong></p>`,
    html`<p><code>${secret.value}</code></p>`,
    overlap,
  ]}</section>`;
}

/** Test event, disable or enable, rotate the secret, delete (on a confirmation page). */
function endpointActions(context: PageContext, endpoint: Endpoint): Html {
  const base = `/console/webhooks/${endpoint.id}`;
  const sendTest = buttonForm(`${base}/test`, context.csrf, 'Enviar evento de prueba', { kind: 'secondary' });
  const toggle = endpoint.enabled
    ? buttonForm(`${base}/disable`, context.csrf, 'Desactivar', { kind: 'secondary' })
    : buttonForm(`${base}/enable`, context.csrf, 'Activar', { kind: 'secondary' });
  const rotate = buttonForm(`${base}/rotate-secret`, context.csrf, 'Rotar el secreto de firma', { kind: 'secondary' });
  const remove = html`<a href="${base}/delete">Borrar el receptor</a>`;
  return html`<div class="actions">${sendTest}${toggle}${rotate}</div><p>${remove}</p>`;
}

export function webhookPage(
  context: PageContext,
  input: { endpoint: Endpoint; deliveries: Deliveries; secret?: ShownSecret; notice?: Notice },
): Html {
  const { endpoint, deliveries } = input;
  const rows = deliveries.items.map((d) => {
    const redeliver = buttonForm(
      `/console/webhooks/${endpoint.id}/deliveries/${d.id}/redeliver`,
      context.csrf,
      'Reenviar',
      {
        kind: 'secondary',
        label: `Reenviar ${eventLabel(d.eventType)} (${d.id.slice(0, 8)})`,
      },
    );
    const status = deliveryStatus[d.status] ?? d.status;
    const event = eventLabel(d.eventType);
    return html`<tr>${cells([event, status, lastAttempt(d.attempts), dateTime(d.nextAttemptAt)])}
<td>${redeliver}</td></tr>`;
  });
  const facts = [
    html`<dt>URL</dt><dd>${endpoint.url}</dd><dt>Eventos</dt><dd>${eventList(endpoint.eventTypes)}</dd>`,
    html`<dt>Activo</dt><dd>${endpoint.enabled ? 'Sí' : 'No (no recibe eventos)'}</dd>`,
    html`<dt>Descripción</dt><dd>${endpoint.description ?? '—'}</dd>`,
  ];
  const headings = headRow(['Evento', 'Estado', 'Intentos', 'Próximo intento', actionsHeading]);
  return page(
    { ...context, section: 'webhooks' },
    'Receptor de webhooks',
    html`
<p><a href="/console/webhooks">← Volver a los webhooks</a></p>
${input.secret ? secretCard(input.secret) : ''}
<section class="card" aria-labelledby="datos"><h2 id="datos">Datos</h2><dl class="facts">${facts}</dl>
${endpointActions(context, endpoint)}</section>
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

/** The step before deleting a receptor: what it does, "Sí, borrar" or back. */
export function deleteWebhookPage(context: PageContext, endpoint: Endpoint): Html {
  const what = 'Deja de recibir eventos y se borra su registro de entregas. No se puede deshacer.';
  return page(
    { ...context, section: 'webhooks' },
    'Borrar receptor',
    html`
<form method="post" action="/console/webhooks/${endpoint.id}/delete" class="card narrow">${csrfField(context.csrf)}
<p>¿Borrar el receptor <code>${endpoint.url}</code>? ${what}</p>
<button type="submit" class="danger">Sí, borrar</button> <a href="/console/webhooks/${endpoint.id}">Cancelar</a>
</form>`,
  );
}
