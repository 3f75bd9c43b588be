import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findHealthCheckById, findHealthChecks, insertHealthChecks } from './health-checks.repository.js';
import type { NewHealthCheckRow } from './health-checks.table.js';

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
  });
}
