import { describe, expect, it } from 'vitest';
import { deepMerge, mergeConfig } from './config';

describe('start-up configuration', () => {
  it('merges constants.json, build.json and the portal settings, later ones winning', () => {
    const config = mergeConfig(
      { baseURL: 'http://api:8083/management', portal: { title: 'From constants', entrypoint: 'x' } },
      { version: '1.2.3', date: '2030-01-01' },
      {
        company: { name: 'ACME' },
        portal: { entrypoint: 'http://gw:8082', userCreation: { enabled: true } },
      },
    );
    expect(config.baseURL).toBe('http://api:8083/management/');
    expect(config.build).toEqual({ version: '1.2.3', date: '2030-01-01' });
    expect(config.company.name).toBe('ACME');
    expect(config.portal.title).toBe('From constants');
    expect(config.portal.entrypoint).toBe('http://gw:8082');
    expect(config.portal.userCreation.enabled).toBe(true);
  });

  it('fills what the server leaves out with defaults (10 s refreshes, the default theme)', () => {
    const config = mergeConfig({ baseURL: 'http://api/' }, {}, {});
    expect(config.scheduler).toEqual({ tasks: 10, notifications: 10 });
    expect(config.theme.name).toBe('default');
    expect(config.authentication.localLogin.enabled).toBe(true);
  });

  it('refuses constants without the management API address', () => {
    expect(() => mergeConfig({}, {}, {})).toThrow(/baseURL/);
  });

  it('merges objects key by key and replaces arrays', () => {
    expect(deepMerge({ a: { b: 1, c: [1] } }, { a: { c: [2], d: 3 } })).toEqual({
      a: { b: 1, c: [2], d: 3 },
    });
  });
});
