import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHROMIUM, decide } from './ensure-chromium.mjs';

const SCRIPT = fileURLToPath(new URL('./ensure-chromium.mjs', import.meta.url));

const env = (over: Partial<Parameters<typeof decide>[0]> = {}) => ({
  chromiumPath: undefined,
  isExecutable: () => false,
  isRoot: false,
  hasAptGet: false,
  ...over,
});

describe('pretest: chromium for the browser tests', () => {
  it('does nothing when chromium is at its default place', () => {
    expect(decide(env({ isExecutable: (file) => file === DEFAULT_CHROMIUM }))).toEqual({
      action: 'ready',
      chromium: DEFAULT_CHROMIUM,
    });
  });

  it('uses PORTICO_CHROMIUM when set, and refuses one that is not there without installing', () => {
    expect(decide(env({ chromiumPath: '/opt/chrome', isExecutable: (f) => f === '/opt/chrome' }))).toEqual({
      action: 'ready',
      chromium: '/opt/chrome',
    });
    const missing = decide(env({ chromiumPath: '/opt/chrome', isRoot: true, hasAptGet: true }));
    expect(missing.action).toBe('fail');
    expect(missing.message).toContain('PORTICO_CHROMIUM names /opt/chrome');
  });

  it("installs Debian's chromium when missing, as root with apt-get", () => {
    expect(decide(env({ isRoot: true, hasAptGet: true }))).toEqual({
      action: 'install',
      chromium: DEFAULT_CHROMIUM,
    });
  });

  it('stops with one line saying how when it may not install', () => {
    const notRoot = decide(env({ hasAptGet: true }));
    expect(notRoot.action).toBe('fail');
    expect(notRoot.message).toContain('sudo apt-get install -y chromium');
    expect(notRoot.message).not.toContain('\n');
    const noApt = decide(env({ isRoot: true }));
    expect(noApt.action).toBe('fail');
    expect(noApt.message).toContain('PORTICO_CHROMIUM');
  });

  it('the script exits at once with that line and status 1', () => {
    const result = spawnSync(process.execPath, [SCRIPT], {
      env: { ...process.env, PORTICO_CHROMIUM: '/nonexistent/chromium' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('/nonexistent/chromium');
  });
});
