import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration: HTTP timeouts of the gateway and management servers', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portico-timeouts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('defaults to 10 s for headers, 30 s for the request and 65 s of keep-alive', () => {
    expect(loadConfig({}, dir).httpTimeouts).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 65_000,
    });
  });

  it('reads portico.yml, and the environment wins', () => {
    const file = path.join(dir, 'timeouts.yml');
    writeFileSync(
      file,
      'http:\n  headersTimeoutMs: 2000\n  requestTimeoutMs: 5000\n  keepAliveTimeoutMs: 7000\n',
    );
    expect(loadConfig({ PORTICO_CONFIG: file }, dir).httpTimeouts).toEqual({
      headersMs: 2000,
      requestMs: 5000,
      keepAliveMs: 7000,
    });
    expect(
      loadConfig({ PORTICO_CONFIG: file, PORTICO_HTTP_REQUEST_TIMEOUT_MS: '9000' }, dir).httpTimeouts
        .requestMs,
    ).toBe(9000);
  });

  it('refuses a value that is not a number of milliseconds, and headers longer than the request', () => {
    expect(() => loadConfig({ PORTICO_HTTP_HEADERS_TIMEOUT_MS: '10s' }, dir)).toThrow(
      'PORTICO_HTTP_HEADERS_TIMEOUT_MS must be a number of milliseconds, not "10s"',
    );
    expect(() => loadConfig({ PORTICO_HTTP_HEADERS_TIMEOUT_MS: '40000' }, dir)).toThrow(
      'The headers timeout (40000 ms) must not exceed the request timeout (30000 ms)',
    );
  });
});
