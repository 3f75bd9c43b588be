import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../packages/cli/src/config.js';
import type { Running } from '../../packages/cli/src/start.js';
import { startComponents } from '../../packages/cli/src/start.js';
import { freePort, login } from '../support/portico-process.js';

/**
 * Prometheus metrics of `portico start` (gateway on a metrics port of its own, management at
 * /metrics, both behind a token): traffic through the real gateway to a real backend (successes, a
 * 401, a 429 from a rate limit) shows in the gateway's figures, and the management calls of the
 * scenario in the management's, per route pattern.
 */

const TOKEN = 'scrape-secret';

/** Parses the exposition text: one entry per series line, `name{labels}` -> value. */
function parse(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    series.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return series;
}

describe('Prometheus metrics of the gateway and the management server', () => {
  let running: Running;
  let dataDir: string;
  let backend: http.Server;
  let backendUrl: string;
  const ports = { management: 0, gateway: 0, metrics: 0 };

  beforeAll(async () => {
    backend = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', () => resolve()));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-metrics-'));
    ports.management = await freePort();
    ports.gateway = await freePort();
    ports.metrics = await freePort();
    const config = loadConfig(
      {
        PORTICO_DATA_DIR: dataDir,
        PORTICO_MANAGEMENT_HOST: '127.0.0.1',
        PORTICO_MANAGEMENT_PORT: String(ports.management),
        PORTICO_GATEWAY_HOST: '127.0.0.1',
        PORTICO_GATEWAY_PORT: String(ports.gateway),
        PORTICO_GATEWAY_STATUS_PORT: '0',
        PORTICO_GATEWAY_METRICS_PORT: String(ports.metrics),
        PORTICO_METRICS_TOKEN: TOKEN,
        PORTICO_LOG_LEVEL: 'silent',
      },
      dataDir,
    );
    running = await startComponents(config, { management: true, gateway: true, web: false });
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
    backend?.closeAllConnections();
    await new Promise<void>((resolve) => (backend ? backend.close(() => resolve()) : resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const scrape = async (port: number) => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    return { text, series: parse(text) };
  };

  it('counts generated traffic per API, plan, application and status class, and management calls per route', async () => {
    const managementUrl = `http://127.0.0.1:${ports.management}/management`;
    const token = await login(managementUrl, 'admin', 'admin');
    const call = async <T = Record<string, unknown>>(method: string, url: string, body?: unknown) => {
      const res = await fetch(`${managementUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      expect(res.status, `${method} ${url}: ${text}`).toBeLessThan(300);
      return { body: (text ? JSON.parse(text) : undefined) as T, etag: res.headers.get('etag') ?? '' };
    };

    // An API with a health check on its endpoint and an API-key plan limited to 3 calls a minute.
    const { body: created } = await call<{ id: string }>('POST', '/apis', {
      ...{ name: 'Metered', version: '1', description: 'Counted' },
      ...{ context_path: '/metered', endpoint: backendUrl },
    });
    const apiId = created.id;
    const { body: definition, etag } = await call<{ proxy: { groups: { endpoints: { name: string }[] }[] } }>(
      'GET',
      `/apis/${apiId}`,
    );
    const endpoint = definition.proxy.groups[0]!.endpoints[0]!.name;
    const check = {
      enabled: true,
      trigger: { rate: 1, unit: 'HOURS' },
      steps: [
        {
          request: { method: 'GET', path: '/', fromRoot: false },
          response: { assertions: ['#response.status == 200'] },
        },
      ],
    };
    const put = await fetch(`${managementUrl}/apis/${apiId}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ services: { 'health-check': check } }),
    });
    expect(put.status, await put.text()).toBe(200);
    const { body: plan } = await call<{ id: string }>('POST', `/apis/${apiId}/plans`, {
      ...{ name: 'Limited', description: 'Three a minute', security: 'API_KEY', validation: 'AUTO' },
      paths: {
        '/': [
          {
            methods: [],
            enabled: true,
            'rate-limit': { rate: { limit: 3, periodTime: 1, periodTimeUnit: 'MINUTES' } },
          },
        ],
      },
    });
    await call('POST', `/apis/${apiId}/plans/${plan.id}/_publish`);
    await call('POST', `/apis/${apiId}/deploy`);
    await call('POST', `/apis/${apiId}?action=START`);
    const { body: application } = await call<{ id: string }>('POST', '/applications', {
      ...{ name: 'Meter reader', description: 'Reads meters' },
    });
    const { body: subscription } = await call<{ id: string }>(
      'POST',
      `/applications/${application.id}/subscriptions?plan=${plan.id}`,
      { request: 'Please' },
    );
    const { body: keys } = await call<{ key: string }[]>(
      'GET',
      `/apis/${apiId}/subscriptions/${subscription.id}/keys`,
    );
    const key = keys[0]!.key;

    // The gateway serves the key (what the polling sent is read from the figures before the traffic).
    const gateway = (withKey: boolean) =>
      fetch(`http://127.0.0.1:${ports.gateway}/metered/reading`, {
        headers: withKey ? { 'x-api-key': key } : {},
      });
    for (let started = Date.now(); (await gateway(true)).status !== 200;) {
      if (Date.now() - started > 10_000) throw new Error('the gateway did not serve the key within 10 s');
      await new Promise((r) => setTimeout(r, 25));
    }
    const labels = `api="${apiId}",plan="${plan.id}",application="${application.id}"`;
    const anonymous = `api="${apiId}",plan="none",application="none"`;
    const count = (s: Map<string, number>, name: string) => s.get(name) ?? 0;
    const before = (await scrape(ports.metrics)).series;
    expect(count(before, `portico_gateway_requests_total{${labels},status_class="2xx"}`)).toBe(1);

    // Generated traffic: 2 more successes, then the limit of 3 refuses one; 2 calls without the key.
    expect((await gateway(true)).status).toBe(200);
    expect((await gateway(true)).status).toBe(200);
    expect((await gateway(true)).status).toBe(429);
    expect((await gateway(false)).status).toBe(401);
    expect((await gateway(false)).status).toBe(401);

    const { text, series: after } = await scrape(ports.metrics);
    const delta = (name: string) => count(after, name) - count(before, name);
    expect(delta(`portico_gateway_requests_total{${labels},status_class="2xx"}`)).toBe(2);
    expect(delta(`portico_gateway_requests_total{${labels},status_class="4xx"}`)).toBe(1);
    expect(delta(`portico_gateway_requests_total{${anonymous},status_class="4xx"}`)).toBe(2);
    expect(delta(`portico_gateway_request_duration_seconds_count{${labels},status_class="2xx"}`)).toBe(2);
    expect(
      delta(`portico_gateway_request_duration_seconds_bucket{${labels},status_class="2xx",le="+Inf"}`),
    ).toBe(2);
    expect(delta(`portico_gateway_rejections_total{${labels},reason="rate_limit"}`)).toBe(1);
    expect(count(after, `portico_gateway_rejections_total{${labels},reason="quota"}`)).toBe(0);
    // Only the calls that reached the backend have an upstream time.
    expect(delta(`portico_gateway_upstream_duration_seconds_count{api="${apiId}"}`)).toBe(2);
    expect(count(after, `portico_gateway_endpoint_health{api="${apiId}",endpoint="${endpoint}"}`)).toBe(3);
    expect(count(after, 'portico_gateway_apis')).toBe(1);
    expect(count(after, 'portico_gateway_last_sync_timestamp_seconds')).toBeGreaterThan(0);
    expect(after.has('portico_gateway_sync_lag_seconds')).toBe(true);
    expect(after.has('portico_gateway_reporter_queue_length')).toBe(true);
    expect(count(after, 'portico_gateway_reporter_dropped_total')).toBe(0);
    expect(after.has('process_cpu_user_seconds_total')).toBe(true);
    expect(after.has('nodejs_heap_size_used_bytes')).toBe(true);
    // Ids, never keys nor paths.
    expect(text).not.toContain(key);
    expect(text).not.toContain('/metered');

    // Every answered call is written: the reporter's count reaches them.
    for (let started = Date.now(); ;) {
      const { series } = await scrape(ports.metrics);
      const written = count(series, 'portico_gateway_reporter_written_total');
      const requests = [...series].filter(([n]) => n.startsWith('portico_gateway_requests_total{'));
      if (written === requests.reduce((sum, [, v]) => sum + v, 0)) break;
      if (Date.now() - started > 10_000) throw new Error(`${written} records written, not all requests`);
      await new Promise((r) => setTimeout(r, 50));
    }

    // The scrape needs the token; the gateway's own port does not answer /metrics (a metrics port is set).
    expect((await fetch(`http://127.0.0.1:${ports.metrics}/metrics`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${ports.gateway}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${ports.management}/metrics`)).status).toBe(401);

    // Management: per route pattern and status class, never the raw URL.
    const management = await scrape(ports.management);
    const route = (method: string, pattern: string, status: string) =>
      count(
        management.series,
        `portico_management_http_requests_total{method="${method}",route="${pattern}",status_class="${status}"}`,
      );
    expect(route('POST', '/management/apis', '2xx')).toBe(1);
    expect(route('PUT', '/management/apis/:api', '2xx')).toBe(1);
    expect(route('POST', '/management/apis/:api/plans', '2xx')).toBe(1);
    expect(route('POST', '/management/applications', '2xx')).toBe(1);
    expect(route('GET', '/metrics', '4xx')).toBe(1);
    expect(
      count(
        management.series,
        `portico_management_http_request_duration_seconds_count{method="POST",route="/management/apis",status_class="2xx"}`,
      ),
    ).toBe(1);
    expect(management.series.has('process_resident_memory_bytes')).toBe(true);
    expect(count(management.series, 'portico_management_notification_deliveries_pending')).toBe(0);
    expect(count(management.series, 'portico_management_notification_oldest_pending_seconds')).toBe(0);
    // The one management process takes the scheduler lease and runs the jobs.
    for (let started = Date.now(); ;) {
      const { series } = await scrape(ports.management);
      const ran = count(
        series,
        'portico_management_scheduler_job_runs_total{job="analytics-retention",outcome="ok"}',
      );
      if (count(series, 'portico_management_scheduler_lease_held') === 1 && ran >= 1) break;
      if (Date.now() - started > 10_000) throw new Error('no scheduled run within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(management.text).not.toContain(apiId);
  });
});
