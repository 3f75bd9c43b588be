import type { ConsulDiscoveryConfiguration } from '@portico/model';
import type { OutboundPolicy } from '@portico/outbound';
import { outboundFetch } from '@portico/outbound';

/** One passing instance of the service: an endpoint of the group, named after Consul's service id. */
export interface DiscoveredEndpoint {
  name: string;
  target: string;
}

interface ConsulHealthEntry {
  Node?: { Address?: string };
  Service?: { ID?: string; Address?: string; Port?: number; Meta?: Record<string, string> };
}

/**
 * Reads Consul's health API (`/v1/health/service/<service>?passing=true&dc=`, the ACL token in
 * X-Consul-Token) through the outbound-URL guard: the service's passing instances as endpoints
 * (the service address, else the node's; `https` when the instance's meta says `gravitee_ssl`).
 * Throws on any failure: the group keeps the endpoints it had.
 */
export async function readConsulService(
  config: ConsulDiscoveryConfiguration,
  policy: OutboundPolicy,
): Promise<DiscoveredEndpoint[]> {
  const url = new URL(`/v1/health/service/${encodeURIComponent(config.service)}`, config.url);
  url.searchParams.set('passing', 'true');
  if (config.dc) url.searchParams.set('dc', config.dc);
  const response = await outboundFetch(url.toString(), {
    policy,
    timeoutMs: 10_000,
    maxBytes: 5 * 1024 * 1024,
    accept: 'application/json',
    ...(config.acl ? { headers: { 'x-consul-token': config.acl } } : {}),
  });
  if (response.status !== 200) throw new Error(`Consul answered with status ${response.status}`);
  const entries = JSON.parse(response.text()) as ConsulHealthEntry[];
  if (!Array.isArray(entries)) throw new Error('Consul did not answer a list');
  return entries.flatMap((entry) => {
    const service = entry.Service;
    const host = service?.Address || entry.Node?.Address;
    if (!service?.ID || !host || !service.Port) return [];
    const scheme = service.Meta?.gravitee_ssl === 'true' ? 'https' : 'http';
    const address = host.includes(':') ? `[${host}]` : host;
    const path = service.Meta?.gravitee_path ?? '';
    return [{ name: `consul#${service.ID}`, target: `${scheme}://${address}:${service.Port}${path}` }];
  });
}
