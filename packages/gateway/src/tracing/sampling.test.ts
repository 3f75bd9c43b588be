import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus, indexRequestSegments } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import type { DeployedApi } from '@portico/model';
import type { Backend } from '../test-support/backends.js';
import { startBackend } from '../test-support/backends.js';
import { deployedApi, publishEvent } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';
import type { OtlpReceiver } from '../test-support/otlp-receiver.js';
import { startOtlpReceiver } from '../test-support/otlp-receiver.js';
import { eventually } from '../test-support/policy-harness.js';
import { tracingSettings } from './settings.js';

type Gateway = Awaited<ReturnType<typeof startTestGateway>>;

const traceId = (n: number) => n.toString(16).padStart(32, '0').replace(/^0/, 'a');
const parent = (n: number, sampled: boolean) => `00-${traceId(n)}-${'12'.repeat(8)}-${sampled ? '01' : '00'}`;

describe('tracing: samplers sample what they say; a dead collector slows and fails no call', () => {
  let t: TestDatabase;
  let bus: EventBus;
  let backend: Backend;
  let receiver: OtlpReceiver;
  const gateways: Gateway[] = [];

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    bus = new EventBus();
    backend = await startBackend();
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    for (const g of gateways) await g.cleanup();
    await receiver?.close();
    await backend?.close();
    await t?.destroy();
  });

  async function gatewayWith(vars: Record<string, string>, ...apis: DeployedApi[]): Promise<Gateway> {
    const g = await startTestGateway(t.storage, bus, {
      tracing: tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...vars }, 'portico-gateway'),
    });
    gateways.push(g);
    for (const api of apis) await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => {
      await g.sync.sync();
      for (const api of apis)
        if (!g.sync.servedApis().some((s) => s.id === api.id)) throw new Error('not served');
    });
    return g;
  }

  /** Calls with the given traceparent; what flags the backend saw. */
  async function call(g: Gateway, path: string, traceparent?: string): Promise<string> {
    const res = await fetch(`${g.url}${path}`, { headers: traceparent ? { traceparent } : {} });
    expect(res.status).toBe(200);
    const echo = (await res.json()) as { headers: Record<string, string> };
    return echo.headers.traceparent!;
  }

  const received = (id: string) => receiver.spans.filter((s) => s.traceId === id);

  it('always_off, parentbased_always_off, always_on and an API of its own ratio', async () => {
    const a = deployedApi('/s-a', [backend.url]);
    const zero = deployedApi('/s-zero', [backend.url], {
      definition: {
        proxy: {
          context_path: '/s-zero',
          tracing: { enabled: true, sampling_ratio: 0 },
          groups: [{ name: 'g', endpoints: [{ name: 'e0', target: backend.url }] }],
        } as never,
      },
    });
    const off = await gatewayWith({ OTEL_TRACES_SAMPLER: 'always_off' }, a, zero);
    const pbOff = await gatewayWith({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' });
    const on = await gatewayWith({ OTEL_TRACES_SAMPLER: 'always_on' });

    // always_off: even a sampled caller is not recorded; the trace goes on upstream, not sampled.
    expect(await call(off, '/s-a', parent(1, true))).toMatch(
      new RegExp(`^00-${traceId(1)}-[0-9a-f]{16}-00$`),
    );
    // parentbased_always_off: the caller's decision holds; without a caller, nothing.
    expect(await call(pbOff, '/s-a', parent(2, true))).toMatch(/-01$/);
    expect(await call(pbOff, '/s-a', parent(3, false))).toMatch(/-00$/);
    expect(await call(pbOff, '/s-a')).toMatch(/-00$/);
    // always_on: recorded even when the caller did not sample.
    expect(await call(on, '/s-a', parent(4, false))).toMatch(/-01$/);
    // An API's own ratio 0 replaces always_on's root decision.
    expect(await call(on, '/s-zero')).toMatch(/-00$/);
    await eventually(() => {
      expect(received(traceId(2)).length).toBeGreaterThan(0);
      expect(received(traceId(4)).length).toBeGreaterThan(0);
    }, 5000);
    await Promise.all([off, pbOff, on].map((g) => g.reporter.flush()));
    await indexRequestSegments(t.storage.db);
    const rows = await t.storage.db
      .selectFrom('requests')
      .select(['trace_id'])
      .where('api_id', 'in', [a.id, zero.id])
      .execute();
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const sampled = new Set(receiver.spans.map((s) => s.traceId));
    expect(sampled.has(traceId(1))).toBe(false);
    expect(sampled.has(traceId(3))).toBe(false);
    const unsampledIds = rows.map((r) => r.trace_id!).filter((id) => ![traceId(2), traceId(4)].includes(id));
    for (const id of unsampledIds) expect(sampled.has(id)).toBe(false);
  });

  it('traceidratio samples the share of trace ids it says, the same way for the backend', async () => {
    const api = deployedApi('/s-ratio', [backend.url]);
    const g = await gatewayWith({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' }, api);
    const flags: { id: string; sampled: boolean }[] = [];
    for (let i = 0; i < 40; i++) {
      // Trace ids spread over the whole range: the ratio sampler looks at their low bytes.
      const id = `${(i * 0x06400000).toString(16).padStart(8, '0')}${'5'.repeat(24)}`;
      const upstream = await call(g, '/s-ratio', `00-${id}-${'34'.repeat(8)}-01`);
      flags.push({ id, sampled: upstream.endsWith('-01') });
    }
    const yes = flags.filter((f) => f.sampled);
    expect(yes.length).toBeGreaterThan(5);
    expect(yes.length).toBeLessThan(35);
    await eventually(() => {
      for (const f of yes) expect(received(f.id).length).toBeGreaterThan(0);
    }, 5000);
    for (const f of flags.filter((x) => !x.sampled)) expect(received(f.id)).toHaveLength(0);
  });

  it('a collector that never answers slows and fails no call; spans beyond the queue are dropped and counted', async () => {
    const silent = await startOtlpReceiver({ silent: true });
    const api = deployedApi('/s-silent', [backend.url]);
    const g = await startTestGateway(t.storage, bus, {
      tracing: tracingSettings(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: silent.url,
          OTEL_BSP_MAX_QUEUE_SIZE: '16',
          OTEL_BSP_SCHEDULE_DELAY: '10',
        },
        'portico-gateway',
      ),
    });
    gateways.push(g);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => {
      await g.sync.sync();
      if (!g.sync.servedApis().some((s) => s.id === api.id)) throw new Error('not served');
    });
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${g.url}/s-silent`).then(async (r) => (await r.arrayBuffer(), r.status)),
        ),
      );
      statuses.push(...results);
    }
    expect(statuses).toHaveLength(200);
    expect(statuses.every((s) => s === 200)).toBe(true);
    await eventually(() => expect(silent.requests.length).toBeGreaterThan(0));
    const text = await g.metrics.registry.metrics();
    const dropped = /portico_gateway_tracing_spans_dropped_total (\d+)/.exec(text);
    expect(Number(dropped?.[1])).toBeGreaterThan(0);
    await silent.close();
  });
});
