import type { EndpointGroup } from '@portico/model';
import { CONSUL_DISCOVERY, ConsulDiscoveryConfiguration } from '@portico/model';
import type { OutboundPolicy } from '@portico/outbound';
import type { EndpointRuntime, GroupDiscovery, GroupRuntime } from '../proxy/endpoints.js';
import { closeEndpoint } from '../proxy/endpoints.js';
import type { DiscoveredEndpoint } from './consul.js';
import { readConsulService } from './consul.js';

export interface DiscoveryOptions {
  /** The outbound-URL guard every read of a provider goes through. */
  policy: OutboundPolicy;
  log: { info(msg: string): void; warn(msg: string): void };
  /** Told after a group's endpoints changed (the health checks are planned again). */
  onChange?: (() => void) | undefined;
}

const DEFAULT_POLL_MS = 5000;

/**
 * Runs the service discovery of the served groups: one timer per group with discovery enabled, that
 * reads the provider and swaps the group's endpoint array (its static endpoints, then the discovered
 * ones) so the load balancer sees them at the next request. A failed read keeps the endpoints the
 * group had. The last list found per API, group and configuration is remembered, so a redeployed
 * group starts with it instead of without endpoints until its first read.
 */
export class ServiceDiscovery {
  private readonly last = new Map<string, { found: DiscoveredEndpoint[]; watchers: number }>();

  constructor(private readonly options: DiscoveryOptions) {}

  /** The discovery of the groups of one API. */
  forApi(apiId: string): GroupDiscovery {
    return (runtime, group, build) => this.watch(apiId, runtime, group, build);
  }

  private watch(
    apiId: string,
    runtime: GroupRuntime,
    group: EndpointGroup,
    build: (name: string, target: string) => EndpointRuntime,
  ): (() => void) | undefined {
    const discovery = group.services?.discovery;
    const where = `API ${apiId}, group ${group.name}`;
    if (discovery?.provider !== CONSUL_DISCOVERY) {
      this.options.log.warn(`${where}: unknown service discovery provider ${discovery?.provider}`);
      return undefined;
    }
    const parsed = ConsulDiscoveryConfiguration.safeParse(discovery.configuration);
    if (!parsed.success) {
      this.options.log.warn(`${where}: invalid Consul configuration, no service discovery`);
      return undefined;
    }
    const config = parsed.data;
    const key = `${apiId}\n${group.name}\n${JSON.stringify(config)}`;
    const memory = this.last.get(key) ?? { found: [], watchers: 0 };
    memory.watchers += 1;
    this.last.set(key, memory);

    const statics = runtime.endpoints;
    let discovered = new Map<string, EndpointRuntime>();
    const apply = (found: DiscoveredEndpoint[], notify: boolean) => {
      const next = new Map<string, EndpointRuntime>();
      for (const f of found) {
        const id = `${f.name}\n${f.target}`;
        if (!next.has(id)) next.set(id, discovered.get(id) ?? build(f.name, f.target));
      }
      const removed = [...discovered].filter(([id]) => !next.has(id));
      const changed = removed.length > 0 || next.size !== discovered.size;
      discovered = next;
      if (!changed) return;
      runtime.endpoints = [...statics, ...next.values()];
      // undici's close lets the requests in flight on a removed endpoint finish.
      for (const [, endpoint] of removed) void closeEndpoint(endpoint);
      if (notify) this.options.onChange?.();
    };
    // While the group is being built: whoever builds it plans its health checks.
    if (memory.found.length > 0) apply(memory.found, false);

    let stopped = false;
    let running = false;
    let failing: string | undefined;
    const poll = async () => {
      if (running || stopped) return;
      running = true;
      try {
        const found = await readConsulService(config, this.options.policy);
        if (stopped) return;
        if (failing !== undefined) this.options.log.info(`${where}: Consul answers again`);
        failing = undefined;
        memory.found = found;
        apply(found, true);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Logged when it starts failing or fails otherwise, not at every poll.
        if (!stopped && message !== failing)
          this.options.log.warn(`${where}: Consul not read, keeping the last endpoints: ${message}`);
        failing = message;
      } finally {
        running = false;
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), config.pollIntervalMs ?? DEFAULT_POLL_MS);
    timer.unref();
    return () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      memory.watchers -= 1;
      if (memory.watchers === 0 && this.last.get(key) === memory) this.last.delete(key);
    };
  }
}
