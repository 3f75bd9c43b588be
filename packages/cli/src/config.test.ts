import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration: outbound requests', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-config-'));

  it('reaches public addresses only by default', () => {
    expect(loadConfig({}, dir).outbound).toEqual({ allowPrivate: false, allowed: [] });
  });

  it('reads outbound.allowPrivate and outbound.allowed from portico.yml', () => {
    const file = path.join(dir, 'outbound.yml');
    writeFileSync(file, 'outbound:\n  allowPrivate: true\n  allowed: [backend.internal, 10.0.0.0/8]\n');
    expect(loadConfig({ PORTICO_CONFIG: file }, dir).outbound).toEqual({
      allowPrivate: true,
      allowed: ['backend.internal', '10.0.0.0/8'],
    });
  });

  it('lets PORTICO_OUTBOUND_ALLOW_PRIVATE and PORTICO_OUTBOUND_ALLOWED win over the file', () => {
    const file = path.join(dir, 'outbound-env.yml');
    writeFileSync(file, 'outbound:\n  allowPrivate: true\n  allowed: [a.internal]\n');
    const env = {
      PORTICO_CONFIG: file,
      PORTICO_OUTBOUND_ALLOW_PRIVATE: 'false',
      PORTICO_OUTBOUND_ALLOWED: 'host1, 192.168.0.0/16 ,',
    };
    expect(loadConfig(env, dir).outbound).toEqual({
      allowPrivate: false,
      allowed: ['host1', '192.168.0.0/16'],
    });
  });
});
