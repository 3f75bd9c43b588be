import type { EndpointGroup, Proxy } from '@portico/model';

/**
 * The service discovery of every endpoint group of an API, as the `/proxy/discovery` screen edits it
 * (console-apis.md 2.5 and 5): one value per group, in the order of the groups.
 */

export type Discovery = NonNullable<NonNullable<EndpointGroup['services']>['discovery']>;

/** A group's discovery as compared: none, or off without a provider or configuration, is undefined. */
export function discoveryValue(discovery: Discovery | undefined): Discovery | undefined {
  if (!discovery) return undefined;
  if (!discovery.enabled && discovery.provider === undefined && discovery.configuration === undefined)
    return undefined;
  return discovery;
}

/** The discovery of each group of the proxy. */
export const discoveriesOf = (proxy: Proxy): (Discovery | undefined)[] =>
  proxy.groups.map((group) => discoveryValue(group.services?.discovery));

/** A value's JSON with object keys sorted, so that two configurations compare whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const same = (a: Discovery | undefined, b: Discovery | undefined) =>
  stableJson(discoveryValue(a) ?? null) === stableJson(discoveryValue(b) ?? null);

/** Whether the edited discoveries differ from the proxy's (what enables Save and Reset). */
export const discoveriesChanged = (proxy: Proxy, values: readonly (Discovery | undefined)[]): boolean =>
  proxy.groups.some((group, g) => !same(group.services?.discovery, values[g]));

/**
 * The proxy with each group's discovery replaced by its value; a group whose discovery did not change
 * is kept as it is, and a group left without discovery loses its `services.discovery`.
 */
export function withDiscoveries(proxy: Proxy, values: readonly (Discovery | undefined)[]): Proxy {
  return {
    ...proxy,
    groups: proxy.groups.map((group, g) => {
      const value = discoveryValue(values[g]);
      if (same(group.services?.discovery, value)) return group;
      const { discovery: _dropped, ...others } = group.services ?? {};
      const services = value ? { ...others, discovery: value } : others;
      const { services: _old, ...rest } = group;
      return Object.keys(services).length > 0 ? { ...rest, services } : rest;
    }),
  };
}
