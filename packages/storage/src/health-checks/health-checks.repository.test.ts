import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findHealthCheckById, findHealthChecks, insertHealthChecks } from './health-checks.repository.js';
import type { NewHealthCheckRow } from './health-checks.table.js';
import { healthHistogram, healthStatsByWindow } from './health-checks.stats.js';

const NOW = 1_790_000_000_000;

const check = (id: string, changes: Partial<NewHealthCheckRow> = {}): NewHealthCheckRow => ({
  id,
  api_id: 'a',
  endpoint: 'e0',
  gateway: 'gw',
  timestamp: NOW,
  success: 1,
  state: 3,
  transition: 0,
  response_time: 4,
  message: null,
  request: null,
  response: null,
  ...changes,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: health checks repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => t.destroy());

    it('records checks and finds them by API, range and transitions, newest first', async () => {
      await insertHealthChecks(t.storage.db, []);
      await insertHealthChecks(t.storage.db, [
        check('c1', { timestamp: NOW + 1 }),
        check('c2', {
          timestamp: NOW + 2,
          success: 0,
          state: 1,
          transition: 1,
          message: 'Assertion not validated',
        }),
        check('c3', { timestamp: NOW + 3, api_id: 'b' }),
      ]);
      const all = await findHealthChecks(t.storage.db, { apiId: 'a', offset: 0, limit: 10 });
      expect(all.rows.map((r) => r.id)).toEqual(['c2', 'c1']);
      expect(all.total).toBe(2);
      const transitions = await findHealthChecks(t.storage.db, {
        apiId: 'a',
        transitionsOnly: true,
        offset: 0,
        limit: 10,
      });
      expect(transitions.rows.map((r) => r.id)).toEqual(['c2']);
      const ranged = await findHealthChecks(t.storage.db, {
        apiId: 'a',
        from: NOW + 2,
        to: NOW + 2,
        offset: 0,
        limit: 10,
      });
      expect(ranged.rows.map((r) => r.id)).toEqual(['c2']);
      expect((await findHealthCheckById(t.storage.db, 'c2'))?.message).toBe('Assertion not validated');
    });

    it('sums checks per endpoint and gateway over each window, and per interval', async () => {
      const at = NOW + 10_000_000;
      await insertHealthChecks(t.storage.db, [
        check('s1', { api_id: 's', timestamp: at - 40_000, response_time: 10 }),
        check('s2', { api_id: 's', timestamp: at - 20_000, success: 0, response_time: 30 }),
        check('s3', { api_id: 's', timestamp: at - 2_000_000, response_time: 50, gateway: 'gw2' }),
        check('s4', { api_id: 's', timestamp: at - 10_000, endpoint: 'e1', response_time: 7 }),
        check('s5', { api_id: 's', timestamp: at - 9_000_000, response_time: 1 }),
      ]);
      const windows = { '1m': 60_000, '1h': 3_600_000 };
      const byEndpoint = await healthStatsByWindow(t.storage.db, {
        apiId: 's',
        field: 'endpoint',
        now: at,
        windows,
      });
      expect(Object.fromEntries(byEndpoint)).toEqual({
        e0: {
          '1m': { total: 2, ok: 1, avgResponseTime: 20 },
          '1h': { total: 3, ok: 2, avgResponseTime: 30 },
        },
        e1: {
          '1m': { total: 1, ok: 1, avgResponseTime: 7 },
          '1h': { total: 1, ok: 1, avgResponseTime: 7 },
        },
      });
      const byGateway = await healthStatsByWindow(t.storage.db, {
        apiId: 's',
        field: 'gateway',
        now: at,
        windows,
      });
      expect(byGateway.get('gw2')).toEqual({
        '1m': { total: 0, ok: 0, avgResponseTime: null },
        '1h': { total: 1, ok: 1, avgResponseTime: 50 },
      });
      const buckets = await healthHistogram(t.storage.db, {
        apiId: 's',
        from: at - 60_000,
        to: at,
        interval: 30_000,
      });
      expect(buckets).toEqual([
        { bucket: at - 60_000, total: 1, ok: 1, avgResponseTime: 10 },
        { bucket: at - 30_000, total: 2, ok: 1, avgResponseTime: 18.5 },
      ]);
      const failed = await findHealthChecks(t.storage.db, {
        apiId: 's',
        filter: { success: false, endpoint: 'e0' },
        offset: 0,
        limit: 10,
      });
      expect(failed.rows.map((r) => r.id)).toEqual(['s2']);
    });
  });
}
