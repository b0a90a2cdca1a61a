import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../config/index.ts';
import { tracingSettings } from './tracing-settings.ts';

test('tracing is on only with an OTLP endpoint and without OTEL_SDK_DISABLED=true', () => {
  const cases: [Record<string, string>, string | null][] = [
    [{}, null],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, null],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, 'http://collector:4318/v1/traces'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, 'http://collector:4318/v1/traces'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://apm.example/otlp/traces' }, 'https://apm.example/otlp/traces'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/t' }, 'http://b/t'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' }, null],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'TRUE' }, null],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'false' }, 'http://a:4318/v1/traces'],
  ];
  for (const [env, url] of cases) assert.equal(tracingSettings(env)?.url ?? null, url, JSON.stringify(env));
});

test('the protocol is http/protobuf unless http/json is asked for; gRPC is refused at start', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' };
  assert.equal(tracingSettings(endpoint)?.protocol, 'http/protobuf');
  assert.equal(tracingSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })?.protocol, 'http/json');
  const both = {
    ...endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
  };
  assert.equal(tracingSettings(both)?.protocol, 'http/protobuf');
  assert.throws(
    () => tracingSettings({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }),
    (error: unknown) => error instanceof ConfigError && error.message.includes('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'),
  );
  assert.throws(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }), ConfigError);
});

test('the service is named autofin unless OTEL_SERVICE_NAME says otherwise', () => {
  assert.equal(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a' })?.serviceName, 'autofin');
  assert.equal(
    tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a', OTEL_SERVICE_NAME: 'autofin-mx' })?.serviceName,
    'autofin-mx',
  );
});
