import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracingSettings } from '@portico/gateway';
import { EventBus } from '@portico/storage';
import type { TestDatabase } from '@portico/storage/testing';
import { createTestDatabase } from '@portico/storage/testing';
// The gateway's test receiver: decodes OTLP protobuf with the published .proto files.
import type { OtlpReceiver } from '../../../gateway/src/test-support/otlp-receiver.js';
import { startOtlpReceiver } from '../../../gateway/src/test-support/otlp-receiver.js';
import type { ManagementApp } from '../app.js';
import { buildManagementApp } from '../app.js';

async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

describe('management server tracing: HTTP and SQL spans, trace ids in the JSON logs', () => {
  let db: TestDatabase;
  let receiver: OtlpReceiver;
  let built: ManagementApp;
  let url: string;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    receiver = await startOtlpReceiver();
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    built = await buildManagementApp({
      storage: db.storage,
      bus: new EventBus(),
      logger: { level: 'info', stream },
      tracing: tracingSettings(
        { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '20' },
        'portico-management',
      ),
    });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const address = built.app.server.address() as { port: number };
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await built?.app.close();
    await receiver?.close();
    await db?.destroy();
  });

  it('continues the caller trace with a server span per request, SQL statement spans below it, and ids in the logs', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const res = await fetch(`${url}/management/user/login`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
        traceparent: `00-${traceId}-b7ad6b7169203331-01`,
      },
    });
    expect(res.status).toBe(200);
    await eventually(() =>
      expect(receiver.spans.some((s) => s.traceId === traceId && s.kind === 2)).toBe(true),
    );
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    const server = spans.find((s) => s.kind === 2)!;
    expect(server.parentSpanId).toBe('b7ad6b7169203331');
    expect(server.name).toBe('POST /management/user/login');
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/management/user/login',
      'http.response.status_code': 200,
    });
    expect(server.resource['service.name']).toBe('portico-management');
    const statements = spans.filter((s) => s.kind === 3);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.some((s) => s.name === 'SELECT users')).toBe(true);
    for (const s of statements) {
      expect(s.parentSpanId).toBe(server.spanId);
      expect(s.attributes['db.system.name']).toBe('sqlite');
    }
    // Nothing secret: neither the password nor the issued token.
    const all = JSON.stringify(spans);
    expect(all).not.toContain('admin:admin');
    expect(all).not.toContain(Buffer.from('admin:admin').toString('base64'));
    // Fastify's request lines carry the trace and span ids.
    const requestLines = lines.filter((l) => l.trace_id === traceId);
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines[0]!.span_id).toBe(server.spanId);
  });
});
