/**
 * The tracing suites (src/tracing/*.test.ts), one process each: a process starts tracing once, as
 * the service does. A PIN sent by SMS and confirmed with the sandbox bureau, with a webhook
 * endpoint registered to a local receiver and every span exported to an OTLP receiver.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { api, buildTestApp, show, type TestApp } from './helper.ts';
import { leadDefaults, pinFrom, readyLead, sandboxBirthDate, sandboxRfc } from './lead-fixture.ts';
import { startOtlpReceiver, spanKind, type ExportedSpan, type OtlpReceiver } from './otlp-receiver.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';
import { loadTracing, type Tracing } from '../src/tracing/index.ts';

const hex32 = /^[0-9a-f]{32}$/;
const hex16 = /^[0-9a-f]{16}$/;

/** Every value of the person the flow handles: none may appear anywhere in a span. */
const personalValues = [
  ...Object.values(leadDefaults.person),
  sandboxRfc.A1,
  leadDefaults.phone,
  leadDefaults.email,
  sandboxBirthDate,
  leadDefaults.address.street,
  leadDefaults.address.neighborhood,
];

/** The strings anywhere in `value`, keys included. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsOf(inner)]);
  }
  return [];
}

const globalOtelApi = () =>
  (globalThis as Record<symbol, Record<string, unknown> | undefined>)[Symbol.for('opentelemetry.js.api.1')];

async function registerWebhook(t: TestApp, url: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${api}/webhooks`,
    headers: t.partner.headers,
    payload: { url },
  });
  assert.equal(res.statusCode, 201, show(res));
}

/** A PIN sent by SMS and confirmed (the sandbox bureau answers), both requests carrying `traceparent`. */
async function pinFlow(t: TestApp, traceparent: string) {
  const leadId = await readyLead(t, { rfc: sandboxRfc.A1 });
  const headers = { ...t.partner.headers, traceparent };
  const send = await t.app.inject({
    method: 'POST',
    url: `${api}/leads/${leadId}/pin`,
    headers: { ...headers, 'x-request-id': 'traced-send' },
    payload: { channel: 'SMS' },
  });
  assert.equal(send.statusCode, 204, show(send));
  const pin = pinFrom(t.outbox.sms.at(-1)!);
  const confirm = await t.app.inject({
    method: 'POST',
    url: `${api}/leads/${leadId}/pin/confirmation`,
    headers: { ...headers, 'x-request-id': 'traced-confirm' },
    payload: { pin },
  });
  assert.equal(confirm.statusCode, 204, show(confirm));
  await t.container.webhooks.worker.runUntilIdle();
  return { leadId, pin };
}

export function tracingOffSuite(): void {
  describe('tracing is off unless an OTLP endpoint is configured', () => {
    let t: TestApp;
    before(async () => {
      t = await buildTestApp({ tracing: await loadTracing({}) });
    });
    after(() => t.close());

    test('nothing is started without an endpoint, or with OTEL_SDK_DISABLED=true', async () => {
      assert.equal(await loadTracing({}), undefined);
      assert.equal(
        await loadTracing({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }),
        undefined,
      );
      assert.equal(globalOtelApi()?.trace, undefined, 'no tracer provider is registered');
    });

    test('the database is not wrapped, log lines carry no trace ids and events no trace', async () => {
      assert.equal(t.container.db, t.database.db);
      const traceparent = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
      const hooks = await startReceiver();
      try {
        await registerWebhook(t, hooks.url);
        await pinFlow(t, traceparent);
        assert.ok(hooks.received.length > 0);
        for (const request of hooks.received) assert.equal(request.headers.traceparent, undefined);
      } finally {
        await hooks.close();
      }
      const lines = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.ok(lines.some((line) => line.requestId === 'traced-send'));
      assert.ok(lines.every((line) => line.traceId === undefined && line.spanId === undefined));
      const traced = await t.database.db.query<{ n: number }>(
        'select count(*)::int as n from webhook_events where trace_parent is not null',
      );
      assert.equal(traced.rows[0].n, 0);
    });
  });
}

