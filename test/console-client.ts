/**
 * Test helper: a browser-like client of the console over `app.inject`, keeping its cookies and
 * reading each page's CSRF token, so route tests read as a person's clicks.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export interface ConsoleClient {
  cookies: Map<string, string>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** A form post; `_csrf` is the token of the last page read unless the form gives its own. */
  post(url: string, form?: Record<string, string>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  csrf(): string;
  signIn(email: string, password: string): Promise<LightMyRequestResponse>;
}

export const csrfOf = (body: string): string | undefined => /name="_csrf" value="([^"]+)"/.exec(body)?.[1];

/**
 * `remoteAddress` is the client's address as the service sees it (127.0.0.1 by default); a test whose
 * limits are shared through Redis with other runs gives its own, so their attempts never add up.
 */
export function consoleClient(
  app: FastifyInstance,
  { host = 'console.example.mx', remoteAddress }: { host?: string; remoteAddress?: string } = {},
): ConsoleClient {
  const cookies = new Map<string, string>();
  let lastToken: string | undefined;

  function keep(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now());
      if (expired) cookies.delete(cookie.name);
      else cookies.set(cookie.name, cookie.value);
    }
    const token = typeof response.body === 'string' ? csrfOf(response.body) : undefined;
    if (token) lastToken = token;
    return response;
  }
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');

  const client: ConsoleClient = {
    cookies,
    async get(url, headers = {}) {
      return keep(
        await app.inject({ method: 'GET', url, remoteAddress, headers: { host, cookie: cookieHeader(), ...headers } }),
      );
    },
    async post(url, form = {}, headers = {}) {
      const body = new URLSearchParams({ ...(lastToken && !('_csrf' in form) ? { _csrf: lastToken } : {}), ...form });
      return keep(
        await app.inject({
          method: 'POST',
          url,
          remoteAddress,
          payload: body.toString(),
          headers: { host, cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
        }),
      );
    },
    csrf() {
      assert.ok(lastToken, 'no page with a form was read yet');
      return lastToken;
    },
    async signIn(email, password) {
      await client.get('/console/sign-in');
      return client.post('/console/sign-in', { email, password });
    },
  };
  return client;
}

/**
 * A console operator of `role` with `password`, made through the admin API; its e-mail. A new e-mail and a
 * name unless given.
 */
export async function consoleOperator(
  app: FastifyInstance,
  adminHeaders: Record<string, string>,
  role: 'admin' | 'officer' | 'analyst',
  password: string,
  given: { email?: string; name?: string } = {},
): Promise<string> {
  const email = given.email ?? `${role}-${randomUUID()}@lender.mx`;
  const res = await app.inject({
    method: 'POST',
    url: '/admin/operators',
    headers: adminHeaders,
    payload: { name: given.name ?? `Operadora ${role}`, role, email, password },
  });
  assert.equal(res.statusCode, 201, `${res.statusCode} ${res.body}`);
  return email;
}

/**
 * A refused console form's message beside `field`: the control is marked invalid and points at the
 * message (among other descriptions), which follows it and matches `message`.
 */
export function assertBeside(body: string, field: string, message: RegExp): void {
  assert.match(body, new RegExp(`id="${field}"[^>]*aria-invalid="true" aria-describedby="[^"]*${field}-error"`));
  const shown = new RegExp(`<p class="field-error" id="${field}-error">([^<]*)</p>`).exec(body);
  assert.ok(shown, `a message beside ${field}`);
  assert.match(shown[1]!, message);
}
