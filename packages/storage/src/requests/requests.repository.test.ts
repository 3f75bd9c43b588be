import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  findRequestById,
  findRequestLogById,
  findRequests,
  insertRequestBatch,
} from './requests.repository.js';
import type { NewRequestRow } from './requests.table.js';

const NOW = 1_790_000_000_000;

function request(id: string, changes: Partial<NewRequestRow> = {}): NewRequestRow {
  return {
    id,
    transaction_id: id,
    timestamp: NOW,
    gateway: 'gw',
    api_id: 'a',
    application_id: 'app',
    plan_id: 'p',
    subscription_id: 's',
    api_key: null,
    user: null,
    tenant: null,
    method: 'GET',
    path: '/x',
    uri: '/x?y=1',
    mapped_path: null,
    host: 'localhost',
    status: 200,
    request_content_length: 0,
    response_content_length: 10,
    response_time: 5,
    api_response_time: 4,
    latency: 1,
    endpoint: 'http://backend/',
    remote_address: '127.0.0.1',
    user_agent: 'test',
    security_type: 'KEY_LESS',
    error_key: null,
    message: null,
    has_log: 0,
    ...changes,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: requests repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => t.destroy());
    beforeEach(async () => {
      await t.storage.db.deleteFrom('requests').execute();
      await t.storage.db.deleteFrom('request_logs').execute();
    });

    it('writes a batch larger than one statement, with its logs', async () => {
      const rows = Array.from({ length: 450 }, (_, i) => request(`r${i}`, { timestamp: NOW + i }));
      await insertRequestBatch(t.storage.db, rows, [
        {
          id: 'r1',
          timestamp: NOW + 1,
          api_id: 'a',
          application_id: 'app',
          client_request: '{"method":"GET"}',
          proxy_request: null,
          client_response: null,
          proxy_response: null,
        },
      ]);
      expect(
        (await findRequests(t.storage.db, { from: NOW, to: NOW + 1000, offset: 0, limit: 1 })).total,
      ).toBe(450);
      expect(await findRequestById(t.storage.db, 'r7')).toMatchObject({
        uri: '/x?y=1',
        status: 200,
        latency: 1,
      });
      expect((await findRequestLogById(t.storage.db, 'r1'))?.client_request).toBe('{"method":"GET"}');
    });

    it('finds the requests of an API or application in a time range, newest first', async () => {
      await insertRequestBatch(
        t.storage.db,
        [
          request('old', { timestamp: NOW - 10 }),
          request('a1', { timestamp: NOW + 1 }),
          request('a2', { timestamp: NOW + 2 }),
          request('b1', { timestamp: NOW + 3, api_id: 'b', application_id: 'other' }),
        ],
        [],
      );
      const byApi = await findRequests(t.storage.db, {
        apiId: 'a',
        from: NOW,
        to: NOW + 100,
        offset: 0,
        limit: 10,
      });
      expect(byApi.rows.map((r) => r.id)).toEqual(['a2', 'a1']);
      const byApp = await findRequests(t.storage.db, {
        applicationId: 'other',
        from: NOW,
        to: NOW + 100,
        offset: 0,
        limit: 10,
      });
      expect(byApp.rows.map((r) => r.id)).toEqual(['b1']);
      const paged = await findRequests(t.storage.db, { from: NOW - 100, to: NOW + 100, offset: 1, limit: 2 });
      expect(paged).toMatchObject({ total: 4 });
      expect(paged.rows.map((r) => r.id)).toEqual(['a2', 'a1']);
    });
  });
}
