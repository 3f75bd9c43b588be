import type { Context } from '@opentelemetry/api';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { readMessage as read } from '../test-support/otlp-fields.js';
import { encodeTraceRequest } from './otlp-encoder.js';

function spansOf(build: (tracers: ReturnType<typeof providers>) => void): ReadableSpan[] {
  const all = providers();
  build(all);
  return [...all.first.exporter.getFinishedSpans(), ...all.second.exporter.getFinishedSpans()];
}

/** Two providers (two resources), the first with two tracers (two scopes). */
function providers() {
  const make = (attributes: Record<string, string | number>) => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes(attributes),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    return { exporter, provider };
  };
  const first = make({ 'service.name': 'portico-gateway', 'service.version': '1.2.3', 'host.cpus': 2 });
  const second = make({ 'service.name': 'portico-management', region: 'São Paulo' });
  return {
    first,
    second,
    gateway: first.provider.getTracer('portico', '1.2.3'),
    other: first.provider.getTracer('other-scope'),
    management: second.provider.getTracer('portico'),
  };
}

const remoteParent = (): Context =>
  new W3CTraceContextPropagator().extract(
    ROOT_CONTEXT,
    {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      tracestate: 'vendor=opaque,other=value',
    },
    { keys: (c) => Object.keys(c), get: (c, k) => c[k] },
  );

const sameAsOfficial = (spans: ReadableSpan[]) => {
  const official = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
  const ours = Buffer.from(encodeTraceRequest(spans));
  expect(read(ours, 'Request')).toEqual(read(official, 'Request'));
  return ours;
};

describe('encodeTraceRequest', () => {
  it('writes what the official serializer writes: ids, remote parents and trace state, kinds, times, status, flags', () => {
    const spans = spansOf(({ gateway, other, management }) => {
      const server = gateway.startSpan(
        'GET /orders/:id',
        { kind: SpanKind.SERVER, startTime: 1_764_300_000_123 },
        remoteParent(),
      );
      const child = gateway.startSpan('plan security', {}, trace.setSpan(ROOT_CONTEXT, server));
      child.setStatus({ code: SpanStatusCode.ERROR, message: 'API_KEY_INVALID' });
      child.end([1_764_300_000, 999_999_999]);
      const client = gateway.startSpan('GET', { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, server));
      client.setStatus({ code: SpanStatusCode.OK });
      client.end();
      server.end();
      other.startSpan('producer', { kind: SpanKind.PRODUCER }).end();
      management.startSpan('consumer', { kind: SpanKind.CONSUMER }).end([0, 1]);
    });
    expect(spans).toHaveLength(5);
    const ours = read(sameAsOfficial(spans), 'Request');
    expect(ours[1]).toHaveLength(2); // two resources
  });

  it('writes every kind of attribute, events and links alike, in any script', () => {
    const spans = spansOf(({ gateway }) => {
      const span = gateway.startSpan('attributes', {
        attributes: {
          'text.ascii': 'plain',
          'text.unicode': 'São Paulo — 東京 — 🚀',
          'text.long': 'x'.repeat(300),
          'text.empty': '',
          flag: true,
          'flag.off': false,
          count: 42,
          negative: -7,
          big: 2 ** 60,
          ratio: 1.5,
          'not.a.number': Number.NaN,
          names: ['a', 'é', ''],
          numbers: [1, 2.5, -3],
          flags: [true, false],
          none: [],
        },
        links: [
          { context: trace.getSpanContext(remoteParent())!, attributes: { 'link.reason': 'follows' } },
          { context: trace.getSpanContext(remoteParent())! },
        ],
      });
      span.addEvent('portico.rate_limit.rejected', { 'portico.error.key': 'RATE_LIMIT_TOO_MANY_REQUESTS' });
      span.addEvent('plain event');
      span.end();
    });
    sameAsOfficial(spans);
  });

  it('moves a message when its length needs more bytes than reserved: large spans and large batches', () => {
    const spans = spansOf(({ gateway }) => {
      // Spans over 16 KB (three-byte lengths) and a batch over 2 MB (four-byte lengths).
      for (let i = 0; i < 40; i++) {
        gateway.startSpan(`large ${i}`, { attributes: { body: 'y'.repeat(60_000 + i) } }).end();
      }
      for (let i = 0; i < 600; i++) gateway.startSpan(`small ${i}`, { attributes: { i } }).end();
    });
    const bytes = sameAsOfficial(spans);
    expect(bytes.length).toBeGreaterThan(2 ** 21);
  });

  it('writes times as exact nanoseconds since the epoch (beyond 2^53), from 1970 to 2106', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    const spans = spansOf(({ gateway }) => {
      for (let i = 0; i < 500; i++) {
        const seconds = i === 0 ? 0 : i === 1 ? 2 ** 32 - 1 : next() * 2;
        const span = gateway.startSpan(`t${i}`, { startTime: [seconds, next() % 1_000_000_000] });
        span.end([seconds + 1, 999_999_999]);
      }
    });
    sameAsOfficial(spans);
  });

  it('copies an attribute value that repeats from span to span, and follows one that changes', () => {
    const values: unknown[] = ['GET', 'GET', 'GET', 'POST', 'GET', 'GET', 200, 200, 404, true, true, false];
    const spans = spansOf(({ gateway }) => {
      values.forEach((value, i) => {
        const span = gateway.startSpan(`call ${i}`, {
          attributes: {
            'http.request.method': value as string,
            'portico.api.id': 'the-same-api',
            'portico.request.id': `request-${i}`,
            'tags.array': ['a', 'b'],
          },
        });
        span.addEvent('event', { 'http.request.method': i % 2 ? 'GET' : 'PUT' });
        span.end();
      });
    });
    const ours = read(sameAsOfficial(spans), 'Request');
    // The same batch once more, each value now known: the same request again.
    expect(read(sameAsOfficial(spans), 'Request')).toEqual(ours);
  });

  it('encodes an empty batch as an empty request', () => {
    expect(encodeTraceRequest([])).toHaveLength(0);
  });
});
