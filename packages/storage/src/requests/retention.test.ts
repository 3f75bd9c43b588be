import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRequests } from '../analytics/analytics.repository.js';
import { up as rollupMigration } from '../migrations/2026-11-26-0300-request-rollups.js';
import { countRows, createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { DAY_MS, listDayPartitions } from './partitions.js';
import { findRequestById, findRequestLogById, insertRequestBatch } from './requests.repository.js';
import type { NewRequestRow } from './requests.table.js';
import { applyRequestRetention } from './retention.js';

const DAY0 = Date.UTC(2026, 10, 20); // 2026-11-20
const row = (id: string, timestamp: number): NewRequestRow => ({
  id,
  transaction_id: id,
  timestamp,
  gateway: 'gw',
  api_id: 'a',
  application_id: 'app',
  plan_id: 'p',
  subscription_id: null,
  api_key: null,
  user: null,
  tenant: null,
  method: 'GET',
  path: '/',
  uri: '/',
  mapped_path: null,
  host: null,
  status: 200,
  request_content_length: 0,
  response_content_length: 0,
  response_time: 12,
  api_response_time: 10,
  latency: 2,
  endpoint: null,
  remote_address: null,
  user_agent: null,
  security_type: null,
  error_key: null,
  message: null,
  has_log: 0,
  trace_id: null,
});
const log = (id: string, timestamp: number) => ({
  id,
  timestamp,
  api_id: 'a',
  application_id: 'app',
  client_request: '{}',
  proxy_request: null,
  client_response: null,
  proxy_response: null,
});
const count = (t: TestDatabase, table: 'requests' | 'request_logs' | 'request_rollups') =>
  countRows(t.storage.db, table);

for (const dialect of await testDialects()) {
  describe(`${dialect}: analytics storage retention`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(() => t.destroy());

    it('deletes raw rows and logs older than their retention, rollups older than theirs', async () => {
      // One request at noon of each of five days, with its log.
      const days = [0, 1, 2, 3, 4].map((d) => DAY0 + d * DAY_MS + 12 * 3_600_000);
      await insertRequestBatch(
        t.storage.db,
        days.map((ts, i) => row(`d${i}`, ts)),
        days.map((ts, i) => log(`d${i}`, ts)),
      );
      const policy = {
        requestsBefore: DAY0 + 3 * DAY_MS,
        rollupsBefore: DAY0 + DAY_MS,
        now: DAY0 + 4 * DAY_MS,
        daysAhead: 2,
      };
      const result = await applyRequestRetention(t.storage.db, policy);

      expect(await count(t, 'requests')).toBe(2);
      expect(await count(t, 'request_logs')).toBe(2);
      expect(await findRequestById(t.storage.db, 'd2')).toBeUndefined();
      expect(await findRequestLogById(t.storage.db, 'd3')).toBeDefined();
      expect(await count(t, 'request_rollups')).toBe(4);
      // Dashboards over the whole period still count the days whose raw rows are gone.
      expect(await countRequests(t.storage.db, { from: DAY0, to: DAY0 + 5 * DAY_MS })).toBe(4);
      if (dialect === 'postgres') {
        // The rows went to the default partition; the job made the days from `now` on.
        expect(result.created).toEqual(
          expect.arrayContaining(['requests_p20261124', 'request_logs_p20261124']),
        );
        // The row of 2026-11-24 moved out of the default partition into its day.
        const inDay = await sql<{ n: string }>`select count(*) as n from requests_p20261124`.execute(
          t.storage.db,
        );
        expect(Number(inDay.rows[0]!.n)).toBe(1);
        // A day partition wholly before the cutoff is dropped.
        const later = { ...policy, requestsBefore: DAY0 + 5 * DAY_MS, now: DAY0 + 6 * DAY_MS };
        const dropped = await applyRequestRetention(t.storage.db, later);
        expect(dropped.dropped.sort()).toEqual(['request_logs_p20261124', 'requests_p20261124']);
        expect(await count(t, 'requests')).toBe(0);
        const partitions = [...(await listDayPartitions(t.storage.db, 'requests')).values()];
        expect(partitions).toEqual(expect.arrayContaining(['requests_p20261126', 'requests_p20261128']));
        expect(partitions).not.toContain('requests_p20261124');
        // Nothing more to do the second time.
        expect(await applyRequestRetention(t.storage.db, later)).toMatchObject({
          created: [],
          dropped: [],
          deletedRollups: 0,
        });
      } else {
        expect(result.deletedRequests).toBe(3);
        expect(await applyRequestRetention(t.storage.db, policy)).toMatchObject({
          deletedRequests: 0,
          deletedRollups: 0,
        });
      }
    });

    it('the migration keeps the requests and logs already there and builds their rollups', async () => {
      const db = t.storage.db;
      await sql`drop table request_rollups`.execute(db);
      await sql`drop table request_rollups_10m`.execute(db);
      await sql`drop table request_rollups_api`.execute(db);
      if (dialect === 'postgres') {
        // Back to the plain tables of before the migration.
        for (const table of ['requests', 'request_logs']) {
          await sql`create table ${sql.id(`${table}_plain`)} (like ${sql.id(table)} including defaults)`.execute(
            db,
          );
          await sql`drop table ${sql.id(table)}`.execute(db);
          await sql`alter table ${sql.id(`${table}_plain`)} rename to ${sql.id(table)}`.execute(db);
          await sql`alter table ${sql.id(table)} add constraint ${sql.id(`${table}_pkey`)} primary key ("id")`.execute(
            db,
          );
        }
        await sql`create index requests_timestamp_ix on requests ("timestamp")`.execute(db);
        await sql`create index requests_api_ix on requests ("api_id", "timestamp")`.execute(db);
        await sql`create index requests_application_ix on requests ("application_id", "timestamp")`.execute(
          db,
        );
        await sql`create index request_logs_timestamp_ix on request_logs ("timestamp")`.execute(db);
      } else {
        await sql`delete from requests`.execute(db);
        await sql`delete from request_logs`.execute(db);
      }
      const rows = Array.from({ length: 300 }, (_, i) => row(`m${i}`, DAY0 + i * 1_000_000));
      await db.insertInto('requests').values(rows).execute();
      await db
        .insertInto('request_logs')
        .values(rows.slice(0, 10).map((r) => log(r.id, r.timestamp)))
        .execute();

      await db.transaction().execute((trx) => rollupMigration(trx));

      expect(await count(t, 'requests')).toBe(300);
      expect(await count(t, 'request_logs')).toBe(10);
      // Written straight into the table (no writer): no client names.
      expect(await findRequestById(db, 'm150')).toEqual({
        ...rows[150],
        user_agent_name: null,
        os_name: null,
        geo_country: null,
        geo_city: null,
      });
      const window = { from: DAY0 - 30_000, to: DAY0 + 300 * 1_000_000 };
      expect(await countRequests(db, window)).toBe(300);
      expect(await countRequests(db, { ...window, raw: true })).toBe(300);
      if (dialect === 'postgres') {
        // Every day of the data has its partition (and the default partition is empty).
        expect((await listDayPartitions(db, 'requests')).size).toBeGreaterThanOrEqual(4);
        const rest = await sql<{ n: string }>`select count(*) as n from requests_default`.execute(db);
        expect(Number(rest.rows[0]!.n)).toBe(0);
      }
      // The gateway's writes go on, into the rollups too.
      await insertRequestBatch(db, [row('after', DAY0 + 10_000)], []);
      expect(await countRequests(db, window)).toBe(301);
    });
  });
}
