import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tracingSettings } from '@portico/gateway';
import { loadConfig } from './config.js';

describe('configuration: OpenTelemetry tracing (OTEL_* variables and portico.yml)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portico-otel-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is off unless configured', () => {
    expect(tracingSettings(loadConfig({}, dir).otel, 'portico-gateway')).toBeUndefined();
  });

  it('reads the same keys in portico.yml, and the environment wins', () => {
    const file = path.join(dir, 'otel.yml');
    writeFileSync(
      file,
      [
        'otel:',
        '  OTEL_EXPORTER_OTLP_ENDPOINT: http://collector:4318',
        '  OTEL_TRACES_SAMPLER: traceidratio',
        '  OTEL_TRACES_SAMPLER_ARG: 0.1',
        '  OTEL_SERVICE_NAME: from-file',
        '',
      ].join('\n'),
    );
    const fromFile = tracingSettings(loadConfig({ PORTICO_CONFIG: file }, dir).otel, 'portico-gateway');
    expect(fromFile).toMatchObject({
      url: 'http://collector:4318/v1/traces',
      sampler: 'traceidratio',
      ratio: 0.1,
      serviceName: 'from-file',
    });
    const env = { PORTICO_CONFIG: file, OTEL_SERVICE_NAME: 'from-env', OTEL_TRACES_SAMPLER_ARG: '0.5' };
    expect(tracingSettings(loadConfig(env, dir).otel, 'portico-gateway')).toMatchObject({
      serviceName: 'from-env',
      ratio: 0.5,
    });
  });

  it('refuses a key that is not an OTEL_ variable', () => {
    const file = path.join(dir, 'bad.yml');
    writeFileSync(file, 'otel:\n  endpoint: http://collector:4318\n');
    expect(() => loadConfig({ PORTICO_CONFIG: file }, dir)).toThrow(/otel/);
  });
});
