/**
 * The console's page shell: language, title (never personal data), the stylesheet, the navigation an
 * operator's role may use, who is signed in, the "Salir" form, and one notice.
 */
import { html, type Html } from './html.ts';
import { roleLabels } from './format.ts';
import type { Role } from '../shared/index.ts';

export interface Viewer {
  name: string;
  role: Role;
}

export interface PageContext {
  /** The CSRF token every form of the page carries. */
  csrf: string;
  viewer?: Viewer;
  /** Which navigation entry is the current page. */
  section?: Section;
}

export type Section = 'leads' | 'reports' | 'companies' | 'webhooks' | 'catalogs' | 'operators' | 'audit';

const sections: readonly { section: Section; href: string; label: string; roles: readonly Role[] }[] = [
  { section: 'leads', href: '/console/leads', label: 'Solicitudes', roles: ['admin', 'analyst', 'officer'] },
  { section: 'reports', href: '/console/reports', label: 'Reportes', roles: ['admin', 'analyst', 'officer'] },
  { section: 'companies', href: '/console/companies', label: 'Empresas', roles: ['admin', 'analyst', 'officer'] },
  { section: 'webhooks', href: '/console/webhooks', label: 'Webhooks', roles: ['admin'] },
  { section: 'catalogs', href: '/console/catalogs', label: 'Catálogos', roles: ['admin'] },
  { section: 'operators', href: '/console/operators', label: 'Operadores', roles: ['admin'] },
  { section: 'audit', href: '/console/audit', label: 'Auditoría', roles: ['admin'] },
];

export const csrfField = (csrf: string): Html => html`<input type="hidden" name="_csrf" value="${csrf}">`;

/** A form of one submit button posting to `action` with the page's CSRF token. */
export function buttonForm(
  action: string,
  csrf: string,
  text: string,
  button: { kind?: 'secondary' | 'danger' | 'link'; label?: string } = {},
): Html {
  const kind = button.kind ? html` class="${button.kind}"` : '';
  const label = button.label ? html` aria-label="${button.label}"` : '';
  const submit = html`<button type="submit"${kind}${label}>${text}</button>`;
  return html`<form method="post" action="${action}">${csrfField(csrf)}${submit}</form>`;
}

export type Notice = { kind: 'ok' | 'error'; text: string };

export function page(context: PageContext, title: string, body: Html, notice?: Notice): Html {
  const { viewer } = context;
  const nav = viewer
    ? html`<nav aria-label="Secciones"><ul>${sections
        .filter((s) => s.roles.includes(viewer.role))
        .map((s) => {
          const current = s.section === context.section ? html` aria-current="page"` : '';
          return html`<li><a href="${s.href}"${current}>${s.label}</a></li>`;
        })}</ul></nav>
      <div class="who"><span>${viewer.name} · ${roleLabels[viewer.role]}</span>
        ${buttonForm('/console/sign-out', context.csrf, 'Salir', { kind: 'secondary' })}
        ${buttonForm('/console/sessions/end-all', context.csrf, 'Cerrar todas mis sesiones', { kind: 'link' })}
      </div>`
    : '';
  const shownNotice = notice
    ? html`<p class="notice ${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}">${notice.text}</p>`
    : '';
  return html`<!doctype html>
<html lang="es-MX">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · autofin</title>
<link rel="stylesheet" href="/console/assets/console.css">
</head>
<body>
<a class="skip" href="#contenido">Saltar al contenido</a>
<header class="top"><span class="brand">autofin · Consola</span>${nav}</header>
<main id="contenido">
<h1>${title}</h1>
${shownNotice}
${body}
</main>
</body>
</html>
`;
}
