import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withMetrics } from './metrics-server.js';
import { MetricsRegistry } from './registry.js';

describe('GET /metrics on the gateway port', () => {
  let server: http.Server;
  let base: string;
  const metrics = new MetricsRegistry();
  metrics.counter('portico_test_dropped_spans_total', 'Spans dropped.').inc(3);

  beforeAll(async () => {
    const api = (req: http.IncomingMessage, res: http.ServerResponse) => {
      req.resume();
      res.writeHead(200).end(`api ${req.method} ${req.url}`);
    };
    server = http.createServer(withMetrics(api, metrics, 'tok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers the scrape with the token, and leaves every other request to the APIs', async () => {
    const auth = { authorization: 'Bearer tok' };
    const scrape = await fetch(`${base}/metrics?x=1`, { headers: auth });
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    expect(text).toContain('portico_test_dropped_spans_total 3');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer tok2' } })).status).toBe(401);
    expect(await (await fetch(`${base}/metricsx`, { headers: auth })).text()).toBe('api GET /metricsx');
    expect(await (await fetch(`${base}/metrics/a`, { headers: auth })).text()).toBe('api GET /metrics/a');
    expect(await (await fetch(`${base}/metrics`, { method: 'POST', headers: auth })).text()).toBe(
      'api POST /metrics',
    );
  });

  it('gives the same counter to a second caller of the same name', () => {
    expect(metrics.counter('portico_test_dropped_spans_total', 'Spans dropped.')).toBe(
      metrics.registry.getSingleMetric('portico_test_dropped_spans_total'),
    );
  });
});
