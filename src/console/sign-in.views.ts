/** The sign-in page (docs/console.md): "Correo electrónico", "Contraseña", "Entrar". */
import { html, type Html } from './html.ts';
import { csrfField, page, type Notice } from './layout.ts';

export function signInPage(input: { csrf: string; next?: string; email?: string; notice?: Notice }): Html {
  return page(
    { csrf: input.csrf },
    'Iniciar sesión',
    html`
<form method="post" action="/console/sign-in" class="card narrow">
  ${csrfField(input.csrf)}
  ${input.next ? html`<input type="hidden" name="next" value="${input.next}">` : ''}
  <label for="email">Correo electrónico</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}">
  <label for="password">Contraseña</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Entrar</button>
</form>`,
    input.notice,
  );
}
