/**
 * Test helpers of the lender routes: a lead verified by PIN over either channel (the confirming call
 * with its own request id and user agent), operator keys, and admin calls.
 */
import assert from 'node:assert/strict';
import { api, show, type TestApp } from './helper.ts';
import { pinFrom, readyLead, type ReadyLeadOptions } from './lead-fixture.ts';

export const confirmingAgent = 'DealerApp/2.1 (test)';

/** Creates a ready lead and verifies it over `channel`; answers its id and the confirmation's request id. */
export async function verifiedLead(t: TestApp, channel: 'SMS' | 'EMAIL', options: ReadyLeadOptions = {}) {
  const partner = options.partner ?? t.partner;
  const leadId = await readyLead(t, options);
  const sent = await t.app.inject({
    method: 'POST',
    url: `${api}/leads/${leadId}/pin`,
    headers: partner.headers,
    payload: { channel },
  });
  assert.equal(sent.statusCode, 204, show(sent));
  const pin = pinFrom(channel === 'SMS' ? t.outbox.sms.at(-1)! : t.outbox.email.at(-1)!);
  const requestId = `confirm-${leadId.slice(0, 8)}`;
  const confirmed = await t.app.inject({
    method: 'POST',
    url: `${api}/leads/${leadId}/pin/confirmation`,
    payload: { pin },
    headers: { ...partner.headers, 'x-request-id': requestId, 'user-agent': confirmingAgent },
  });
  assert.equal(confirmed.statusCode, 204, show(confirmed));
  return { leadId, requestId, partner };
}

export async function operatorKey(
  t: TestApp,
  role: 'admin' | 'analyst' | 'officer',
  name = `${role} operator`,
): Promise<{ id: string; key: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/operators',
    headers: t.admin,
    payload: { name, role },
  });
  assert.equal(res.statusCode, 201, show(res));
  return res.json();
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
