/**
 * Request counts and durations, kept in plain accumulators on the hot path (a map lookup and a few
 * additions per request) and rendered by prom-client's registry only when /metrics is scraped.
 * prom-client's own labelled metrics validate and hash their labels on every observation, which
 * cost more than the catalog reads they measure.
 */
import type { Registry } from 'prom-client';

const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is above the highest bound. */
  perBucket: number[];
}

type Value = { value: number; labels: Record<string, string | number>; metricName?: string };

/** A metric prom-client's registry renders from values computed only when it is scraped. */
function scrapedMetric(name: string, help: string, type: 'counter' | 'histogram', values: () => Value[]) {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
  };
}

export function createHttpMetrics() {
  // route → method → status → series: lookups on values the request already holds, no key to build.
  const byRoute = new Map<string, Map<string, Map<number, Series>>>();
  const series: Series[] = [];

  function seriesOf(method: string, route: string, status: number): Series {
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (!s) {
      s = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        perBucket: new Array(buckets.length + 1).fill(0),
      };
      byStatus.set(status, s);
      series.push(s);
    }
    return s;
  }

  function record(method: string, route: string, status: number, seconds: number): void {
    const s = seriesOf(method, route, status);
    s.count += 1;
    s.sum += seconds;
    let i = 0;
    while (i < buckets.length && seconds > buckets[i]) i++;
    s.perBucket[i] += 1;
  }

  const requests = scrapedMetric(
    'autofin_http_requests_total',
    'HTTP requests by method, route and status',
    'counter',
    () => series.map((s): Value => ({ value: s.count, labels: s.labels })),
  );
  const duration = scrapedMetric(
    'autofin_http_request_duration_seconds',
    'HTTP request duration by method, route and status',
    'histogram',
    () => series.flatMap(histogramValues),
  );

  function histogramValues(s: Series): Value[] {
    let cumulative = 0;
    const out: Value[] = buckets.map((le, i) => {
      cumulative += s.perBucket[i];
      return { value: cumulative, labels: { ...s.labels, le }, metricName: `${duration.name}_bucket` };
    });
    out.push({ value: s.count, labels: { ...s.labels, le: '+Inf' }, metricName: `${duration.name}_bucket` });
    out.push({ value: s.sum, labels: s.labels, metricName: `${duration.name}_sum` });
    out.push({ value: s.count, labels: s.labels, metricName: `${duration.name}_count` });
    return out;
  }

  return {
    record,
    register(registry: Registry) {
      registry.registerMetric(requests as never);
      registry.registerMetric(duration as never);
    },
  };
}
