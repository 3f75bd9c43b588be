import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const PROTO_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'otlp-proto');

/** A span as received, decoded from OTLP protobuf: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP kinds: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Requests received (their headers), answered or not. */
  requests: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

let decoder: protobuf.Type | undefined;

async function requestType(): Promise<protobuf.Type> {
  if (!decoder) {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) =>
      path.isAbsolute(target) ? target : path.join(PROTO_ROOT, target);
    await root.load('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: false });
    decoder = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  }
  return decoder;
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

function valueOf(v: Record<string, unknown> | undefined): unknown {
  if (!v) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  if ('arrayValue' in v)
    return ((v.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(valueOf);
  return undefined;
}

const attributes = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

// The decoded message's objects, as protobufjs gives them (read field by field below).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Decoded = Record<string, any>;

const hex = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('hex') : '');

/**
 * A real OTLP/HTTP receiver for tests: decodes `POST /v1/traces` protobuf bodies with the published
 * OpenTelemetry .proto files. `silent`: it reads requests and never answers (a collector that hangs).
 */
export async function startOtlpReceiver(options: { silent?: boolean } = {}): Promise<OtlpReceiver> {
  const type = await requestType();
  const receiver: OtlpReceiver = { url: '', spans: [], requests: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    receiver.requests.push(req.headers);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (options.silent) return;
      try {
        const message = type.toObject(type.decode(Buffer.concat(chunks)), { longs: String, bytes: Array });
        for (const rs of (message.resourceSpans ?? []) as Decoded[]) {
          const resource = attributes(rs.resource?.attributes);
          for (const ss of (rs.scopeSpans ?? []) as Decoded[]) {
            for (const s of (ss.spans ?? []) as Decoded[]) {
              receiver.spans.push({
                traceId: hex(s.traceId),
                spanId: hex(s.spanId),
                parentSpanId: hex(s.parentSpanId),
                name: s.name,
                kind: s.kind ?? 0,
                attributes: attributes(s.attributes),
                events: ((s.events ?? []) as { name: string; attributes?: KeyValue[] }[]).map((e) => ({
                  name: e.name,
                  attributes: attributes(e.attributes),
                })),
                status: s.status?.code ?? 0,
                resource,
              });
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      } catch (error) {
        res.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
