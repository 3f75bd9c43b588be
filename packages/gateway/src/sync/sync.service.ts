import type { Database, SyncCursor } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { OutboundPolicy } from '@portico/outbound';
import { createOutboundPolicy } from '@portico/outbound';
import type { CompiledApi } from '../router/compiled.js';
import { compileApi } from '../router/compile.js';
import { RouteTable } from '../router/route-table.js';
import { closeGroups, stopDiscovery } from '../proxy/endpoints.js';
import { ServiceDiscovery } from '../discovery/discovery.js';
import type { AccessState, KeyInfo, SubscriptionInfo } from './access-state.js';
import { toKeyInfo, toSubscriptionInfo } from './access-state.js';
import type { Deployments } from './deployments.js';
import { servedDigest, servedIds, servedSeq } from './deployments.js';
import type { Snapshot } from './snapshot.js';
import { readSnapshot, writeSnapshot } from './snapshot.js';
import type { Reconciliation, SyncPlan } from './sync-reads.js';
import { readAll, readChanges, readChangesAndReconcile } from './sync-reads.js';

/** Replaced connection pools are closed after requests in flight had time to finish. */
const DRAIN_MS = 30_000;

export interface SyncOptions {
  tags: readonly string[];
  tenant: string | undefined;
  snapshotFile: string;
  now(): number;
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
  /** How long the first load may take before the snapshot is served (default 5 s). */
  startTimeoutMs?: number;
  /** A sync that takes longer is given up (its result is never applied) and the next one starts (default 15 s). */
  runTimeoutMs?: number;
  /** How often the served state is compared with the database (default 30 s). */
  reconcileIntervalMs?: number;
  /**
   * Runs before each attempt of the first load from the database until it succeeds once (a migration
   * deferred at start); its failure is logged and the load attempted all the same.
   */
  beforeFirstLoad?: (() => Promise<void>) | undefined;
  /** The outbound-URL guard of service discovery's reads (default: public addresses only). */
  outbound?: OutboundPolicy | undefined;
}

class SyncTimeout extends Error {}

/**
 * Keeps the gateway's routes, subscriptions and keys in line with the database: a full load in one
 * consistent read, then the changes committed since each read (whatever the order of the commits),
 * and now and then a reconciliation that compares everything served with the database and repairs
 * drift. Every read is finished before anything is applied; the route table is swapped whole, in the
 * same synchronous step as the snapshot file is written, so the snapshot always holds what is served.
 */
