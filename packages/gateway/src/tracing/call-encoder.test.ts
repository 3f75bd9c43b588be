import type { IncomingMessage } from 'node:http';
import type { Attributes, HrTime, SpanContext, SpanStatus } from '@opentelemetry/api';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { AlwaysOnSampler } from '@opentelemetry/sdk-trace-base';
import type { NewRequestRow } from '@portico/storage';
import type { ExportResult } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import type { CompiledApi, CompiledPlan } from '../router/compiled.js';
import { readMessage } from '../test-support/otlp-fields.js';
import { CallSpans } from './call-spans.js';
import { EncodingBatchProcessor } from './encoding-processor.js';
import { GatewayTracer } from './gateway-span.js';
import { spanHex } from './trace-ids.js';
import type { EncodedSpans } from './otlp-encoder.js';
import { encodeTraceRequest } from './otlp-encoder.js';
import { RequestTrace } from './request-trace.js';

const resource = resourceFromAttributes({ 'service.name': 'portico-gateway' });

function tracerFor(calls: CallSpans[]) {
  return new GatewayTracer(
    new AlwaysOnSampler(),
    resource,
    { name: 'portico', version: '1.2.3' },
    {
      onEnd: (call) => {
        if (call instanceof CallSpans) calls.push(call);
      },
    },
  );
}

const hr = (ms: number): HrTime => {
  const ns = Math.round(ms * 1e6);
  return [Math.floor(ns / 1e9), ns % 1e9];
};

/**
 * What the SDK's spans of a call would be, written out independently of the encoder: the attributes in
 * the order a call sets them (request, admission, then the call's own).
 */
function readableSpans(call: CallSpans): ReadableSpan[] {
  const spans: ReadableSpan[] = [];
  const server = call.spanContext();
  const child = (spanId: string): SpanContext => ({ ...server, spanId });
  const span = (
    name: string,
    kind: SpanKind,
    context: SpanContext,
    parent: SpanContext | undefined,
    times: [number, number],
    attributes: Attributes,
    status: SpanStatus,
    events: TimedEvent[],
  ): ReadableSpan => ({
    name,
    kind,
    spanContext: () => context,
    parentSpanContext: parent,
    startTime: hr(times[0]),
    endTime: hr(times[1]),
    duration: hr(times[1] - times[0]),
    status,
    attributes,
    links: [],
    events,
    ended: true,
    resource: call.tracer.resource,
    instrumentationScope: call.tracer.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  });
  const defined = (entries: [string, unknown][]): Attributes =>
    Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as Attributes;
  if (call.securityEndMs > 0) {
    const error = call.securityError;
    spans.push(
      span(
        'plan security',
        SpanKind.INTERNAL,
        child(spanHex(call.securityHigh, call.securityLow)),
        server,
        [call.securityStartMs, call.securityEndMs],
        defined([['portico.error.key', error]]),
        error ? { code: SpanStatusCode.ERROR, message: error } : { code: SpanStatusCode.UNSET },
        [],
      ),
    );
  }
  if (call.clientEndMs > 0) {
    spans.push(
      span(
        call.clientMethod,
        SpanKind.CLIENT,
        child(spanHex(call.clientHigh, call.clientLow)),
        server,
        [call.clientStartMs, call.clientEndMs],
        defined([
          ['http.request.method', call.clientMethod],
          ['server.address', call.endpoint?.address],
          ['server.port', call.endpoint?.port],
          ['portico.endpoint', call.endpoint?.endpoint],
          ['http.request.resend_count', call.retries || undefined],
          ['http.response.status_code', call.clientStatus],
          ['error.type', call.clientErrorType],
        ]),
        !call.clientErrorType
          ? { code: SpanStatusCode.UNSET }
          : call.clientErrorMessage
            ? { code: SpanStatusCode.ERROR, message: call.clientErrorMessage }
            : { code: SpanStatusCode.ERROR },
        call.clientEvents,
      ),
    );
  }
  const caller = call.callerHigh || call.callerLow ? spanHex(call.callerHigh, call.callerLow) : undefined;
  spans.push(
    span(
      call.name,
      SpanKind.SERVER,
      server,
      caller ? { ...server, spanId: caller, isRemote: call.callerRemote } : undefined,
      [call.startMs, call.endMs],
      defined([
        ['http.request.method', call.method],
        ['url.scheme', 'http'],
        ['server.address', call.server?.address],
        ['server.port', call.server?.port],
        ['network.protocol.version', call.httpVersion],
        ['http.route', call.route],
        ['portico.api.id', call.api?.id],
        ['portico.api.name', call.api?.name],
        ['portico.plan.id', call.plan?.id],
        ['portico.plan.name', call.plan?.name],
        ['portico.plan.security', call.securityType],
        ['portico.application.id', call.applicationId],
        ['portico.application.name', call.applicationName],
        ['http.response.status_code', call.status],
        ['portico.error.key', call.errorKey],
        ['error.type', call.status >= 500 ? String(call.status) : undefined],
        ['client.address', call.remoteAddress],
        ['user_agent.original', call.userAgent],
        ['portico.request.id', call.requestId],
        ['portico.transaction.id', call.transactionId],
      ]),
      call.status < 500
        ? { code: SpanStatusCode.UNSET }
        : call.errorKey
          ? { code: SpanStatusCode.ERROR, message: call.errorKey }
          : { code: SpanStatusCode.ERROR },
      call.events,
    ),
  );
  return spans;
}

