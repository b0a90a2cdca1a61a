/**
 * Whether and how the service exports traces, from OpenTelemetry's standard variables. Pure: it
 * loads nothing, so a service without tracing pays for one look at its environment.
 */
import { ConfigError } from '../config/index.ts';

export const tracingProtocols = ['http/protobuf', 'http/json'] as const;
export type TracingProtocol = (typeof tracingProtocols)[number];

export interface TracingSettings {
  /** Where spans are posted (OTLP/HTTP). */
  url: string;
  protocol: TracingProtocol;
  serviceName: string;
}

type Env = Record<string, string | undefined>;

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * Null unless OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is set and
 * OTEL_SDK_DISABLED is not `true`. The traces endpoint is used as written; the general one gets
 * `/v1/traces` appended, as the OTLP exporter specification says. A protocol the service does not
 * speak (gRPC) is refused at start rather than silently exporting nothing.
 */
export function tracingSettings(env: Env): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!present(traces) && !present(general)) return null;
  const url = present(traces) ? traces.trim() : `${general!.trim().replace(/\/+$/, '')}/v1/traces`;
  if (!/^https?:\/\/[^\s]+$/.test(url)) {
    throw new ConfigError(
      present(traces) ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT',
      'must be an http(s) URL',
    );
  }
  const variable = present(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL)
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[variable]?.trim() || 'http/protobuf';
  if (!(tracingProtocols as readonly string[]).includes(protocol)) {
    throw new ConfigError(variable, `must be one of ${tracingProtocols.join(', ')} (got ${protocol})`);
  }
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'autofin';
  return { url, protocol: protocol as TracingProtocol, serviceName };
}
