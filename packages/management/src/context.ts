import type { FastifyBaseLogger } from 'fastify';
import type { Database, EventBus, Storage } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { OutboundSettings } from '@portico/outbound';
import { DEFAULT_OUTBOUND_SETTINGS } from '@portico/outbound';
import type { RequestIndexer } from './features/analytics/request-indexer.js';
import type { AnalyticsRetention } from './features/analytics/retention.job.js';
import { DEFAULT_ANALYTICS_RETENTION } from './features/analytics/retention.job.js';

/** Options of the management API, read by the CLI from portico.yml and the environment. */
export interface ManagementOptions {
  /** Secret of the session JWTs; generated once and kept in the database when absent. */
  jwtSecret?: string | undefined;
  /** Life of a session, in seconds (default one week). */
  sessionTtlSeconds: number;
  /** Origins of the web app allowed to call the API with credentials (CORS). */
  corsOrigins: string[];
  /** `smtp://user:pass@host:port` or `smtps://...`; overrides the email settings. */
  smtpUrl?: string | undefined;
  /** Public URL of the web app, for links in mails. */
  portalUrl: string;
  /** Public URL of the gateway: the default of the `portal.entrypoint` setting. */
  gatewayUrl?: string | undefined;
  /** The header the gateway reads API keys from: the default of the `portal.apikeyHeader` setting. */
  apiKeyHeader?: string | undefined;
  /** Session cookie over HTTPS only. */
  secureCookie: boolean;
  /** Product version, shown by `GET portal` and the OpenAPI document. */
  version: string;
  /**
   * Addresses or CIDR ranges of the reverse proxies in front of the API: for a request from one of them,
   * the client's address (the login throttle's key, audit) is taken from X-Forwarded-For. None by default:
   * the connection's address.
   */
  trustedProxies: string[];
  /**
   * What server-side requests to user-given URLs (imports, fetchers, webhooks) may reach: public
   * addresses only by default; `allowPrivate` and `allowed` (hosts, addresses, CIDR ranges) open more.
   */
  outbound: OutboundSettings;
  /** How often the scheduler runs its jobs (dictionary polls, ...), in milliseconds; 0 turns it off. */
  schedulerTickMs: number;
  /**
   * How long the scheduler lease holds without renewal (default 30 s): when its holder dies, another
   * management node runs the jobs within this period.
   */
  schedulerLeaseMs?: number;
  /** How long raw requests (with their logs) and per-minute rollups are kept. */
  analyticsRetention: AnalyticsRetention;
  /** A GeoIP database (MMDB) that places the client addresses of reported requests (the indexer's). */
  geoipDatabase?: string | undefined;
  /** bcrypt cost of new password hashes (default 10; 4 to 15). */
  passwordHashCost?: number;
}

export const DEFAULT_OPTIONS: ManagementOptions = {
  sessionTtlSeconds: 7 * 24 * 3600,
  corsOrigins: ['http://localhost:8084', 'http://127.0.0.1:8084'],
  portalUrl: 'http://localhost:8084',
  secureCookie: false,
  version: '0.1.0',
  trustedProxies: [],
  outbound: DEFAULT_OUTBOUND_SETTINGS,
  schedulerTickMs: 1000,
  analyticsRetention: DEFAULT_ANALYTICS_RETENTION,
};

/** The services and parts every feature may use; built once by `buildManagementApp`. */
export interface AppContext {
  storage: Storage;
  db: Kysely<Database>;
  bus: EventBus;
  options: ManagementOptions;
  log: FastifyBaseLogger;
  /**
   * Turns the gateways' report segments into request rows: every read of requests, logs or their
   * rollups (analytics, logs, alerts) calls `requests.catchUp()` first.
   */
  requests: RequestIndexer;
  /** Current time in epoch milliseconds (replaceable in tests of expiry rules). */
  now(): number;
}
