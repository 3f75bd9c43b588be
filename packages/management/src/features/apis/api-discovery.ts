import type { EndpointGroup } from '@portico/model';
import { SERVICE_DISCOVERY_PROVIDERS, invalidField } from '@portico/model';

/**
 * A group's service discovery (section 5): when enabled it needs a known provider and a
 * configuration its schema accepts; 400 naming the field (`proxy.groups.0.services.discovery.…`).
 */
export function validateDiscovery(group: EndpointGroup, field: string): void {
  const discovery = group.services?.discovery;
  if (!discovery?.enabled) return;
  const at = `${field}.services.discovery`;
  if (!discovery.provider) throw invalidField(`${at}.provider`, 'A service discovery type is required.');
  const provider = SERVICE_DISCOVERY_PROVIDERS.find((p) => p.id === discovery.provider);
  if (!provider)
    throw invalidField(`${at}.provider`, `Unknown service discovery type [${discovery.provider}].`);
  const parsed = provider.configuration.safeParse(discovery.configuration ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidField(`${at}.configuration.${issue.path.join('.')}`, issue.message);
  }
}

/** A value's JSON with object keys sorted: two configurations compare equal whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** A group's discovery settings as compared (none, or disabled without any setting, is null). */
function discoveryOf(group: EndpointGroup | undefined): string | null {
  const d = group?.services?.discovery;
  if (!d || (!d.enabled && d.provider === undefined && d.configuration === undefined)) return null;
  return stableJson(d);
}

/**
 * Whether saving `after` over `before` changes the service discovery of a group (compared per group
 * name; a group added with discovery or removed with it counts): that needs api-discovery-c.
 */
export function discoveryChanged(before: EndpointGroup[], after: EndpointGroup[]): boolean {
  const names = new Set([...before, ...after].map((g) => g.name));
  for (const name of names) {
    const was = discoveryOf(before.find((g) => g.name === name));
    if (was !== discoveryOf(after.find((g) => g.name === name))) return true;
  }
  return false;
}
