import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ViewTable } from './views/views.table.js';
import type { TenantTable } from './tenants/tenants.table.js';
import type { EntrypointTable } from './entrypoints/entrypoints.table.js';
import type { ApiHeaderTable } from './api-headers/api-headers.table.js';
import type { Transaction } from 'kysely';
import { Kysely, PostgresDialect, sql } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { ApiKeyTable } from './api-keys/api-keys.table.js';
import type { ApiContextPathTable, ApiTable } from './apis/apis.table.js';
import type { MetadataTable } from './metadata/metadata.table.js';
import type { TopApiTable } from './top-apis/top-apis.table.js';
import type { ApplicationTable } from './applications/applications.table.js';
import type { AuditTable } from './audits/audits.table.js';
import type { EventTable } from './events/events.table.js';
import type { GroupTable } from './groups/groups.table.js';
import type { InvitationTable } from './invitations/invitations.table.js';
import type { IdentityProviderTable } from './identity-providers/identity-providers.table.js';
import type { InstanceTable } from './instances/instances.table.js';
import type { RevokedSessionTable } from './revoked-sessions/revoked-sessions.table.js';
import type { HealthCheckTable } from './health-checks/health-checks.table.js';
import type { RequestLogTable, RequestSegmentTable, RequestTable } from './requests/requests.table.js';
import type { RequestRollupTable } from './requests/rollups.js';
import type { MailTable } from './mails/mails.table.js';
import type { MembershipTable } from './memberships/memberships.table.js';
import { migrateToLatest } from './migrations/index.js';
import { QueuedWriteSqliteDialect, SQLITE_WRITE_WAIT_MS } from './sqlite-dialect.js';
import type { NotificationTable } from './notifications/notifications.table.js';
import type { PageTable } from './pages/pages.table.js';
import type { MediaTable } from './media/media.table.js';
import type {
  NotificationDeliveryTable,
  NotificationSettingTable,
} from './notification-settings/notification-settings.table.js';
import type { ParameterTable } from './parameters/parameters.table.js';
import type { PlanTable } from './plans/plans.table.js';
import type { RoleTable } from './roles/roles.table.js';
import type { SubscriptionTable } from './subscriptions/subscriptions.table.js';
import type { TagTable } from './tags/tags.table.js';
import type { TokenTable } from './tokens/tokens.table.js';
import type { DictionaryTable } from './dictionaries/dictionaries.table.js';
import type {
  ApplicationRegistrationTable,
  ClientRegistrationProviderTable,
} from './client-registration/client-registration.table.js';
import type { SchedulerLeaseTable } from './leases/leases.table.js';
import type { RateHitTable, ThrottleCounterTable } from './throttles/throttles.table.js';
import type { AlertEventTable, AlertTable } from './alerts/alerts.table.js';
import type { RatingAnswerTable, RatingTable } from './ratings/ratings.table.js';
import type { UserTable } from './users/users.table.js';

export interface Database {
  users: UserTable;
  roles: RoleTable;
  memberships: MembershipTable;
  groups: GroupTable;
  invitations: InvitationTable;
  parameters: ParameterTable;
  tags: TagTable;
  apis: ApiTable;
  api_context_paths: ApiContextPathTable;
  metadata: MetadataTable;
  top_apis: TopApiTable;
  plans: PlanTable;
  applications: ApplicationTable;
  subscriptions: SubscriptionTable;
  api_keys: ApiKeyTable;
  pages: PageTable;
  media: MediaTable;
  notification_settings: NotificationSettingTable;
  notification_deliveries: NotificationDeliveryTable;
  alerts: AlertTable;
  alert_events: AlertEventTable;
  ratings: RatingTable;
  rating_answers: RatingAnswerTable;
  events: EventTable;
  audits: AuditTable;
  notifications: NotificationTable;
  tokens: TokenTable;
  mails: MailTable;
  identity_providers: IdentityProviderTable;
  requests: RequestTable;
  request_logs: RequestLogTable;
  request_segments: RequestSegmentTable;
  request_rollups: RequestRollupTable;
  request_rollups_10m: RequestRollupTable;
  request_rollups_api: RequestRollupTable;
  instances: InstanceTable;
  health_checks: HealthCheckTable;
  revoked_sessions: RevokedSessionTable;
  dictionaries: DictionaryTable;
  client_registration_providers: ClientRegistrationProviderTable;
  application_registrations: ApplicationRegistrationTable;
  scheduler_leases: SchedulerLeaseTable;
  throttle_counters: ThrottleCounterTable;
  rate_hits: RateHitTable;
  views: ViewTable;
  tenants: TenantTable;
  entrypoints: EntrypointTable;
  api_headers: ApiHeaderTable;
}

/** What repositories take first: the database or a transaction on it. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type Dialect = 'sqlite' | 'postgres';

export interface StorageOptions {
  /** `postgres://...` selects PostgreSQL; otherwise SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** Folder of the SQLite file `portico.db` (created when missing). */
  dataDir: string;
  /** SQLite file name inside dataDir (tests use their own). */
  sqliteFile?: string;
  /** Largest number of PostgreSQL connections of this process. */
  poolSize?: number;
  /**
   * PostgreSQL: how long opening a connection may take, until the server is ready for queries
   * (default 5000 ms). A host that refuses fails at once; one that does not answer fails after this.
   */
  connectTimeoutMs?: number | undefined;
}

/** Default of `connectTimeoutMs` (PORTICO_DATABASE_CONNECT_TIMEOUT_MS). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

export interface Storage {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Answers when the database does (the health endpoint). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the pool, for LISTEN/NOTIFY. */
  pgPool?: pg.Pool;
  /** SQLite only: the database file (other threads open their own connection to it). */
  sqlitePath?: string;
}

// int8 (COUNT, bigint epoch milliseconds) as JavaScript numbers: all our values fit in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/** Opens the database of the configuration and brings its schema up to date. */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const storage = connect(options);
  try {
    await migrateToLatest(storage.db);
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

/** Opens the database without migrating (the `portico migrate` command migrates itself). */
export function connect(options: StorageOptions): Storage {
  if (options.databaseUrl && /^postgres(ql)?:/.test(options.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      // A server that vanished (host down, route dropped) is noticed on idle connections too.
      keepAlive: true,
    });
    // An idle client that loses its server must not bring the process down.
    pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      pgPool: pool,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }
  if (options.databaseUrl) throw new Error(`Unsupported DATABASE_URL: ${options.databaseUrl.split(':')[0]}`);
  mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, options.sqliteFile ?? 'portico.db');
  const database = new SQLite(file, { timeout: SQLITE_WRITE_WAIT_MS });
  // Pages of 16 KiB (SQLite's default is 4): a new database takes them, an existing one keeps its own.
  // Every request through a gateway becomes a row of ~0.5 KB in four b-trees, and with larger pages its
  // writer splits fewer of them and writes fewer frames per transaction (npm run bench:report-writer).
  database.pragma('page_size = 16384');
  database.pragma('journal_mode = WAL');
  // FULL: a write answered with success is on disk, even if the machine stops right after.
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // From now on the wait for another writer is the dialect's, asynchronous (see sqlite-dialect.ts).
  database.pragma('busy_timeout = 0');
  const db = new Kysely<Database>({ dialect: new QueuedWriteSqliteDialect(database) });
  return {
    db,
    dialect: 'sqlite',
    sqlitePath: file,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
