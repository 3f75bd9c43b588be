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
