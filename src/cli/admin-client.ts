/**
 * The admin API over HTTP, as the `autofin` command line drives it. Every call answers a value:
 * the body of a 2xx, or the failure (the service's ErrorResponse, or why it could not be reached).
 */
import type { CatalogKind } from '../catalogs/catalog-file.ts';

export type AdminResult = { ok: true; body: unknown } | { ok: false; status: number; body: unknown };

export interface AdminClientOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
}

const catalogPaths: Record<CatalogKind, string> = { vehicles: 'vehicles', zipCodes: 'zip-codes' };

/** gzip files start with 1f 8b; anything else is sent as CSV text. */
export function catalogContentType(bytes: Uint8Array): string {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? 'application/gzip' : 'text/csv';
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    // Not the service (a proxy's HTML page?): show what came back rather than a parse error.
    return { status: response.status, body: text.slice(0, 2000) };
  }
}

export function createAdminClient({ baseUrl, token, fetch: fetchImpl = fetch }: AdminClientOptions) {
  async function call(method: string, path: string, body?: { json: unknown } | { bytes: Uint8Array; type: string }): Promise<AdminResult> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    let payload: BodyInit | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body) {
      headers['content-type'] = body.type;
      payload = new Uint8Array(body.bytes); // a copy typed over a plain ArrayBuffer, as fetch's BodyInit wants
    }
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}${path}`, { method, headers, body: payload });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (error as Error).message;
      return { ok: false, status: 0, body: { message: `cannot reach ${baseUrl}`, reason } };
    }
    const answer = await readBody(response);
    return response.ok ? { ok: true, body: answer } : { ok: false, status: response.status, body: answer };
  }

  const segment = encodeURIComponent;
  return {
    createCompany: (name: string) => call('POST', '/admin/companies', { json: { name } }),
    listCompanies: () => call('GET', '/admin/companies'),
    createCredential: (companyId: string) => call('POST', `/admin/companies/${segment(companyId)}/credentials`),
    revokeCredential: (consumerKey: string) => call('DELETE', `/admin/credentials/${segment(consumerKey)}`),
    createAffiliate: (companyId: string, input: { user_type: string; user_id?: string }) =>
      call('POST', `/admin/companies/${segment(companyId)}/affiliates`, { json: input }),
    /** The lender's webhook endpoints (docs/webhooks.md). */
    webhook: (method: string, path = '', json?: unknown) =>
      call(method, `/admin/webhooks${path}`, json === undefined ? undefined : { json }),
    importCatalog: (kind: CatalogKind, bytes: Uint8Array) =>
      call('PUT', `/admin/catalogs/${catalogPaths[kind]}`, { bytes, type: catalogContentType(bytes) }),
  };
}

export type AdminClient = ReturnType<typeof createAdminClient>;