const apiOf = (id: string): CompiledApi =>
  ({ id, name: `API ${id}`, tracing: { enabled: true } }) as unknown as CompiledApi;
const planOf = (id: string): CompiledPlan =>
  ({ plan: { id, name: `Plan ${id}` } }) as unknown as CompiledPlan;

interface CallOptions {
  api?: CompiledApi;
  plan?: CompiledPlan;
  application?: { id: string; name: string };
  host?: string;
  headers?: Record<string, string>;
  refused?: string;
  failovers?: number;
  upstream?: { status?: number; errorKey?: string; endpoint?: string };
  status?: number;
  errorKey?: string;
  limit?: boolean;
}

let sequence = 0;
function runCall(tracer: GatewayTracer, o: CallOptions): void {
  const req = {
    headers: { host: o.host ?? 'gw.example:8082', ...o.headers },
    httpVersion: '1.1',
  } as unknown as IncomingMessage;
  const id = `req-${++sequence}`;
  const record = {
    method: 'GET',
    status: 0,
    error_key: null,
    remote_address: sequence % 4 ? '10.0.0.7' : null,
    user_agent: sequence % 5 ? 'curl/8.5' : null,
    id,
    transaction_id: sequence % 2 ? id : `tx-${sequence}`,
    trace_id: null,
  } as unknown as NewRequestRow;
  const trace = new RequestTrace(tracer, req, record, o.api, o.api ? '/orders' : undefined);
  expect(record.trace_id).toMatch(/^[0-9a-f]{32}$/);
  if (o.api) {
    trace.securityStarted();
    trace.securityEnded(o.refused ? { key: o.refused } : undefined);
  }
  if (o.api && !o.refused) {
    trace.admitted(o.plan ?? planOf('keyless'), o.application ?? {}, o.application ? 'API_KEY' : undefined);
    trace.routed('GET', '/orders', '/items/:id');
    if (o.limit)
      trace.endChild(trace.child('policy rate-limit'), { key: 'RATE_LIMIT_TOO_MANY_REQUESTS', status: 429 });
    const headers: Record<string, string | string[]> = {};
    trace.upstream(headers, 'GET');
    expect(headers.traceparent).toMatch(new RegExp(`^00-${record.trace_id}-[0-9a-f]{16}-01$`));
    for (let i = 0; i < (o.failovers ?? 0); i++) trace.failover(new URL('http://a:1/x'), 'GATEWAY_TIMEOUT');
    const endpoint = o.upstream?.endpoint;
    trace.upstreamDone(
      endpoint === undefined ? new URL('http://user:pw@backend:9000/v1?q=1') : undefined,
      o.upstream?.status ?? 200,
      o.upstream?.errorKey,
    );
  }
  Object.assign(record, { status: o.status ?? 200, error_key: o.errorKey ?? null });
  trace.end(record);
}

function expectOfficial(calls: CallSpans[]): void {
  const official = Buffer.from(ProtobufTraceSerializer.serializeRequest(calls.flatMap(readableSpans))!);
  const ours = Buffer.from(encodeTraceRequest(calls));
  expect(readMessage(ours, 'Request')).toEqual(readMessage(official, 'Request'));
}

