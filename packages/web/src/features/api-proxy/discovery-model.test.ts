import type { EndpointGroup, Proxy } from '@portico/model';
import { describe, expect, it } from 'vitest';
import { discoveriesChanged, discoveriesOf, discoveryValue, withDiscoveries } from './discovery-model';

const group = (name: string, services?: EndpointGroup['services']): EndpointGroup => ({
  name,
  endpoints: [
    {
      name: `${name}-1`,
      target: 'http://a',
      weight: 1,
      backup: false,
      inherit: true,
      tenants: [],
      type: 'HTTP',
    },
  ],
  load_balancing: { type: 'ROUND_ROBIN' },
  ...(services ? { services } : {}),
});
const consul = {
  enabled: true,
  provider: 'consul-service-discovery',
  configuration: { url: 'http://c', service: 'shop' },
};
const proxy = (groups: EndpointGroup[]) => ({ context_path: '/shop', groups }) as unknown as Proxy;

describe('service discovery of the groups', () => {
  it('reads one value per group; none, or off without settings, is no discovery', () => {
    expect(discoveryValue(undefined)).toBeUndefined();
    expect(discoveryValue({ enabled: false })).toBeUndefined();
    expect(discoveryValue({ enabled: false, provider: 'consul-service-discovery' })).toEqual({
      enabled: false,
      provider: 'consul-service-discovery',
    });
    const p = proxy([
      group('a'),
      group('b', { discovery: { enabled: false } }),
      group('c', { discovery: consul }),
    ]);
    expect(discoveriesOf(p)).toEqual([undefined, undefined, consul]);
  });

  it('is changed only when a group differs, whatever the key order of a configuration', () => {
    const p = proxy([group('a'), group('b', { discovery: consul })]);
    expect(discoveriesChanged(p, discoveriesOf(p))).toBe(false);
    // Switched on, then off again: nothing changed.
    expect(discoveriesChanged(p, [{ enabled: false }, consul])).toBe(false);
    const reordered = { ...consul, configuration: { service: 'shop', url: 'http://c' } };
    expect(discoveriesChanged(p, [undefined, reordered])).toBe(false);
    expect(discoveriesChanged(p, [{ enabled: true }, consul])).toBe(true);
    expect(discoveriesChanged(p, [undefined, { ...consul, enabled: false }])).toBe(true);
  });

  it('replaces the discovery of the changed groups only, dropping it where none is left', () => {
    const untouched = group('b', { discovery: { enabled: false } });
    const p = proxy([group('a'), untouched, group('c', { discovery: consul })]);
    const next = withDiscoveries(p, [consul, undefined, { enabled: false }]);
    expect(next.context_path).toBe('/shop');
    expect(next.groups[0]).toEqual({ ...group('a'), services: { discovery: consul } });
    expect(next.groups[1]).toBe(untouched);
    expect(next.groups[2]).toEqual(group('c'));
    expect(next.groups[2]).not.toHaveProperty('services');
    expect(withDiscoveries(p, discoveriesOf(p)).groups).toEqual(p.groups);
  });
});
