/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, port 0, standing in for a collector: it takes what the
 * service exports (`http/json`, or `http/protobuf` decoded with protobufjs from the OTLP trace
 * protos, the fields a test reads) and keeps every span in one plain form for both.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/** opentelemetry/proto/collector/trace/v1 and what it uses, as published by the OTLP project. */
const otlpProto = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5;
  int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10; repeated Event events = 11;
  uint32 dropped_events_count = 12; repeated Link links = 13; uint32 dropped_links_count = 14;
  Status status = 15; fixed32 flags = 16;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;
const requestType = protobuf.parse(otlpProto).root.lookupType('otlp.ExportTraceServiceRequest');

/** OTLP's SpanKind. */
export const spanKind = { internal: 1, server: 2, client: 3 } as const;

export interface ExportedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code?: number; message?: string };
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  endpoint: string;
  spans: ExportedSpan[];
  resources: Record<string, unknown>[];
  /** Content types of the export requests received. */
  contentTypes: string[];
  close(): Promise<void>;
}

type KeyValue = { key: string; value?: Record<string, unknown> };

function valueOf(value: Record<string, unknown> | undefined): unknown {
  if (!value) return undefined;
  if ('arrayValue' in value) return ((value.arrayValue as { values?: [] }).values ?? []).map(valueOf);
  if ('kvlistValue' in value) return attributesOf((value.kvlistValue as { values?: KeyValue[] }).values);
  if ('intValue' in value) return Number(value.intValue);
  const [first] = Object.values(value);
  return first;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

/** Ids are hex in OTLP/JSON and bytes in protobuf. */
const hex = (id: unknown): string =>
  id === undefined || id === null
    ? ''
    : typeof id === 'string'
      ? id.toLowerCase()
      : Buffer.from(id as Uint8Array).toString('hex');

interface RawRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: Record<string, unknown>[] }[];
  }[];
}

function collect(request: RawRequest, receiver: OtlpReceiver): void {
  for (const resourceSpans of request.resourceSpans ?? []) {
    receiver.resources.push(attributesOf(resourceSpans.resource?.attributes));
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        receiver.spans.push({
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          parentSpanId: hex(span.parentSpanId),
          name: String(span.name),
          kind: Number(span.kind ?? 0),
          scope: scopeSpans.scope?.name ?? '',
          attributes: attributesOf(span.attributes as KeyValue[]),
          events: ((span.events ?? []) as { name: string; attributes?: KeyValue[] }[]).map((e) => ({
            name: e.name,
            attributes: attributesOf(e.attributes),
          })),
          status: (span.status ?? {}) as ExportedSpan['status'],
        });
      }
    }
  }
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = String(req.headers['content-type'] ?? '');
      receiver.contentTypes.push(type);
      if (req.url !== '/v1/traces') return void res.writeHead(404).end();
      const json = type.startsWith('application/json');
      const request = json
        ? (JSON.parse(body.toString('utf8')) as RawRequest)
        : (requestType.toObject(requestType.decode(body), { longs: String, defaults: false }) as RawRequest);
      collect(request, receiver);
      // An empty ExportTraceServiceResponse: full success.
      res
        .writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' })
        .end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: OtlpReceiver = {
    endpoint: `http://127.0.0.1:${port}`,
    spans: [],
    resources: [],
    contentTypes: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