export class SyncService {
  private deployments: Deployments = new Map();
  private compiled = new Map<string, CompiledApi>();
  private table = new RouteTable([]);
  private served = new Set<string>();
  private cursor: SyncCursor = { seq: 0, horizon: null, since: 0 };
  /** A full load from the database took place (else: empty, or the snapshot). */
  private loaded = false;
  private snapshotStale = false;
  private running: Promise<void> | undefined;
  private again = false;
  /** Bumped when a run is given up: its late result is dropped. */
  private generation = 0;
  private lastReconcileAt = 0;
  private beforeFirstLoad: (() => Promise<void>) | undefined;
  lastSyncAt = 0;
  lastError: string | undefined;
  /** The highest lifecycle event sequence and the digest of what is served (heartbeat). */
  servedSeq = 0;
  digest = '';
  /** Told about the APIs served after each change of the route table (health checks). */
  onRoutesChanged: ((apis: CompiledApi[]) => void) | undefined;
  private readonly discovery: ServiceDiscovery;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly access: AccessState,
    private readonly options: SyncOptions,
  ) {
    this.beforeFirstLoad = options.beforeFirstLoad;
    this.discovery = new ServiceDiscovery({
      policy: options.outbound ?? createOutboundPolicy(),
      log: options.log,
      onChange: () => this.onRoutesChanged?.([...this.compiled.values()]),
    });
  }

  routes(): RouteTable {
    return this.table;
  }

  /** APIs served now (deployed, started, matching the sharding tags). */
  servedApis(): CompiledApi[] {
    return [...this.compiled.values()];
  }

  /** Whether what is served comes from the database (else from the snapshot, or nothing yet). */
  get fromDatabase(): boolean {
    return this.loaded;
  }

  /**
   * Full load; when the database does not answer within the start timeout, the snapshot is served
   * at once and the load goes on behind it (every sync tries again until one succeeds).
   */
  async start(): Promise<'database' | 'snapshot' | 'empty'> {
    const timeout = this.options.startTimeoutMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.sync(), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeout)))]);
    clearTimeout(timer);
    if (this.loaded) return 'database';
    const snapshot = readSnapshot(this.options.snapshotFile);
    this.options.log.warn(
      `database unavailable at start (${this.lastError ?? `no answer within ${timeout} ms`}): ${
        snapshot ? 'serving the snapshot' : 'no snapshot'
      }; retrying behind it`,
    );
    if (!snapshot) return 'empty';
    if (!this.loaded) this.restore(snapshot);
    return 'snapshot';
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
          await this.runOnce();
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

  private async runOnce(): Promise<void> {
    if (!this.loaded && this.beforeFirstLoad) {
      // A failure does not hold the load back: a database migrated by a newer version (a rolling
      // upgrade) refuses the migration and still serves; an unreachable one fails the load too.
      await this.beforeFirstLoad().then(
        () => (this.beforeFirstLoad = undefined),
        (error: unknown) => this.options.log.warn(`before the first load: ${String(error)}`),
      );
    }
    const generation = this.generation;
    const ctx = { tags: this.options.tags, log: this.options.log, now: this.options.now };
    const reconcile =
      this.loaded &&
      this.options.now() - this.lastReconcileAt >= (this.options.reconcileIntervalMs ?? 30_000);
    const read: Promise<SyncPlan & Partial<Reconciliation>> = !this.loaded
      ? readAll(this.db, ctx)
      : reconcile
        ? readChangesAndReconcile(this.db, this.deployments, this.cursor, ctx)
        : readChanges(this.db, this.deployments, this.cursor, ctx);
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.options.runTimeoutMs ?? 15_000;
    const plan = await Promise.race([
      read,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SyncTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]).catch((error: unknown) => {
      if (error instanceof SyncTimeout) {
        this.generation++;
        read.catch(() => {});
      }
      throw error;
    });
    clearTimeout(timer);
    if (generation !== this.generation) return;
    if (plan.driftApis) this.logDrift(plan as SyncPlan & Reconciliation);
    this.apply(plan);
    if (reconcile) this.lastReconcileAt = this.options.now();
    if (!this.loaded) this.options.log.info(`loaded from the database: serving ${this.compiled.size} APIs`);
    this.loaded = true;
    this.lastSyncAt = this.options.now();
  }

  private logDrift(plan: SyncPlan & Reconciliation): void {
    const served = servedIds(plan.deployments, this.options.tags);
    const expected = <R extends { api_id: string }>(rows: R[]) => rows.filter((r) => served.has(r.api_id));
    const keys = new Map<string, KeyInfo>();
    for (const k of this.access.keys.values()) if (served.has(k.apiId)) keys.set(k.key, k);
    for (const k of expected(plan.recentKeys)) keys.set(k.key, toKeyInfo(k));
    const subscriptions = new Map<string, SubscriptionInfo>();
    for (const s of this.access.subscriptions.values()) if (served.has(s.apiId)) subscriptions.set(s.id, s);
    for (const s of expected(plan.recentSubscriptions)) subscriptions.set(s.id, toSubscriptionInfo(s));
    const differ = <T>(mine: Map<string, T>, theirs: Map<string, T>) =>
      [...theirs].filter(([id, v]) => JSON.stringify(mine.get(id)) !== JSON.stringify(v)).length +
      [...mine.keys()].filter((id) => !theirs.has(id)).length;
    const keyDrift = differ(keys, new Map(expected(plan.keys).map((k) => [k.key, toKeyInfo(k)])));
    // An application's new name is no drift: renames reach the gateway with the reconciliation.
    const rights = (s: SubscriptionInfo): SubscriptionInfo => ({ ...s, applicationName: undefined });
    const subscriptionDrift = differ(
      new Map([...subscriptions].map(([id, s]) => [id, rights(s)])),
      new Map(expected(plan.subscriptions).map((s) => [s.id, rights(toSubscriptionInfo(s))])),
    );
    if (plan.driftApis.size + keyDrift + subscriptionDrift > 0)
      this.options.log.warn(
        `reconciliation repaired drift: ${plan.driftApis.size} APIs (${[...plan.driftApis].join(', ')}), ` +
          `${keyDrift} keys, ${subscriptionDrift} subscriptions`,
      );
  }

  /** Applies a finished read: access rights, routes and snapshot, in one synchronous step. */
  private apply(plan: SyncPlan): void {
    const served = servedIds(plan.deployments, this.options.tags);
    if (plan.replaceAccess) this.access.clear();
    else this.access.retainApis(served);
    for (const s of plan.subscriptions)
      if (served.has(s.api_id)) this.access.putSubscription(toSubscriptionInfo(s));
    for (const k of plan.keys) if (served.has(k.api_id)) this.access.putKey(toKeyInfo(k));
    const servedChanged = served.size !== this.served.size || [...served].some((id) => !this.served.has(id));
    this.deployments = plan.deployments;
    this.cursor = plan.cursor;
    const changedRoutes = servedChanged || plan.changed.size > 0 || !this.loaded;
    if (changedRoutes) this.rebuild(new Set([...plan.changed, ...this.served, ...served]), served);
    this.served = served;
    const digest = servedDigest(this.deployments, served, this.access);
    if (digest !== this.digest || this.snapshotStale || !this.loaded) {
      this.digest = digest;
      this.servedSeq = servedSeq(this.deployments);
      this.save();
    }
  }

  /** Recompiles the changed APIs and swaps the route table. */
  private rebuild(changed: Set<string>, served: Set<string>): void {
    const retired: CompiledApi[] = [];
    const compiled = new Map(this.compiled);
    for (const id of changed) {
      const previous = compiled.get(id);
      const d = this.deployments.get(id);
      if (!served.has(id) || !d?.deployed) {
        if (previous) retired.push(previous);
        compiled.delete(id);
        continue;
      }
      if (previous && previous.deployed === d.deployed) continue;
      try {
        compiled.set(id, compileApi(d.deployed, this.options.tenant, this.options.tags, this.discovery));
        if (previous) retired.push(previous);
      } catch (error) {
        this.options.log.error(
          `API ${id} cannot be served: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    this.compiled = compiled;
    this.table = new RouteTable(compiled.values());
    this.onRoutesChanged?.([...compiled.values()]);
    // Retired groups stop discovering at once; their pools close once the requests in flight are done.
    stopDiscovery(retired.flatMap((a) => a.groups));
    if (retired.length > 0)
      setTimeout(() => void closeGroups(retired.flatMap((a) => a.groups)), DRAIN_MS).unref();
  }

  private save(): void {
    try {
      writeSnapshot(this.options.snapshotFile, {
        version: 2,
        savedAt: this.options.now(),
        eventSeq: this.servedSeq,
        digest: this.digest,
        apis: [...this.deployments].map(([id, d]) => ({ id, ...d })),
        keys: [...this.access.keys.values()],
        subscriptions: [...this.access.subscriptions.values()],
      });
      this.snapshotStale = false;
    } catch (error) {
      this.snapshotStale = true;
      this.options.log.warn(`snapshot not written (written again at the next sync): ${String(error)}`);
    }
  }

  private restore(snapshot: Snapshot): void {
    const deployments: Deployments = new Map();
    for (const { id, ...d } of snapshot.apis) deployments.set(id, d);
    this.deployments = deployments;
    const served = servedIds(deployments, this.options.tags);
    this.access.clear();
    for (const s of snapshot.subscriptions) this.access.putSubscription(s);
    for (const k of snapshot.keys) this.access.putKey(k);
    this.rebuild(new Set(deployments.keys()), served);
    this.served = served;
    this.servedSeq = servedSeq(deployments);
    this.digest = servedDigest(deployments, served, this.access);
  }

  async close(): Promise<void> {
    await this.running;
    await closeGroups([...this.compiled.values()].flatMap((a) => a.groups));
  }
}
