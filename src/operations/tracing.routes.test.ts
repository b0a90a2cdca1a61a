import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { pinApi, pinFrom, readyLead, sandboxRfc } from '../../test/lead-fixture.ts';

/** The log lines, parsed, that a request with this id wrote. */
function linesOf(t: TestApp, requestId: string) {
  return t.logs.map((line) => JSON.parse(line)).filter((line) => line.requestId === requestId);
}

async function metricsText(t: TestApp): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: t.admin });
  assert.equal(res.statusCode, 200, show(res));
  return res.body;
}

/** The value of one series in a Prometheus text exposition, 0 when absent. */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('operators can trace a failure', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  after(() => t.close());

  test('provider log lines carry the request id, the lead id and the company id', async () => {
    const leadId = await readyLead(t, { rfc: sandboxRfc.E1 });
    const send = await t.app.inject({
      method: 'POST',
      url: `${api}/leads/${leadId}/pin`,
      headers: { ...t.partner.headers, 'x-request-id': 'trace-send-1' },
      payload: { channel: 'SMS' },
    });
    assert.equal(send.statusCode, 204, show(send));
    await tick();
    const sendLines = linesOf(t, 'trace-send-1');
    const providerLines = sendLines.filter((l) => l.provider !== undefined);
    assert.ok(
      providerLines.some((l) => l.msg === 'sms sent'),
      JSON.stringify(sendLines),
    );
    assert.ok(
      providerLines.some((l) => l.msg === 'provider call' && l.outcome === 'ok'),
      JSON.stringify(sendLines),
    );
    for (const line of providerLines) {
      assert.equal(line.leadId, leadId, JSON.stringify(line));
      assert.equal(line.companyId, t.partner.companyId, JSON.stringify(line));
    }
    // The E1 profile is an unavailable bureau: its failure line is traceable too.
    const pin = pinFrom(t.outbox.sms.at(-1)!);
    const confirm = await t.app.inject({
      method: 'POST',
      url: `${api}/leads/${leadId}/pin/confirmation`,
      headers: { ...t.partner.headers, 'x-request-id': 'trace-confirm-1' },
      payload: { pin },
    });
    assert.equal(confirm.statusCode, 412, show(confirm));
    await tick();
    const failed = linesOf(t, 'trace-confirm-1').find((l) => l.msg === 'provider call failed');
    assert.ok(failed, JSON.stringify(linesOf(t, 'trace-confirm-1')));
    assert.equal(failed.provider, 'bureau');
    assert.equal(failed.leadId, leadId);
    assert.equal(failed.companyId, t.partner.companyId);
  });

  test('the access line names the partner company and consumer key, never the token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/leads`,
      headers: { ...t.partner.headers, 'x-request-id': 'trace-access-1' },
      payload: {},
    });
    assert.equal(res.statusCode, 201, show(res));
    await tick();
    const access = linesOf(t, 'trace-access-1').find((l) => l.msg === 'request completed');
    assert.ok(access, JSON.stringify(linesOf(t, 'trace-access-1')));
    assert.equal(access.companyId, t.partner.companyId);
    assert.equal(access.consumerKey, t.partner.consumerKey);
    assert.ok(!JSON.stringify(access).includes(t.partner.token));
  });

  test('metrics count PIN outcomes, provider calls with latency, circuits and rate-limit refusals', async () => {
    const before = await metricsText(t);
    const pins = pinApi(t);
    const leadId = await readyLead(t, { rfc: sandboxRfc.A1 });
    assert.equal((await pins.send(leadId)).statusCode, 204);
    const wrong = await pins.confirm(leadId, '000000');
    assert.equal(wrong.statusCode, 400, show(wrong));
    const reason = wrong.json().additionalData.reason as string;
    assert.equal((await pins.confirm(leadId, pinFrom(t.outbox.sms.at(-1)!))).statusCode, 204);
    // Five sends are allowed in ten minutes; the sixth is refused by the PIN-send limit.
    const other = await readyLead(t);
    for (let i = 0; i < 5; i++) assert.equal((await pins.send(other)).statusCode, 204);
    assert.equal((await pins.send(other)).statusCode, 429);

    const text = await metricsText(t);
    const delta = (series: string) => valueOf(text, series) - valueOf(before, series);
    assert.equal(delta('autofin_pin_sends_total{channel="SMS",outcome="sent"}'), 6, text);
    assert.equal(delta('autofin_pin_sends_total{channel="SMS",outcome="throttled"}'), 1, text);
    assert.equal(delta(`autofin_pin_confirmations_total{outcome="${reason}"}`), 1, text);
    assert.equal(delta('autofin_pin_confirmations_total{outcome="verified"}'), 1, text);
    assert.ok(delta('autofin_provider_calls_total{provider="sms",outcome="ok"}') >= 6, text);
    assert.equal(delta('autofin_provider_calls_total{provider="bureau",outcome="ok"}'), 1, text);
    assert.ok(delta('autofin_provider_call_duration_seconds_count{provider="bureau",outcome="ok"}') >= 1, text);
    assert.equal(valueOf(text, 'autofin_provider_circuit_state{provider="sms",state="closed"}'), 1, text);
    assert.equal(valueOf(text, 'autofin_provider_circuit_state{provider="sms",state="open"}'), 0, text);
    assert.ok(delta('autofin_rate_limit_refusals_total{reason="PIN_SEND_LIMIT"}') >= 1, text);
  });
});
