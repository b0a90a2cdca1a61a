/**
 * The admin API over HTTP, as the `autofin` command line drives it. Every call answers a value:
 * the body of a 2xx, or the failure (the service's ErrorResponse, or why it could not be reached).
 */
import type { CatalogKind } from '../catalogs/index.ts';

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

const queryString = (query: Record<string, string>) => {
  const text = new URLSearchParams(query).toString();
  return text ? `?${text}` : '';
};

export function createAdminClient({ baseUrl, token, fetch: fetchImpl = fetch }: AdminClientOptions) {
  async function call(
    method: string,
    path: string,
    body?: { json: unknown } | { bytes: Uint8Array; type: string },
  ): Promise<AdminResult> {
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
    showCompany: (companyId: string) => call('GET', `/admin/companies/${segment(companyId)}`),
    listCredentials: (companyId: string) => call('GET', `/admin/companies/${segment(companyId)}/credentials`),
    listAffiliates: (companyId: string) => call('GET', `/admin/companies/${segment(companyId)}/affiliates`),
    createCredential: (companyId: string) => call('POST', `/admin/companies/${segment(companyId)}/credentials`),
    revokeCredential: (consumerKey: string) => call('DELETE', `/admin/credentials/${segment(consumerKey)}`),
    createAffiliate: (companyId: string, input: { user_type: string; user_id?: string }) =>
      call('POST', `/admin/companies/${segment(companyId)}/affiliates`, { json: input }),
    createOperator: (input: { name: string; role: string; email?: string; password?: string }) =>
      call('POST', '/admin/operators', { json: input }),
    listOperators: () => call('GET', '/admin/operators'),
    deleteOperator: (id: string) => call('DELETE', `/admin/operators/${segment(id)}`),
    listLeads: (query: Record<string, string>) => call('GET', `/admin/leads${queryString(query)}`),
    readLead: (id: string) => call('GET', `/admin/leads/${segment(id)}`),
    personalData: (id: string) => call('GET', `/admin/leads/${segment(id)}/personal-data`),
    eraseLead: (id: string) => call('DELETE', `/admin/leads/${segment(id)}/personal-data`),
    purge: (dryRun: boolean) => call('POST', '/admin/leads/purge', { json: { dryRun } }),
    listAudit: (query: Record<string, string>) => call('GET', `/admin/audit${queryString(query)}`),
    /** The export, handed to `write` chunk by chunk as it arrives (never held whole). */
    async exportLeads(query: Record<string, string>, write: (text: string) => void): Promise<AdminResult> {
      let response: Response;
      try {
        response = await fetchImpl(`${baseUrl}/admin/leads/export${queryString(query)}`, {
          headers: { authorization: `Bearer ${token}` },
        });
      } catch (error) {
        return { ok: false, status: 0, body: { message: `cannot reach ${baseUrl}`, reason: (error as Error).message } };
      }
      if (!response.ok || !response.body) return { ok: false, status: response.status, body: await readBody(response) };
      const decoder = new TextDecoder();
      for await (const chunk of response.body) write(decoder.decode(chunk as Uint8Array, { stream: true }));
      write(decoder.decode());
      return { ok: true, body: null };
    },
    keyStatus: () => call('GET', '/admin/keys'),
    reencryptKeys: (limit?: number) =>
      call('POST', '/admin/keys/reencrypt', { json: limit === undefined ? {} : { limit } }),
    /** The lender's webhook endpoints (docs/webhooks.md). */
    webhook: (method: string, path = '', json?: unknown) =>
      call(method, `/admin/webhooks${path}`, json === undefined ? undefined : { json }),
    importCatalog: (kind: CatalogKind, bytes: Uint8Array) =>
      call('PUT', `/admin/catalogs/${catalogPaths[kind]}`, { bytes, type: catalogContentType(bytes) }),
  };
}

export type AdminClient = ReturnType<typeof createAdminClient>;