describe("a call's spans, encoded from its fields", () => {
  it('encode every kind of call as the official serializer encodes the same spans', () => {
    const calls: CallSpans[] = [];
    const tracer = tracerFor(calls);
    const orders = apiOf('orders');
    runCall(tracer, {
      api: orders,
      headers: {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        tracestate: 'vendor=opaque',
      },
    });
    runCall(tracer, { api: orders, refused: 'API_KEY_MISSING', status: 401, errorKey: 'API_KEY_MISSING' });
    runCall(tracer, {
      api: orders,
      failovers: 2,
      upstream: { status: undefined, errorKey: 'GATEWAY_TIMEOUT', endpoint: 'none' },
      status: 504,
      errorKey: 'GATEWAY_TIMEOUT',
    });
    runCall(tracer, { api: orders, upstream: { status: 503 }, status: 503 });
    runCall(tracer, { api: orders, limit: true, status: 429, errorKey: 'RATE_LIMIT_TOO_MANY_REQUESTS' });
    runCall(tracer, { status: 404, errorKey: 'GATEWAY_NO_API', host: 'other.example' });
    runCall(tracer, { api: orders, host: '[::1]', application: { id: 'app-1', name: 'Shop' } });
    expect(calls.map((c) => c.spanCount())).toEqual([3, 2, 3, 3, 3, 1, 3]);
    expect(calls[0]!.traceId.hex).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(calls[4]!.events.map((e) => e.name)).toEqual(['portico.rate_limit.rejected']);
    expect(calls[2]!.clientEvents).toHaveLength(2);
    for (const call of calls) expectOfficial([call]);
    expectOfficial(calls);
  });

  it('copies repeated attributes only when they are the same (APIs, plans, applications, hosts in turn)', () => {
    const calls: CallSpans[] = [];
    const tracer = tracerFor(calls);
    const apis = [apiOf('a'), apiOf('b')];
    const plans = [planOf('p1'), planOf('p2'), planOf('p3')];
    for (let i = 0; i < 300; i++) {
      runCall(tracer, {
        api: apis[i % 2]!,
        plan: plans[i % 3]!,
        application: i % 7 ? { id: `app-${i % 11}`, name: `App ${i % 11}` } : undefined,
        host: i % 5 ? 'gw.example:8082' : 'gw.example',
        upstream: { status: i % 13 ? 200 : 404 },
        status: i % 13 ? 200 : 404,
      });
    }
    for (let at = 0; at < calls.length; at += 50) expectOfficial(calls.slice(at, at + 50));
  });
});

describe("a call's spans in the batch processor", () => {
  it('keeps or drops them together, and never splits them between two exports', async () => {
    const sent: EncodedSpans[] = [];
    const answers: ((result: ExportResult) => void)[] = [];
    let dropped = 0;
    const processor = new EncodingBatchProcessor(
      {
        export: (batch, done) => {
          sent.push({ ...batch, bytes: Buffer.from(batch.bytes) });
          answers.push(done);
        },
        shutdown: async () => {},
      },
      { maxQueueSize: 8, maxExportBatchSize: 5, scheduledDelayMillis: 60_000, exportTimeoutMillis: 60_000 },
      (n) => (dropped += n),
    );
    const tracer = new GatewayTracer(
      new AlwaysOnSampler(),
      resource,
      { name: 'portico', version: '1.2.3' },
      processor,
    );
    // Two calls of three spans fill a queue of 8 but one export of 5: the second waits for a batch of its own.
    for (let i = 0; i < 4; i++) runCall(tracer, { api: apiOf('orders') });
    expect(dropped).toBe(6);
    const flushed = processor.forceFlush();
    expect(sent.map((b) => b.count)).toEqual([3]);
    answers.shift()!({ code: 0 });
    expect(sent.map((b) => b.count)).toEqual([3, 3]);
    answers.shift()!({ code: 0 });
    await flushed;
    for (const batch of sent) {
      const request = readMessage(Buffer.from(batch.bytes), 'Request');
      const scopes = (request[1]![0] as Record<number, unknown[]>)[2] as Record<number, unknown[]>[];
      const spans = scopes.flatMap((scope) => scope[2] as Record<number, unknown[]>[]);
      expect(spans).toHaveLength(3);
      expect(new Set(spans.map((span) => span[1]![0])).size).toBe(1);
    }
  });
});
