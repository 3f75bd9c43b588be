import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Database, type Dialect, type Storage } from '../database.js';
import {
  createEmptyPostgresDatabase,
  createTestDatabase,
  testDialects,
  type TestDatabase,
} from '../testing.js';
import { migrateToLatest } from './index.js';

/** Every table of the `Database` interface: the compiler refuses a missing or an extra one. */
const TABLES: Record<keyof Database, true> = {
  users: true,
  roles: true,
  memberships: true,
  groups: true,
  parameters: true,
  tags: true,
  apis: true,
  api_context_paths: true,
  metadata: true,
  top_apis: true,
  plans: true,
  applications: true,
  subscriptions: true,
  api_keys: true,
  pages: true,
  media: true,
  notification_settings: true,
  notification_deliveries: true,
  alerts: true,
  ratings: true,
  rating_answers: true,
  alert_events: true,
  events: true,
  audits: true,
  notifications: true,
  tokens: true,
  mails: true,
  identity_providers: true,
  requests: true,
  request_logs: true,
  request_segments: true,
  request_rollups: true,
  request_rollups_10m: true,
  request_rollups_api: true,
  instances: true,
  health_checks: true,
  throttle_counters: true,
  rate_hits: true,
  revoked_sessions: true,
  dictionaries: true,
  scheduler_leases: true,
  client_registration_providers: true,
  application_registrations: true,
  views: true,
  tenants: true,
  entrypoints: true,
  api_headers: true,
  invitations: true,
};

/** A database of the dialect without any table: `connect` does not migrate. */
async function openEmptyDatabase(dialect: Dialect): Promise<{ storage: Storage; destroy(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-test-'));
    const storage = connect({ dataDir });
    return {
      storage,
      destroy: async () => {
        await storage.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const empty = await createEmptyPostgresDatabase();
  const storage = connect({ databaseUrl: empty.url, dataDir: os.tmpdir(), poolSize: 2 });
  return {
    storage,
    destroy: async () => {
      await storage.close();
      await empty.drop();
    },
  };
}

async function tableNames(storage: Storage): Promise<string[]> {
  // PostgreSQL's day partitions of the request tables are parts of those tables.
  return (await storage.db.introspection.getTables())
    .map((table) => table.name)
    .filter((name) => !/^(requests|request_logs)_(default|p\d{8})$/.test(name));
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: migrations`, () => {
    describe('on an empty database', () => {
      let empty: { storage: Storage; destroy(): Promise<void> };
      beforeAll(async () => {
        empty = await openEmptyDatabase(dialect);
      });
      afterAll(async () => {
        await empty.destroy();
      });

      it('applies every migration in name order the first time and none the second time', async () => {
        expect(await tableNames(empty.storage)).toEqual([]);

        const applied = await migrateToLatest(empty.storage.db);
        const tablesAfterFirst = await tableNames(empty.storage);
        const again = await migrateToLatest(empty.storage.db);

        expect(applied[0]).toBe('2026-11-21-0001-initial');
        expect(applied).toEqual([...new Set(applied)].sort());
        const recorded = await empty.storage.db
          .withTables<{ portico_migrations: { name: string } }>()
          .selectFrom('portico_migrations')
          .select('name')
          .orderBy('name')
          .execute();
        expect(recorded.map((r) => r.name)).toEqual(applied);
        expect(again).toEqual([]);
        expect((await tableNames(empty.storage)).sort()).toEqual(tablesAfterFirst.sort());
      });
    });

    describe('on a migrated database', () => {
      let t: TestDatabase;
      beforeAll(async () => {
        t = await createTestDatabase(dialect);
      });
      afterAll(async () => {
        await t.destroy();
      });

      it('creates every table of the Database interface', async () => {
        const names = await tableNames(t.storage);

        expect(names).toEqual(expect.arrayContaining(Object.keys(TABLES)));
      });

      it('creates no table besides those of the Database interface and the migration bookkeeping', async () => {
        const names = await tableNames(t.storage);

        expect(names.sort()).toEqual(
          [...Object.keys(TABLES), 'portico_migrations', 'portico_migrations_lock'].sort(),
        );
      });

      it('leaves the schema and the data in place when migrating again', async () => {
        await t.storage.db
          .insertInto('parameters')
          .values({ key: 'portal.title', value: 'Portico', updated_at: 1 })
          .execute();
        const before = await tableNames(t.storage);

        expect(await migrateToLatest(t.storage.db)).toEqual([]);

        expect((await tableNames(t.storage)).sort()).toEqual(before.sort());
        expect(await t.storage.db.selectFrom('parameters').selectAll().execute()).toEqual([
          { key: 'portal.title', value: 'Portico', updated_at: 1 },
        ]);
      });
    });
  });
}
