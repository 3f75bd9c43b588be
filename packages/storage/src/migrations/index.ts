import type { Kysely, Migration, MigrationProvider, MigrationResultSet } from 'kysely';
import { Migrator } from 'kysely';
import { assertSchemaKnown } from './schema-check.js';
import * as initial from './2026-11-21-0001-initial.js';
import * as identityProviders from './2026-11-21-0002-identity-providers.js';
import * as gateway from './2026-11-21-0003-gateway.js';
import * as healthChecks from './2026-11-21-0004-health-checks.js';
import * as apis from './2026-11-21-0100-apis.js';
import * as subscriptions from './2026-11-21-0200-subscriptions.js';
import * as revokedSessions from './2026-11-21-0300-revoked-sessions.js';
import * as userSessions from './2026-11-23-0400-user-sessions.js';
import * as syncOrder from './2026-11-22-2100-sync-order.js';
import * as dictionaries from './2026-11-24-1205-dictionaries.js';
import * as portalConfiguration from './2026-11-24-1400-portal-configuration.js';
import * as identitiesClientRegistration from './2026-11-25-1300-identities-client-registration.js';
import * as groupRolesInvitations from './2026-11-25-1500-group-roles-invitations.js';
import * as pagesMedia from './2026-11-25-1600-pages-media.js';
import * as notificationSettings from './2026-11-25-1700-notification-settings.js';
import * as requestRollups from './2026-11-26-0300-request-rollups.js';
import * as alerts from './2026-11-26-0900-alerts.js';
import * as ratings from './2026-11-26-1400-ratings.js';
import * as sharedThrottles from './2026-11-26-2000-shared-throttles.js';
import * as requestTraceId from './2026-11-26-2200-request-trace-id.js';
import * as ratingsApiRate from './2026-11-26-2330-ratings-api-rate.js';
import * as requestClientDetails from './2026-11-28-1600-request-client-details.js';
import * as requestSegments from './2026-11-29-1700-request-segments.js';

/** Every migration, by timestamped name; applied in name order. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21-0001-initial': initial,
  '2026-11-21-0002-identity-providers': identityProviders,
  '2026-11-21-0003-gateway': gateway,
  '2026-11-21-0004-health-checks': healthChecks,
  '2026-11-21-0100-apis': apis,
  '2026-11-21-0200-subscriptions': subscriptions,
  '2026-11-21-0300-revoked-sessions': revokedSessions,
  '2026-11-23-0400-user-sessions': userSessions,
  '2026-11-22-2100-sync-order': syncOrder,
  '2026-11-24-1205-dictionaries': dictionaries,
  '2026-11-24-1400-portal-configuration': portalConfiguration,
  '2026-11-25-1300-identities-client-registration': identitiesClientRegistration,
  '2026-11-25-1500-group-roles-invitations': groupRolesInvitations,
  '2026-11-25-1600-pages-media': pagesMedia,
  '2026-11-25-1700-notification-settings': notificationSettings,
  '2026-11-26-0300-request-rollups': requestRollups,
  '2026-11-26-0900-alerts': alerts,
  '2026-11-26-1400-ratings': ratings,
  '2026-11-26-2000-shared-throttles': sharedThrottles,
  '2026-11-26-2200-request-trace-id': requestTraceId,
  '2026-11-26-2330-ratings-api-rate': ratingsApiRate,
  '2026-11-28-1600-request-client-details': requestClientDetails,
  '2026-11-29-1700-request-segments': requestSegments,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export { SchemaTooNewError } from './schema-check.js';

/** Throws SchemaTooNewError when a newer version of Portico migrated the database. */
export const assertSchemaNotNewer = (db: Kysely<any>) =>
  assertSchemaKnown(db, 'portico_migrations', Object.keys(MIGRATIONS));

/**
 * Applies every pending migration; throws with the failing migration's name on error, and
 * SchemaTooNewError (before changing anything) when a newer version migrated the database.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  await assertSchemaNotNewer(db);
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'portico_migrations',
    migrationLockTableName: 'portico_migrations_lock',
    // Work lands from parallel branches: a migration named before one already applied still runs.
    allowUnorderedMigrations: true,
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(result.error)}`, {
      cause: result.error,
    });
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
