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

  it('reads the system proxy from outbound.proxy, PORTICO_OUTBOUND_PROXY winning', () => {
    const file = path.join(dir, 'outbound-proxy.yml');
    writeFileSync(file, 'outbound:\n  proxy: http://file-proxy:3128\n');
    expect(loadConfig({ PORTICO_CONFIG: file }, dir).outbound.proxy).toBe('http://file-proxy:3128');
    const env = { PORTICO_CONFIG: file, PORTICO_OUTBOUND_PROXY: 'http://env-proxy:8080' };
    expect(loadConfig(env, dir).outbound.proxy).toBe('http://env-proxy:8080');
    expect(loadConfig({}, dir).outbound.proxy).toBeUndefined();
  });
});

describe('configuration: the gateway URL (portal entrypoint by default)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-config-'));

  it('follows the port the gateway listens on', () => {
    expect(loadConfig({}, dir).gatewayUrl).toBe('http://localhost:8082');
    expect(loadConfig({ PORTICO_GATEWAY_PORT: '9090' }, dir).gatewayUrl).toBe('http://localhost:9090');
  });

  it('is PORTICO_GATEWAY_URL or gateway.url when the gateway is reached through another address', () => {
    const file = path.join(dir, 'gateway-url.yml');
    writeFileSync(file, 'gateway:\n  url: https://api.example.com/\n');
    expect(loadConfig({ PORTICO_CONFIG: file }, dir).gatewayUrl).toBe('https://api.example.com');
    expect(
      loadConfig({ PORTICO_CONFIG: file, PORTICO_GATEWAY_URL: 'https://gw.example.com' }, dir).gatewayUrl,
    ).toBe('https://gw.example.com');
  });
});

describe('configuration: the database connection timeout', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-config-'));

  it('is 5 s by default, database.connectTimeoutMs in portico.yml, PORTICO_DATABASE_CONNECT_TIMEOUT_MS above both', () => {
    expect(loadConfig({}, dir).databaseConnectTimeoutMs).toBe(5000);
    const file = path.join(dir, 'connect-timeout.yml');
    writeFileSync(file, 'database:\n  connectTimeoutMs: 2500\n');
    expect(loadConfig({ PORTICO_CONFIG: file }, dir).databaseConnectTimeoutMs).toBe(2500);
    expect(
      loadConfig({ PORTICO_CONFIG: file, PORTICO_DATABASE_CONNECT_TIMEOUT_MS: '800' }, dir)
        .databaseConnectTimeoutMs,
    ).toBe(800);
    expect(() => loadConfig({ PORTICO_DATABASE_CONNECT_TIMEOUT_MS: 'soon' }, dir)).toThrow(
      'PORTICO_DATABASE_CONNECT_TIMEOUT_MS must be a number of milliseconds',
    );
  });
});

describe('configuration: the password hash cost', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-config-'));

  it('is 10 by default, management.passwordHashCost in portico.yml, PORTICO_PASSWORD_HASH_COST above both', () => {
    expect(loadConfig({}, dir).passwordHashCost).toBe(10);
    const file = path.join(dir, 'hash-cost.yml');
    writeFileSync(file, 'management:\n  passwordHashCost: 12\n');
    expect(loadConfig({ PORTICO_CONFIG: file }, dir).passwordHashCost).toBe(12);
    expect(loadConfig({ PORTICO_CONFIG: file, PORTICO_PASSWORD_HASH_COST: '4' }, dir).passwordHashCost).toBe(
      4,
    );
    for (const bad of ['3', '16', 'high'])
      expect(() => loadConfig({ PORTICO_PASSWORD_HASH_COST: bad }, dir)).toThrow(
        'PORTICO_PASSWORD_HASH_COST must be an integer from 4 to 15',
      );
  });
});

describe('configuration: the optional dashboard widgets', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-config-'));

  it('shows every widget Portico can fill by default, analytics.widgets in portico.yml, the variable above both', () => {
    expect(loadConfig({}, dir).analyticsWidgets).toEqual(['host', 'user_agent_name', 'os_name']);
    const file = path.join(dir, 'widgets.yml');
    writeFileSync(file, 'analytics:\n  widgets: [os_name, host]\n');
    expect(loadConfig({ PORTICO_CONFIG: file }, dir).analyticsWidgets).toEqual(['os_name', 'host']);
    const env = { PORTICO_CONFIG: file, PORTICO_ANALYTICS_WIDGETS: ' user_agent_name ,' };
    expect(loadConfig(env, dir).analyticsWidgets).toEqual(['user_agent_name']);
    expect(loadConfig({ PORTICO_ANALYTICS_WIDGETS: '' }, dir).analyticsWidgets).toEqual([]);
  });

  it('refuses an unknown widget, and the geo widgets without a GeoIP database, naming them', () => {
    expect(() => loadConfig({ PORTICO_ANALYTICS_WIDGETS: 'host,map' }, dir)).toThrow(
      "PORTICO_ANALYTICS_WIDGETS: unknown widget 'map' (known: host, user_agent_name, os_name, geo_country, geo_city)",
    );
    expect(() => loadConfig({ PORTICO_ANALYTICS_WIDGETS: 'host,geo_city' }, dir)).toThrow(
      'analytics.widgets: geo_city needs a GeoIP database (analytics.geoipDatabase or PORTICO_ANALYTICS_GEOIP_DATABASE)',
    );
    const file = path.join(dir, 'widgets-geo.yml');
    writeFileSync(file, 'analytics:\n  widgets: [geo_country]\n');
    expect(() => loadConfig({ PORTICO_CONFIG: file }, dir)).toThrow(/geo_country needs a GeoIP database/);
    writeFileSync(file, 'analytics:\n  widgets: [geo_planet]\n');
    expect(() => loadConfig({ PORTICO_CONFIG: file }, dir)).toThrow(/analytics\.widgets/);
  });

  it('adds the geo widgets by default with a GeoIP database, which must exist', () => {
    const database = path.join(dir, 'GeoLite2-City.mmdb');
    writeFileSync(database, 'not read here');
    const config = loadConfig({ PORTICO_ANALYTICS_GEOIP_DATABASE: 'GeoLite2-City.mmdb' }, dir);
    expect(config.geoipDatabase).toBe(database);
    expect(config.analyticsWidgets).toEqual([
      'host',
      'user_agent_name',
      'os_name',
      'geo_country',
      'geo_city',
    ]);
    const file = path.join(dir, 'geoip.yml');
    writeFileSync(file, `analytics:\n  geoipDatabase: ${database}\n  widgets: [geo_city]\n`);
    expect(loadConfig({ PORTICO_CONFIG: file }, dir)).toMatchObject({
      geoipDatabase: database,
      analyticsWidgets: ['geo_city'],
    });
    expect(() => loadConfig({ PORTICO_ANALYTICS_GEOIP_DATABASE: 'missing.mmdb' }, dir)).toThrow(
      `analytics.geoipDatabase: no file at ${path.join(dir, 'missing.mmdb')}`,
    );
  });
});
