import type { DeployedApi } from '@portico/model';
import { DeployedApi as DeployedApiSchema } from '@portico/model';
import type { Database, EventRow } from '@portico/storage';
import {
  findApiKeysOfApis,
  findApiKeysUpdatedSince,
  findEventsAfter,
  findLastEventSeq,
  findLatestLifecycleEvents,
  findSubscriptionsOfApis,
  findSubscriptionsUpdatedSince,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { CompiledApi } from '../router/compiled.js';
import { compileApi } from '../router/compile.js';
import { RouteTable } from '../router/route-table.js';
import { closeGroups } from '../proxy/endpoints.js';
import type { AccessState } from './access-state.js';
import { toKeyInfo, toSubscriptionInfo } from './access-state.js';
import { servesApi } from './sharding.js';
import type { Snapshot } from './snapshot.js';
import { readSnapshot, writeSnapshot } from './snapshot.js';

const LIFECYCLE = ['PUBLISH_API', 'UNPUBLISH_API', 'START_API', 'STOP_API'];
/** Changes of subscriptions and keys are read again this far back, for clocks that differ a little. */
const ACCESS_OVERLAP_MS = 5000;
/** Replaced connection pools are closed after requests in flight had time to finish. */
const DRAIN_MS = 30_000;

export interface SyncOptions {
  tags: readonly string[];
  tenant: string | undefined;
  snapshotFile: string;
  now(): number;
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
}

interface ApiState {
  deployed: DeployedApi | undefined;
  started: boolean;
}

/**
 * Keeps the gateway's routes, subscriptions and keys in line with the database: a full load at start,
 * then every lifecycle event after the cursor and every subscription or key changed since the last
 * sync. The route table is swapped whole. The last good state goes to a snapshot file.
 */
export class SyncService {
  private readonly states = new Map<string, ApiState>();
  private readonly compiled = new Map<string, CompiledApi>();
  private table = new RouteTable([]);
  private eventSeq = 0;
  private accessSince = 0;
  private running: Promise<void> | undefined;
  private again = false;
  lastSyncAt = 0;
  lastError: string | undefined;
  /** Told about the APIs served after each change of the route table (health checks). */
  onRoutesChanged: ((apis: CompiledApi[]) => void) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly access: AccessState,
    private readonly options: SyncOptions,
  ) {}

  routes(): RouteTable {
    return this.table;
  }

  /** APIs served now (deployed, started, matching the sharding tags). */
  servedApis(): CompiledApi[] {
    return [...this.compiled.values()];
  }

  /** Full load; when the database does not answer, the snapshot is served instead. */
  async start(): Promise<'database' | 'snapshot' | 'empty'> {
    try {
      await this.fullLoad();
      return 'database';
    } catch (error) {
      const snapshot = readSnapshot(this.options.snapshotFile);
      this.options.log.warn(
        `database unavailable at start (${String(error)}): ${snapshot ? 'serving the snapshot' : 'no snapshot'}`,
      );
      if (!snapshot) return 'empty';
      this.restore(snapshot);
      return 'snapshot';
    }
  }

  /** Runs one sync now, or once more right after the one under way. */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.incremental();
        } while (this.again);
        this.lastError = undefined;
      } catch (error) {
        this.lastError = String(error);
        this.options.log.warn(`sync failed, serving the last good state: ${this.lastError}`);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async fullLoad(): Promise<void> {
    const since = this.options.now();
    const [events, seq] = await Promise.all([findLatestLifecycleEvents(this.db), findLastEventSeq(this.db)]);
    this.states.clear();
    for (const e of events) this.apply(e);
    this.eventSeq = seq;
    const served = this.servedIds();
    const [keys, subscriptions] = await Promise.all([
      findApiKeysOfApis(this.db, served),
      findSubscriptionsOfApis(this.db, served),
    ]);
    this.access.clear();
    for (const s of subscriptions) this.access.putSubscription(toSubscriptionInfo(s));
    for (const k of keys) this.access.putKey(toKeyInfo(k));
    this.accessSince = since - ACCESS_OVERLAP_MS;
    this.rebuild(new Set(this.states.keys()));
    this.lastSyncAt = this.options.now();
    this.save();
  }

  private async incremental(): Promise<void> {
    const since = this.options.now();
    const changed = new Set<string>();
    for (;;) {
      const events = await findEventsAfter(this.db, this.eventSeq, LIFECYCLE, 500);
      for (const e of events) {
        this.eventSeq = Math.max(this.eventSeq, e.seq);
        const id = this.apply(e);
        if (id) changed.add(id);
      }
      if (events.length < 500) break;
    }
    const before = new Set(this.compiled.keys());
    if (changed.size > 0) this.rebuild(changed);
    const newlyServed = [...this.compiled.keys()].filter((id) => !before.has(id));
    const [keys, subscriptions, newKeys, newSubscriptions] = await Promise.all([
      findApiKeysUpdatedSince(this.db, this.accessSince),
      findSubscriptionsUpdatedSince(this.db, this.accessSince),
      findApiKeysOfApis(this.db, newlyServed),
      findSubscriptionsOfApis(this.db, newlyServed),
    ]);
    for (const s of [...subscriptions, ...newSubscriptions])
      this.access.putSubscription(toSubscriptionInfo(s));
    for (const k of [...keys, ...newKeys]) this.access.putKey(toKeyInfo(k));
    this.accessSince = since - ACCESS_OVERLAP_MS;
    this.lastSyncAt = this.options.now();
    if (changed.size > 0 || keys.length > 0 || subscriptions.length > 0) this.save();
  }

  /** Applies one lifecycle event; returns the API id it changed. */
  private apply(e: EventRow): string | undefined {
    if (!e.api_id) return undefined;
    const state = this.states.get(e.api_id) ?? { deployed: undefined, started: false };
    switch (e.type) {
      case 'PUBLISH_API': {
        const parsed = DeployedApiSchema.safeParse(JSON.parse(e.payload ?? 'null'));
        if (!parsed.success) {
          this.options.log.error(`PUBLISH_API event ${e.id} of API ${e.api_id} has an unreadable payload`);
          return undefined;
        }
        state.deployed = parsed.data;
        state.started = parsed.data.state === 'STARTED';
        break;
      }
      case 'UNPUBLISH_API':
        state.deployed = undefined;
        state.started = false;
        break;
      case 'START_API':
        state.started = true;
        break;
      case 'STOP_API':
        state.started = false;
        break;
      default:
        return undefined;
    }
    this.states.set(e.api_id, state);
    return e.api_id;
  }

  private servedIds(): string[] {
    return [...this.states.entries()]
      .filter(([, s]) => s.deployed && s.started && servesApi(this.options.tags, s.deployed.definition.tags))
      .map(([id]) => id);
  }

  /** Recompiles the changed APIs and swaps the route table. */
  private rebuild(changed: Set<string>): void {
    const served = new Set(this.servedIds());
    const retired: CompiledApi[] = [];
    for (const id of changed) {
      const previous = this.compiled.get(id);
      const state = this.states.get(id);
      if (!served.has(id) || !state?.deployed) {
        if (previous) retired.push(previous);
        this.compiled.delete(id);
        continue;
      }
      if (previous && previous.deployed === state.deployed) continue;
      try {
        this.compiled.set(id, compileApi(state.deployed, this.options.tenant, this.options.tags));
        if (previous) retired.push(previous);
      } catch (error) {
        this.options.log.error(
          `API ${id} cannot be served: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    this.table = new RouteTable(this.compiled.values());
    this.onRoutesChanged?.([...this.compiled.values()]);
    if (retired.length > 0)
      setTimeout(() => void closeGroups(retired.flatMap((a) => a.groups)), DRAIN_MS).unref();
  }

  private save(): void {
    try {
      const apis = [...this.states.values()]
        .filter((s) => s.deployed)
        .map((s) => ({ ...s.deployed!, state: s.started ? 'STARTED' : 'STOPPED' }) as DeployedApi);
      writeSnapshot(this.options.snapshotFile, {
        version: 1,
        savedAt: this.options.now(),
        eventSeq: this.eventSeq,
        accessSince: this.accessSince,
        apis,
        keys: [...this.access.keys.values()],
        subscriptions: [...this.access.subscriptions.values()],
      });
    } catch (error) {
      this.options.log.warn(`snapshot not written: ${String(error)}`);
    }
  }

  private restore(snapshot: Snapshot): void {
    this.states.clear();
    for (const api of snapshot.apis)
      this.states.set(api.id, { deployed: api, started: api.state === 'STARTED' });
    this.access.clear();
    for (const s of snapshot.subscriptions) this.access.putSubscription(s);
    for (const k of snapshot.keys) this.access.putKey(k);
    this.eventSeq = snapshot.eventSeq;
    this.accessSince = snapshot.accessSince;
    this.rebuild(new Set(this.states.keys()));
  }

  async close(): Promise<void> {
    await this.running;
    await closeGroups([...this.compiled.values()].flatMap((a) => a.groups));
  }
}