export function tracedFlowSuite(protocol: 'http/protobuf' | 'http/json'): void {
  describe(`traces over OTLP ${protocol}`, () => {
    let otlp: OtlpReceiver;
    let hooks: Receiver;
    let tracing: Tracing;
    let t: TestApp;
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    let pin: string;
    let inTrace: ExportedSpan[];

    before(async () => {
      otlp = await startOtlpReceiver();
      hooks = await startReceiver();
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol };
      tracing = (await loadTracing(env))!;
      assert.ok(tracing);
      t = await buildTestApp({ tracing });
      await registerWebhook(t, hooks.url);
      ({ pin } = await pinFlow(t, `00-${traceId}-${callerSpanId}-01`));
      await tracing.forceFlush();
      inTrace = otlp.spans.filter((span) => span.traceId === traceId);
    });
    after(async () => {
      await t.close();
      await tracing.shutdown();
      await Promise.all([otlp.close(), hooks.close()]);
    });

    test('spans reach the receiver in the configured encoding, from the service named autofin', () => {
      const expected = protocol === 'http/json' ? 'application/json' : 'application/x-protobuf';
      const types = otlp.contentTypes;
      assert.ok(types.length > 0 && types.every((type) => type.startsWith(expected)), String(types));
      assert.ok(otlp.resources.every((resource) => resource['service.name'] === 'autofin'));
      for (const span of otlp.spans) {
        assert.match(span.traceId, hex32);
        assert.match(span.spanId, hex16);
      }
    });

    test("each request continues the caller's trace with one server span: route template and status", () => {
      const servers = inTrace.filter((span) => span.kind === spanKind.server);
      assert.deepEqual(
        servers.map((span) => span.attributes['http.route']).sort(),
        [`${api}/leads/:leadId/pin`, `${api}/leads/:leadId/pin/confirmation`],
        JSON.stringify(servers),
      );
      for (const server of servers) {
        assert.equal(server.parentSpanId, callerSpanId);
        assert.equal(server.attributes['http.response.status_code'], 204);
        assert.equal(server.name, `POST ${server.attributes['http.route']}`);
      }
    });

    test('database statements are client spans with the statement text, on either engine', () => {
      const statements = inTrace.filter(
        (span) => span.kind === spanKind.client && span.attributes['db.system'] === 'postgresql',
      );
      assert.ok(statements.length >= 4, JSON.stringify(inTrace.map((span) => span.name)));
      for (const statement of statements) assert.equal(typeof statement.attributes['db.query.text'], 'string');
      assert.ok(
        statements.some((span) => /^\s*(insert|update|with)\b/i.test(String(span.attributes['db.query.text']))),
      );
    });

    test('the SMS and bureau calls are client spans of that trace', () => {
      const providers = inTrace.filter((span) => span.attributes['autofin.provider'] !== undefined);
      assert.deepEqual(providers.map((span) => span.name).sort(), ['bureau call', 'sms call']);
      for (const span of providers) {
        assert.equal(span.kind, spanKind.client);
        assert.equal(span.attributes['autofin.provider.outcome'], 'ok');
      }
    });

    test('webhook deliveries join the trace, and the receiver gets a traceparent of it', () => {
      const deliveries = inTrace.filter((span) => span.name === 'webhook deliver');
      assert.ok(deliveries.length >= 2, JSON.stringify(inTrace.map((span) => span.name)));
      const traced = hooks.received.filter((request) => String(request.headers.traceparent).includes(traceId));
      const types = traced.map((request) => (JSON.parse(request.body) as { type: string }).type);
      assert.ok(types.includes('lead.pin_sent') && types.includes('lead.verified'), String(types));
      for (const request of traced) {
        const [, , spanId] = String(request.headers.traceparent).split('-');
        const http = inTrace.find((span) => span.spanId === spanId);
        assert.ok(http, `the HTTP span ${spanId} was exported`);
        assert.equal(http.kind, spanKind.client);
        const delivery = deliveries.find((span) => span.spanId === http.parentSpanId);
        assert.ok(delivery, 'the HTTP request is a child of its delivery span');
        assert.equal(delivery.attributes['server.address'], '127.0.0.1');
        assert.equal(delivery.attributes['http.response.status_code'], 200);
      }
    });

    test('log lines of a traced request carry its trace id and a span id', () => {
      // 'request received' (debug) is written as the request arrives, before its span starts.
      const lines = t.logs
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.requestId === 'traced-send' || line.requestId === 'traced-confirm')
        .filter((line) => line.msg !== 'request received');
      assert.ok(lines.length >= 2);
      for (const line of lines) {
        assert.equal(line.traceId, traceId, JSON.stringify(line));
        assert.match(String(line.spanId), hex16);
      }
    });

    test("no span, attribute or event holds the person's data, the PIN or the webhook's URL", () => {
      // Every string exported (names, attribute values, messages), not the numbers: a port or a size
      // can hold six given digits by chance, a leaked value would be text.
      const exported = stringsOf({ spans: otlp.spans, resources: otlp.resources }).join('\n');
      for (const value of [...personalValues, pin, hooks.url, new URL(hooks.url).pathname]) {
        assert.ok(!exported.includes(value), `${value} was exported`);
      }
      assert.ok(!exported.includes('850412'), 'no part of the RFC or birth date');
    });
  });
}
