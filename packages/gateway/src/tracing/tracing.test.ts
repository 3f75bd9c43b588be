import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus, indexRequestSegments } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import type { DeployedApi } from '@portico/model';
import type { Backend } from '../test-support/backends.js';
import { deadUrl, startBackend } from '../test-support/backends.js';
import { deployedApi, publishEvent, subscribe } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';
import type { OtlpReceiver, ReceivedSpan } from '../test-support/otlp-receiver.js';
import { startOtlpReceiver } from '../test-support/otlp-receiver.js';
import { eventually } from '../test-support/policy-harness.js';
import { tracingSettings } from './settings.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const KEY = 'tracing-secret-key-0001';

type Gateway = Awaited<ReturnType<typeof startTestGateway>>;

describe('tracing in the gateway (OTLP/HTTP protobuf to a real receiver)', () => {
  let t: TestDatabase;
  let bus: EventBus;
  let backend: Backend;
  let receiver: OtlpReceiver;
  let gateway: Gateway;
  let api: DeployedApi;

  async function deploy(g: Gateway, a: DeployedApi) {
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', a);
    await eventually(async () => {
      await g.sync.sync();
      if (!g.sync.servedApis().some((s) => s.id === a.id)) throw new Error('not served yet');
    });
  }

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    bus = new EventBus();
    backend = await startBackend();
    receiver = await startOtlpReceiver();
    gateway = await startTestGateway(t.storage, bus, {
      tracing: tracingSettings(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=c0ll3ct0r',
          OTEL_SERVICE_NAME: 'portico-gw-test',
          OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
        },
        'portico-gateway',
      ),
    });
    const dead = await deadUrl();
    api = deployedApi('/traced', [dead, backend.url], {
      plans: [
        {
          name: 'Gold',
          security: 'API_KEY',
          paths: {
            '/': [{ 'rate-limit': { rate: { limit: 2, periodTime: 60, periodTimeUnit: 'MINUTES' } } }],
          },
        },
      ],
      definition: {
        paths: {
          '/orders/:id': [
            { 'transform-headers': { scope: 'REQUEST', addHeaders: [{ name: 'X-T', value: '1' }] } },
          ],
        },
        proxy: {
          context_path: '/traced',
          failover: { maxAttempts: 2, retryTimeout: 2000, cases: ['TIMEOUT'] },
          groups: [
            {
              name: 'g',
              endpoints: [
                { name: 'dead', target: dead },
                { name: 'alive', target: `${backend.url}/base?secret=1` },
              ],
            },
          ],
        } as never,
      },
    });
    await subscribe(t.storage.db, api, api.plans[0]!.id, { key: KEY });
    await deploy(gateway, api);
  });
  afterAll(async () => {
    await gateway?.cleanup();
    await receiver?.close();
    await backend?.close();
    await t?.destroy();
  });

  const traceOf = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);
  const byKind = (spans: ReceivedSpan[], kind: number) => spans.filter((s) => s.kind === kind);

  it('continues the caller trace: server, security, policy and client spans; the backend gets the client span as parent', async () => {
    const calls: { traceparent: string; status: number; backendTraceparent?: string }[] = [];
    for (const n of [1, 2]) {
      const traceparent = `00-${CALLER_TRACE.slice(0, 30)}0${n}-${CALLER_SPAN}-01`;
      const res = await fetch(`${gateway.url}/traced/orders/4${n}?api-key=${KEY}`, {
        headers: { traceparent, tracestate: 'vendor=abc', 'x-api-key': KEY },
      });
      const echo = (await res.json()) as { headers: Record<string, string> };
      calls.push({ traceparent, status: res.status, backendTraceparent: echo.headers.traceparent });
      expect(echo.headers.tracestate).toBe('vendor=abc');
    }
    await gateway.reporter.flush();
    await indexRequestSegments(t.storage.db);
    for (const call of calls) {
      expect(call.status).toBe(200);
      const traceId = call.traceparent.split('-')[1]!;
      await eventually(() => expect(byKind(traceOf(traceId), 3)).toHaveLength(1), 5000);
      const spans = traceOf(traceId);
      const server = byKind(spans, 2)[0]!;
      const client = byKind(spans, 3)[0]!;
      expect(server.parentSpanId).toBe(CALLER_SPAN);
      expect(server.name).toBe('GET /traced/orders/:id');
      expect(server.attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.route': '/traced/orders/:id',
        'http.response.status_code': 200,
        'server.address': '127.0.0.1',
        'portico.api.id': api.id,
        'portico.api.name': api.name,
        'portico.plan.id': api.plans[0]!.id,
        'portico.plan.name': 'Gold',
      });
      const applicationId = server.attributes['portico.application.id'];
      expect(applicationId).toEqual(expect.any(String));
      // Its name as stored (the test support names an application after its id).
      expect(server.attributes['portico.application.name']).toBe(`app ${String(applicationId).slice(0, 8)}`);
      expect(server.resource).toMatchObject({
        'service.name': 'portico-gw-test',
        'deployment.environment': 'test',
      });
      const internal = byKind(spans, 1).map((s) => s.name);
      expect(internal.sort()).toEqual(['plan security', 'policy rate-limit', 'policy transform-headers']);
      for (const s of byKind(spans, 1)) expect(s.parentSpanId).toBe(server.spanId);
      expect(client.parentSpanId).toBe(server.spanId);
      expect(client.attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.response.status_code': 200,
        'portico.endpoint': `${backend.url}/base`,
      });
      // The backend sees the same trace, its parent being the gateway's client span.
      expect(call.backendTraceparent).toBe(`00-${traceId}-${client.spanId}-01`);
      const row = await t.storage.db
        .selectFrom('requests')
        .select(['trace_id'])
        .where('trace_id', '=', traceId)
        .executeTakeFirst();
      expect(row?.trace_id).toBe(traceId);
    }
    // Round robin sends one of the two calls to the dead endpoint first: failover is an event of its client span.
    const clients = calls.map((c) => byKind(traceOf(c.traceparent.split('-')[1]!), 3)[0]!);
    const failedOver = clients.find((c) => c.events.some((e) => e.name === 'portico.failover'));
    expect(failedOver?.attributes['http.request.resend_count']).toBe(1);
    // Nothing secret in any attribute: neither the API key nor the endpoint's query nor the exporter's headers.
    const everything = JSON.stringify(receiver.spans);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('secret=1');
    expect(everything).not.toContain('c0ll3ct0r');
    expect(receiver.requests[0]!['x-collector-token']).toBe('c0ll3ct0r');
    expect(receiver.requests[0]!['content-type']).toBe('application/x-protobuf');
  });

  it('records a rate-limit rejection as an event, and starts a new trace for a malformed traceparent', async () => {
    const res = await fetch(`${gateway.url}/traced/orders/9`, {
      headers: { traceparent: '00-zzzz-not-a-trace-01', 'x-api-key': KEY },
    });
    expect(res.status).toBe(429);
    const id = res.headers.get('x-request-id')!;
    await gateway.reporter.flush();
    await indexRequestSegments(t.storage.db);
    const row = await t.storage.db
      .selectFrom('requests')
      .select(['trace_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.trace_id).toMatch(/^[0-9a-f]{32}$/);
    await eventually(() => expect(byKind(traceOf(row.trace_id!), 2)).toHaveLength(1), 5000);
    const server = byKind(traceOf(row.trace_id!), 2)[0]!;
    expect(server.parentSpanId).toBe('');
    expect(server.events.map((e) => e.name)).toContain('portico.rate_limit.rejected');
    expect(server.attributes['http.response.status_code']).toBe(429);
    const policy = traceOf(row.trace_id!).find((s) => s.name === 'policy rate-limit')!;
    expect(policy.status).toBe(2);
    expect(byKind(traceOf(row.trace_id!), 3)).toHaveLength(0);
  });

  it('sets the error status when no endpoint answers, and follows the API switch-off', async () => {
    const down = deployedApi('/traced-down', [await deadUrl()]);
    const off = deployedApi('/traced-off', [backend.url], {
      definition: {
        proxy: {
          context_path: '/traced-off',
          tracing: { enabled: false },
          groups: [{ name: 'g', endpoints: [{ name: 'e0', target: backend.url }] }],
        } as never,
      },
    });
    await deploy(gateway, down);
    await deploy(gateway, off);
    const bad = await fetch(`${gateway.url}/traced-down`);
    expect(bad.status).toBe(502);
    const incoming = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
    const quiet = await fetch(`${gateway.url}/traced-off`, { headers: { traceparent: incoming } });
    // Tracing off for this API: the caller's context goes to the backend untouched, nothing is recorded.
    expect(((await quiet.json()) as { headers: Record<string, string> }).headers.traceparent).toBe(incoming);
    await gateway.reporter.flush();
    await indexRequestSegments(t.storage.db);
    const rows = await t.storage.db
      .selectFrom('requests')
      .select(['id', 'trace_id', 'api_id'])
      .where('api_id', 'in', [down.id, off.id])
      .execute();
    expect(rows.find((r) => r.api_id === off.id)?.trace_id).toBeNull();
    const traceId = rows.find((r) => r.api_id === down.id)!.trace_id!;
    await eventually(() => expect(byKind(traceOf(traceId), 3)).toHaveLength(1), 5000);
    const server = byKind(traceOf(traceId), 2)[0]!;
    expect(server.status).toBe(2);
    expect(server.attributes['portico.error.key']).toBe('GATEWAY_CLIENT_CONNECTION_ERROR');
    expect(byKind(traceOf(traceId), 3)[0]!.status).toBe(2);
    expect(receiver.spans.some((s) => s.traceId === 'ab'.repeat(16))).toBe(false);
  });
});
