import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createHttpMetrics } from './http-metrics.ts';

test('requests and durations render as a Prometheus counter and a cumulative histogram', async () => {
  const registry = new Registry();
  const metrics = createHttpMetrics();
  metrics.register(registry);
  metrics.record('GET', '/catalogs/years', 200, 0.0004);
  metrics.record('GET', '/catalogs/years', 200, 0.003);
  metrics.record('GET', '/catalogs/years', 200, 9);
  metrics.record('POST', '/leads', 400, 0.02);
  const text = await registry.metrics();
  const labels = 'method="GET",route="/catalogs/years",status="200"';
  assert.match(text, /# TYPE autofin_http_requests_total counter/);
  assert.ok(text.includes(`autofin_http_requests_total{${labels}} 3`), text);
  assert.ok(text.includes('autofin_http_requests_total{method="POST",route="/leads",status="400"} 1'), text);
  assert.match(text, /# TYPE autofin_http_request_duration_seconds histogram/);
  assert.ok(text.includes(`autofin_http_request_duration_seconds_bucket{${labels},le="0.001"} 1`), text);
  assert.ok(text.includes(`autofin_http_request_duration_seconds_bucket{${labels},le="0.005"} 2`), text);
  assert.ok(text.includes(`autofin_http_request_duration_seconds_bucket{${labels},le="5"} 2`), text);
  assert.ok(text.includes(`autofin_http_request_duration_seconds_bucket{${labels},le="+Inf"} 3`), text);
  assert.ok(text.includes(`autofin_http_request_duration_seconds_count{${labels}} 3`), text);
  assert.match(
    text,
    new RegExp(`autofin_http_request_duration_seconds_sum\\{${labels.replace(/[/]/g, '\\/')}\\} 9\\.0034`),
  );
});
