// The whole partner flow through a client generated from the served OpenAPI document
// (openapi-typescript types + openapi-fetch). test/e2e/openapi-client.test.ts copies this file
// beside the generated `schema.ts`, type-checks both with tsc, then runs it against a listening
// service: a document that no longer describes the service breaks the compile or the run.
// (Left out of the project's tsconfig: `schema.ts` exists only where the test generates it.)
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.ts';

type Body<P extends keyof paths, M extends 'post' | 'put'> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

const base = '/mx/b2b/autofin/api';

/** The request bodies the flow sends: the document's own examples, as the test passes them. */
export interface FlowBodies {
  createLead: Body<'/mx/b2b/autofin/api/leads', 'post'>;
  contactInfo: Body<'/mx/b2b/autofin/api/leads/{leadId}/contact-info', 'put'>;
  loanInfo: Body<'/mx/b2b/autofin/api/leads/{leadId}/loan-info', 'put'>;
  address: Body<'/mx/b2b/autofin/api/leads/{leadId}/address', 'put'>;
  vehicle: Body<'/mx/b2b/autofin/api/leads/{leadId}/auto', 'put'>;
  financial: Body<'/mx/b2b/autofin/api/leads/{leadId}/financial', 'put'>;
  person: Body<'/mx/b2b/autofin/api/leads/{leadId}/person', 'post'>;
  pinSend: Body<'/mx/b2b/autofin/api/leads/{leadId}/pin', 'post'>;
}

export interface FlowResult {
  leadId: string;
  location: string | null;
  lead: components['schemas']['Lead'];
  zip: components['schemas']['ZipCodeInformation'];
  unknownZip: { status: number; code: number };
  statuses: Record<string, number>;
}

function fail(step: string, result: { error?: unknown; response: Response }): never {
  throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
}

export async function partnerFlow(
  baseUrl: string,
  credentials: components['schemas']['TokenRequest'],
  bodies: FlowBodies,
  readPin: (leadId: string) => Promise<string>,
): Promise<FlowResult> {
  const statuses: Record<string, number> = {};
  const anonymous = createClient<paths>({ baseUrl });
  const token = await anonymous.POST('/auth/token', { body: credentials, headers: { 'accept-version': 'v1' } });
  if (!token.data) fail('token', token);
  const tokenType: 'bearer' = token.data.token_type;
  statuses.token = token.response.status;

  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: `${tokenType} ${token.data.access_token}` },
  });
  const created = await client.POST(`${base}/leads`, { body: bodies.createLead });
  if (!created.data) fail('create lead', created);
  const leadId: string = created.data.id;
  statuses.createLead = created.response.status;
  const path = { params: { path: { leadId } } };

  const sections = [
    ['contactInfo', await client.PUT(`${base}/leads/{leadId}/contact-info`, { ...path, body: bodies.contactInfo })],
    ['loanInfo', await client.PUT(`${base}/leads/{leadId}/loan-info`, { ...path, body: bodies.loanInfo })],
    ['address', await client.PUT(`${base}/leads/{leadId}/address`, { ...path, body: bodies.address })],
    ['vehicle', await client.PUT(`${base}/leads/{leadId}/auto`, { ...path, body: bodies.vehicle })],
    ['financial', await client.PUT(`${base}/leads/{leadId}/financial`, { ...path, body: bodies.financial })],
    ['person', await client.POST(`${base}/leads/{leadId}/person`, { ...path, body: bodies.person })],
    ['pinSend', await client.POST(`${base}/leads/{leadId}/pin`, { ...path, body: bodies.pinSend })],
  ] as const;
  for (const [step, result] of sections) {
    if (result.error) fail(step, result);
    statuses[step] = result.response.status;
  }

  const pin = await readPin(leadId);
  const confirmed = await client.POST(`${base}/leads/{leadId}/pin/confirmation`, {
    ...path,
    body: { pin, pinConfirmation: pin },
  });
  if (confirmed.error) fail('confirm', confirmed);
  statuses.confirm = confirmed.response.status;

  const read = await client.GET(`${base}/leads/{leadId}`, path);
  if (!read.data) fail('read lead', read);
  // Read models are typed with their enums: a status outside them does not compile.
  const status: 'CREATED' | 'IN_PROGRESS' | 'PIN_SENT' | 'VERIFIED' | 'PREQUALIFIED' | 'NOT_PREQUALIFIED' =
    read.data.status;
  statuses.read = read.response.status;

  const zip = await client.GET(`${base}/catalogs/zip-code/{zipCode}`, {
    params: { path: { zipCode: bodies.address.zipCode } },
  });
  if (!zip.data) fail('zip code', zip);
  const missing = await client.GET(`${base}/catalogs/zip-code/{zipCode}`, { params: { path: { zipCode: '00000' } } });
  if (!missing.error) throw new Error('an unknown ZIP code was found');
  const code: number = missing.error.code;

  return {
    leadId,
    location: created.response.headers.get('location'),
    lead: { ...read.data, status },
    zip: zip.data,
    unknownZip: { status: missing.response.status, code },
    statuses,
  };
}
