import type { NewRequestRow } from '@portico/storage';
import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from './registry.js';
import { RequestMetrics } from './request-metrics.js';

const row = (over: Partial<NewRequestRow>): NewRequestRow =>
  ({
    api_id: 'a1',
    plan_id: 'p1',
    application_id: 'c1',
    status: 200,
    response_time: 12,
    api_response_time: 8,
    error_key: null,
    ...over,
  }) as NewRequestRow;

async function scrape(requests: RequestMetrics): Promise<string> {
  const metrics = new MetricsRegistry();
  for (const m of requests.metrics()) metrics.snapshot(m);
  return (await metrics.registry.metrics()).toString();
}

describe('request metrics', () => {
  it('counts per API, plan, application and status class, with cumulative latency buckets', async () => {
    const requests = new RequestMetrics();
    requests.record(row({}));
    requests.record(row({ response_time: 300, api_response_time: 290 }));
    requests.record(row({ status: 429, error_key: 'RATE_LIMIT_TOO_MANY_REQUESTS', api_response_time: -1 }));
    requests.record(row({ status: 429, error_key: 'QUOTA_TOO_MANY_REQUESTS', api_response_time: -1 }));
    requests.record(
      row({ api_id: null, plan_id: null, application_id: null, status: 404, api_response_time: -1 }),
    );
    const text = await scrape(requests);
    const labels = 'api="a1",plan="p1",application="c1"';
    expect(text).toContain(`portico_gateway_requests_total{${labels},status_class="2xx"} 2`);
    expect(text).toContain(`portico_gateway_requests_total{${labels},status_class="4xx"} 2`);
    expect(text).toContain(
      'portico_gateway_requests_total{api="none",plan="none",application="none",status_class="4xx"} 1',
    );
    expect(text).toContain(
      `portico_gateway_request_duration_seconds_bucket{${labels},status_class="2xx",le="0.025"} 1`,
    );
    expect(text).toContain(
      `portico_gateway_request_duration_seconds_bucket{${labels},status_class="2xx",le="0.5"} 2`,
    );
    expect(text).toContain(
      `portico_gateway_request_duration_seconds_bucket{${labels},status_class="2xx",le="+Inf"} 2`,
    );
    expect(text).toContain(
      `portico_gateway_request_duration_seconds_sum{${labels},status_class="2xx"} 0.312`,
    );
    expect(text).toContain('portico_gateway_upstream_duration_seconds_count{api="a1"} 2');
    expect(text).toContain(`portico_gateway_rejections_total{${labels},reason="rate_limit"} 1`);
    expect(text).toContain(`portico_gateway_rejections_total{${labels},reason="quota"} 1`);
  });

  it('folds values beyond the caps into "other"', async () => {
    const requests = new RequestMetrics({ apis: 2, plans: 100, applications: 2, series: 4 });
    for (let i = 0; i < 5; i++) requests.record(row({ api_id: `a${i}` }));
    for (let i = 0; i < 3; i++) requests.record(row({ application_id: `c${i}` }));
    const text = await scrape(requests);
    const lines = text.split('\n').filter((l) => l.startsWith('portico_gateway_requests_total{'));
    expect(lines).toEqual([
      'portico_gateway_requests_total{api="a0",plan="p1",application="c1",status_class="2xx"} 1',
      'portico_gateway_requests_total{api="a1",plan="p1",application="c1",status_class="2xx"} 2',
      'portico_gateway_requests_total{api="other",plan="p1",application="c1",status_class="2xx"} 3',
      'portico_gateway_requests_total{api="a1",plan="p1",application="c0",status_class="2xx"} 1',
      'portico_gateway_requests_total{api="other",plan="other",application="other",status_class="2xx"} 1',
    ]);
  });
});
