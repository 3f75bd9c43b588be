import type { NewRequestRow } from '@portico/storage';
import { describe, expect, it } from 'vitest';
import type { HealthChecker } from '../health/health-checker.js';
import type { ReportSink } from '../reporting/report-sink.js';
import { Reporter } from '../reporting/reporter.js';
import type { SyncService } from '../sync/sync.service.js';
import { gatewayMetrics } from './gateway-metrics.js';

const row = {
  ...{ api_id: 'a1', plan_id: 'p1', application_id: 'c1', status: 200 },
  ...{ response_time: 5, api_response_time: 3, error_key: null },
} as NewRequestRow;

/** The value of one series line of the exposition text. */
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('gateway metrics beyond the requests', () => {
  it('shows the reporter queue and drops, the sync lag and last sync, and the endpoints health', async () => {
    // A sink whose first part is refused and whose later parts wait: records pile up, then drop.
    const waiting: (() => void)[] = [];
    let parts = 0;
    const sink: ReportSink = {
      add: () =>
        ++parts === 1
          ? Promise.reject(new Error('database away'))
          : new Promise<void>((resolve) => waiting.push(resolve)),
      close: () => Promise.resolve(),
    };
    const reporter = new Reporter(sink, { capacity: 3, batchSize: 1, flushIntervalMs: 1000 });
    let now = 1_000_000;
    const sync = { lastSyncAt: 0, servedApis: () => [{}, {}] } as unknown as SyncService;
    let states = [
      { api: 'a1', endpoint: 'primary', state: 3 },
      { api: 'a1', endpoint: 'backup', state: 1 },
    ];
    const health = { endpointStates: () => states } as unknown as HealthChecker;
    const metrics = gatewayMetrics({ reporter, sync, health, now: () => now });
    const scrape = async () => (await metrics.scrape()).body;

    // Before the first sync, the lag counts from the start.
    now += 4_000;
    let text = await scrape();
    expect(valueOf(text, 'portico_gateway_sync_lag_seconds')).toBe(4);
    expect(valueOf(text, 'portico_gateway_last_sync_timestamp_seconds')).toBe(0);
    expect(valueOf(text, 'portico_gateway_apis')).toBe(2);
    expect(valueOf(text, 'portico_gateway_endpoint_health{api="a1",endpoint="primary"}')).toBe(3);
    expect(valueOf(text, 'portico_gateway_endpoint_health{api="a1",endpoint="backup"}')).toBe(1);

    reporter.report(row); // refused by the database: dropped
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 5; i++) reporter.report(row); // 3 wait, 2 beyond the capacity
    await new Promise((r) => setImmediate(r));
    sync.lastSyncAt = now - 1_500;
    states = [{ api: 'a1', endpoint: 'primary', state: 0 }];
    text = await scrape();
    expect(valueOf(text, 'portico_gateway_reporter_queue_length')).toBe(3);
    expect(valueOf(text, 'portico_gateway_reporter_dropped_total')).toBe(3);
    expect(valueOf(text, 'portico_gateway_reporter_written_total')).toBe(0);
    expect(valueOf(text, 'portico_gateway_sync_lag_seconds')).toBe(1.5);
    expect(valueOf(text, 'portico_gateway_last_sync_timestamp_seconds')).toBe((now - 1_500) / 1000);
    // A removed endpoint leaves the figures; the rest show their current state.
    expect(valueOf(text, 'portico_gateway_endpoint_health{api="a1",endpoint="primary"}')).toBe(0);
    expect(text).not.toContain('endpoint="backup"');
    expect(
      valueOf(text, 'portico_gateway_requests_total{api="a1",plan="p1",application="c1",status_class="2xx"}'),
    ).toBe(6);

    for (const resolve of waiting) resolve();
    await new Promise((r) => setImmediate(r));
    text = await scrape();
    expect(valueOf(text, 'portico_gateway_reporter_queue_length')).toBe(0);
    expect(valueOf(text, 'portico_gateway_reporter_written_total')).toBe(3);
  });
});
