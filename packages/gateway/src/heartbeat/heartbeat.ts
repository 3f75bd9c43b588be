import os from 'node:os';
import type { Database } from '@portico/storage';
import { insertInstance, updateInstance } from '@portico/storage';
import type { Kysely } from 'kysely';
import { POLICIES } from '../policies/registry.js';
import { RESOURCE_TYPES } from '../resources/registry.js';
import { ProcessMonitor } from './monitoring.js';

export interface InstanceInfo {
  id: string;
  port: number;
  version: string;
  tags: readonly string[];
  tenant: string | undefined;
}

function localIp(): string {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

/** What the gateway runs, as the plugins table of the instance screen shows it. */
export function gatewayPlugins(version: string) {
  const plugin = (type: string, id: string, name: string) => ({ id, name, version, type });
  return [
    ...[...POLICIES.values()].map((p) => plugin('policy', p.id, p.name)),
    ...[...RESOURCE_TYPES.values()].map((r) => plugin('resource', r.id, r.name)),
    plugin('reporter', 'reporter-database', 'Request and log reporter (database)'),
    plugin('service', 'service-heartbeat', 'Heartbeat and monitoring'),
    plugin('service', 'service-healthcheck', 'Endpoint health checks'),
    plugin('service', 'service-sync', 'API definition synchronisation'),
  ];
}

/**
 * Registers the gateway as an instance at start, writes its heartbeat with monitoring data every
 * 5 s, and marks it stopped on shutdown.
 */
export class Heartbeat {
  private timer: NodeJS.Timeout | undefined;
  private readonly monitor = new ProcessMonitor();
  private startedAt = Date.now();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly info: InstanceInfo,
    private readonly droppedReports: () => number,
    private readonly intervalMs = 5000,
    /** The event sequence and digest of what the gateway serves. */
    private readonly served: () => { seq: number; digest: string } = () => ({ seq: 0, digest: '' }),
  ) {}

  async start(): Promise<void> {
    this.startedAt = Date.now();
    await insertInstance(this.db, {
      id: this.info.id,
      hostname: os.hostname(),
      ip: localIp(),
      port: this.info.port,
      version: this.info.version,
      tags: JSON.stringify(this.info.tags),
      tenant: this.info.tenant ?? null,
      plugins: JSON.stringify(gatewayPlugins(this.info.version)),
      system_properties: JSON.stringify({
        'node.version': process.version,
        'os.name': os.type(),
        'os.release': os.release(),
        'os.arch': os.arch(),
        'process.pid': String(process.pid),
        'process.cwd': process.cwd(),
        cpus: String(os.cpus().length),
        'total.memory': String(os.totalmem()),
      }),
      operating_system_name: os.type(),
      state: 'STARTED',
      started_at: this.startedAt,
      last_heartbeat_at: this.startedAt,
      stopped_at: null,
      monitoring: JSON.stringify(this.monitor.sample(this.startedAt)),
      dropped_reports: 0,
      sync_seq: this.served().seq,
      sync_digest: this.served().digest,
    });
    this.timer = setInterval(() => void this.beat(), this.intervalMs);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    try {
      await updateInstance(this.db, this.info.id, {
        last_heartbeat_at: Date.now(),
        monitoring: JSON.stringify(this.monitor.sample(this.startedAt)),
        dropped_reports: this.droppedReports(),
        sync_seq: this.served().seq,
        sync_digest: this.served().digest,
      });
    } catch {
      // The database is away: the next beat tries again.
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.monitor.close();
    await updateInstance(this.db, this.info.id, {
      state: 'STOPPED',
      stopped_at: Date.now(),
      last_heartbeat_at: Date.now(),
      dropped_reports: this.droppedReports(),
    }).catch(() => {});
  }
}
