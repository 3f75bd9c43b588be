import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, Sampler } from '@opentelemetry/sdk-trace-base';
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../test-support/otlp-fields.js';
import { GatewaySpan, GatewayTracer } from './gateway-span.js';
import { encodeTraceRequest } from './otlp-encoder.js';

const resource = resourceFromAttributes({ 'service.name': 'portico-gateway' });

function tracerWith(sampler: Sampler = new AlwaysOnSampler()) {
  const ended: ReadableSpan[] = [];
  const tracer = new GatewayTracer(
    sampler,
    resource,
    { name: 'portico', version: '1.2.3' },
    {
      onEnd: (span) => ended.push(span as ReadableSpan),
    },
  );
  return { tracer, ended };
}

const caller = (traceparent: string) =>
  new W3CTraceContextPropagator().extract(
    ROOT_CONTEXT,
    { traceparent, tracestate: 'vendor=opaque' },
    { keys: (c) => Object.keys(c), get: (c, k) => c[k] },
  );

describe('GatewayTracer', () => {
  it("continues a valid caller's trace, and starts a new one otherwise", () => {
    const { tracer } = tracerWith();
    const server = tracer.startServer(
      'GET /orders',
      caller('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'),
    );
    expect(server).toBeInstanceOf(GatewaySpan);
    const span = server as GatewaySpan;
    expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(span.spanContext().spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(span.spanContext().traceState?.get('vendor')).toBe('opaque');
    expect(span.parentSpanContext).toMatchObject({ spanId: '00f067aa0ba902b7', isRemote: true });
    expect(span.kind).toBe(SpanKind.SERVER);

    const fresh = tracer.startServer(
      'GET',
      caller('00-00000000000000000000000000000000-00f067aa0ba902b7-01'),
    );
    expect(fresh.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.spanContext().traceId).not.toBe('0'.repeat(32));
    expect((fresh as GatewaySpan).parentSpanContext).toBeUndefined();
  });

  it('asks the sampler: a span not sampled records nothing but keeps its trace id for the backend', () => {
    const { tracer, ended } = tracerWith(new AlwaysOffSampler());
    const server = tracer.startServer('GET', ROOT_CONTEXT);
    expect(server).not.toBeInstanceOf(GatewaySpan);
    expect(server.isRecording()).toBe(false);
    expect(server.spanContext().traceFlags).toBe(TraceFlags.NONE);
    expect(server.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    server.end();
    expect(ended).toHaveLength(0);

    const parentBased = tracerWith(new ParentBasedSampler({ root: new AlwaysOnSampler() }));
    const unsampledCaller = caller('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00');
    expect(parentBased.tracer.startServer('GET', unsampledCaller).isRecording()).toBe(false);
  });

  it('records children of the server span, events, status as the SDK does, and nothing after the end', () => {
    const { tracer, ended } = tracerWith();
    const server = tracer.startServer('GET', ROOT_CONTEXT) as GatewaySpan;
    const child = tracer.startChild('plan security', SpanKind.INTERNAL, server);
    expect(child.spanContext().traceId).toBe(server.spanContext().traceId);
    expect(child.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(child.spanContext().traceFlags).toBe(TraceFlags.SAMPLED);
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'API_KEY_MISSING' });
    child.setStatus({ code: SpanStatusCode.UNSET });
    expect(child.status).toEqual({ code: SpanStatusCode.ERROR, message: 'API_KEY_MISSING' });
    child.end();
    child.setAttribute('after', 'end');
    child.end();
    expect(child.attributes).toEqual({});
    expect(ended).toEqual([child]);

    server.setStatus({ code: SpanStatusCode.OK });
    server.setStatus({ code: SpanStatusCode.ERROR, message: 'ignored: OK is final' });
    server.addEvent('portico.rate_limit.rejected', { 'portico.error.key': 'RATE_LIMIT_TOO_MANY_REQUESTS' });
    server.recordException(new TypeError('boom'));
    server.setAttribute('http.response.status_code', 429);
    server.setAttribute('dropped', undefined);
    server.updateName('GET /orders');
    server.end();
    expect(server.status).toEqual({ code: SpanStatusCode.OK });
    expect(server.events.map((e) => e.name)).toEqual(['portico.rate_limit.rejected', 'exception']);
    expect(server.events[1]!.attributes).toMatchObject({
      'exception.type': 'TypeError',
      'exception.message': 'boom',
    });
    expect(server.attributes).toEqual({ 'http.response.status_code': 429 });
    expect(server.name).toBe('GET /orders');
    const [start, end] = [server.startTime, server.endTime].map(([s, ns]) => s * 1e9 + ns);
    expect(end!).toBeGreaterThanOrEqual(start!);
    expect(Math.abs(start! / 1e6 - Date.now())).toBeLessThan(5000);
  });

  it('is a span the official OTLP serializer reads, and ours encodes the same', () => {
    const { tracer, ended } = tracerWith();
    const server = tracer.startServer(
      'GET /orders',
      caller('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'),
    );
    server.setAttributes({ 'http.request.method': 'GET', 'server.port': 8082, 'portico.api.name': 'Orders' });
    const client = tracer.startChild('GET', SpanKind.CLIENT, server as GatewaySpan);
    client.addEvent('portico.failover', { 'portico.endpoint': 'http://127.0.0.1:1/' });
    client.setStatus({ code: SpanStatusCode.ERROR, message: 'GATEWAY_TIMEOUT' });
    client.end(4_102_444_800_123.25); // 2100-01-01, to the quarter of a millisecond
    server.end([1_764_300_000, 123]);
    const official = Buffer.from(ProtobufTraceSerializer.serializeRequest(ended)!);
    const ours = Buffer.from(encodeTraceRequest(ended));
    expect(readMessage(ours, 'Request')).toEqual(readMessage(official, 'Request'));
    expect(ended).toHaveLength(2);
  });

  it('encodes calls that repeat attributes (one API, then two in turn) as the official serializer does', () => {
    const { tracer, ended } = tracerWith();
    const call = (api: string, i: number, port: number) => {
      const server = tracer.startServer('GET /orders', ROOT_CONTEXT) as GatewaySpan;
      server.setAttributes({ 'http.request.method': 'GET', 'server.port': 8082, 'portico.api.name': api });
      server.setAttribute('portico.tags', ['a', api]);
      const client = tracer.startChild('GET', SpanKind.CLIENT, server);
      client.setAttributes({ 'server.port': port, 'http.response.status_code': 200 });
      client.end();
      server.setAttributes({ 'http.response.status_code': i % 3 ? 200 : 404, 'portico.request.id': `r${i}` });
      server.end();
    };
    for (let i = 0; i < 600; i++) call('Orders', i, 9000);
    for (let i = 0; i < 40; i++) call(i % 2 ? 'Orders' : 'Stock', i, 9000 + (i % 3));
    expect(ended).toHaveLength(1280);
    for (let at = 0; at < ended.length; at += 64) {
      const batch = ended.slice(at, at + 64);
      const official = Buffer.from(ProtobufTraceSerializer.serializeRequest(batch)!);
      expect(readMessage(Buffer.from(encodeTraceRequest(batch)), 'Request')).toEqual(
        readMessage(official, 'Request'),
      );
    }
  });
});
