import { describe, expect, it } from 'vitest';
import { parseKeyValues, tracingSettings } from './settings.js';

describe('tracing settings from the OTEL_* variables', () => {
  it('is off unless an OTLP endpoint is configured, or when disabled', () => {
    expect(tracingSettings({}, 'svc')).toBeUndefined();
    expect(tracingSettings({ OTEL_SERVICE_NAME: 'x' }, 'svc')).toBeUndefined();
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' };
    expect(tracingSettings({ ...on, OTEL_SDK_DISABLED: 'true' }, 'svc')).toBeUndefined();
    expect(tracingSettings({ ...on, OTEL_TRACES_EXPORTER: 'none' }, 'svc')).toBeUndefined();
    expect(tracingSettings(on, 'svc')).toMatchObject({
      url: 'http://collector:4318/v1/traces',
      sampler: 'parentbased_always_on',
      ratio: 1,
      serviceName: 'svc',
    });
  });

  it('reads the traces endpoint as is, headers, sampler, ratio, service name and resource attributes', () => {
    const warnings: string[] = [];
    const s = tracingSettings(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example/otlp/traces',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s%3Dcret, x-team = blue,broken',
        OTEL_TRACES_SAMPLER: 'ParentBased_TraceIdRatio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-resource,deployment.environment=prod',
      },
      'svc',
      (m) => warnings.push(m),
    )!;
    expect(s.url).toBe('https://c.example/otlp/traces');
    expect(s.headers).toEqual({ 'api-key': 's=cret', 'x-team': 'blue' });
    expect(s.sampler).toBe('parentbased_traceidratio');
    expect(s.ratio).toBe(0.25);
    expect(s.serviceName).toBe('from-resource');
    expect(s.resourceAttributes['deployment.environment']).toBe('prod');
    expect(warnings).toEqual([]);
  });

  it('falls back on an unknown sampler or a bad ratio, and says so', () => {
    const warnings: string[] = [];
    const s = tracingSettings(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_TRACES_SAMPLER: 'sometimes',
        OTEL_SERVICE_NAME: 'named',
      },
      'svc',
      (m) => warnings.push(m),
    )!;
    expect(s.sampler).toBe('parentbased_always_on');
    expect(s.serviceName).toBe('named');
    const r = tracingSettings(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '2',
      },
      'svc',
      (m) => warnings.push(m),
    )!;
    expect(r.ratio).toBe(1);
    expect(warnings).toHaveLength(2);
    expect(parseKeyValues('a=%ZZ,b=2')).toEqual({ b: '2' });
  });

  it('reads the batch processor variables, the export batch bounded by the queue', () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(tracingSettings(on, 'svc')!.batch).toEqual({
      maxQueueSize: 2048,
      maxExportBatchSize: 512,
      scheduledDelayMillis: 1000,
      exportTimeoutMillis: 10_000,
    });
    const warnings: string[] = [];
    const tuned = tracingSettings(
      {
        ...on,
        OTEL_BSP_MAX_QUEUE_SIZE: '8192',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_BSP_EXPORT_TIMEOUT: '3000',
      },
      'svc',
      (m) => warnings.push(m),
    )!;
    expect(tuned.batch).toEqual({
      maxQueueSize: 8192,
      maxExportBatchSize: 2048,
      scheduledDelayMillis: 200,
      exportTimeoutMillis: 3000,
    });
    const bounded = tracingSettings(
      { ...on, OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '500' },
      'svc',
      (m) => warnings.push(m),
    )!;
    expect(bounded.batch.maxExportBatchSize).toBe(100);
    expect(
      tracingSettings({ ...on, OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 'many' }, 'svc', (m) => warnings.push(m))!
        .batch.maxExportBatchSize,
    ).toBe(512);
    expect(warnings).toEqual([
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 500 is above OTEL_BSP_MAX_QUEUE_SIZE, 100 is used',
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE: many is not a positive integer, 512 is used',
    ]);
  });
});
