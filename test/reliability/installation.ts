/**
 * The installation the reliability tests run: the whole-process harness's (a data directory and, on
 * PostgreSQL, a database of its own, reused by restarts as one installation's life) in the sandbox,
 * with an admin token and info logs; and a partner made through the admin API.
 */
import assert from 'node:assert/strict';
import { installation } from '../processes/index.ts';

export { engine, type ServiceProcess as Instance } from '../processes/index.ts';
export const adminToken = 'reliability-admin-token-0123456789';
export const api = '/mx/b2b/autofin/api';
/** A cold start on a loaded 2-core machine (migrations, catalog import) can take a minute or more. */
const startTimeoutMs = 240_000;

export const reliabilityInstallation = (prefix: string) =>
  installation(
    prefix,
    { AUTOFIN_ENV: 'sandbox', ADMIN_TOKEN: adminToken, LOG_LEVEL: 'info' },
    { timeoutMs: startTimeoutMs },
  );

export interface PartnerAccess {
  credential: { consumer_key: string; consumer_secret: string };
  headers: Record<string, string>;
}

async function json(res: Response, expected: number, what: string) {
  const text = await res.text();
  assert.equal(res.status, expected, `${what}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A new company with a seller affiliate and a credential, through the admin API. */
export async function newPartner(base: string): Promise<PartnerAccess> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const company = await json(
    await fetch(`${base}/admin/companies`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'Reliability' }),
    }),
    201,
    'company',
  );
  await json(
    await fetch(`${base}/admin/companies/${company.id}/affiliates`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ user_type: 'SELLER' }),
    }),
    201,
    'affiliate',
  );
  const credential = await json(
    await fetch(`${base}/admin/companies/${company.id}/credentials`, { method: 'POST', headers: admin }),
    201,
    'credential',
  );
  return { credential, headers: await partnerHeaders(base, credential) };
}

export async function partnerHeaders(
  base: string,
  credential: PartnerAccess['credential'],
): Promise<Record<string, string>> {
  const token = await json(
    await fetch(`${base}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credential),
    }),
    200,
    'token',
  );
  return { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
}
