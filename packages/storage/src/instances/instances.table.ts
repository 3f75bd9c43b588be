import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A gateway process: registered at start, heartbeat every 5 s, stopped on shutdown. */
export interface InstanceTable {
  id: string;
  hostname: string;
  ip: string;
  port: number;
  version: string;
  tags: string;
  tenant: string | null;
  plugins: string;
  system_properties: string;
  operating_system_name: string | null;
  state: string;
  started_at: number;
  last_heartbeat_at: number;
  stopped_at: number | null;
  /** JSON: the latest monitoring data (cpu, memory, heap spaces, gc, event loop, ...). */
  monitoring: string | null;
  dropped_reports: number;
  /** The highest lifecycle event sequence the gateway serves (issue 21). */
  sync_seq: Generated<number | null>;
  /** A digest of what the gateway serves: gateways with the same tags and digest serve the same. */
  sync_digest: Generated<string | null>;
}
export type InstanceRow = Selectable<InstanceTable>;
export type NewInstanceRow = Insertable<InstanceTable>;
export type InstanceRowUpdate = Updateable<InstanceTable>;
