import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRows, createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { encodeRequests } from './request-columns.js';
import { encodeSegment } from './request-segments.js';
import { insertRequestBatch, insertRequestSegments } from './requests.repository.js';
import type { NewRequestRow } from './requests.table.js';
import { SEGMENT_ATTEMPTS, indexRequestSegments } from './segment-indexer.js';
import { requestLogValues } from './request-values.js';
import { testRequest } from './test-requests.js';

const records = (from: number, count: number, changes: Partial<NewRequestRow> = {}) =>
  Array.from({ length: count }, (_, i) => ({ ...testRequest(from + i), id: `r${from + i}`, ...changes }));

const segmentOf = (rows: NewRequestRow[], loggedId?: string) =>
  encodeSegment(
    encodeRequests(rows),
    loggedId
      ? [
          requestLogValues({
            id: loggedId,
            timestamp: rows[0]!.timestamp,
            api_id: 'api-1',
            application_id: null,
            client_request: '{"method":"GET"}',
            proxy_request: null,
            client_response: null,
            proxy_response: null,
          }),
        ]
      : [],
  );

for (const dialect of await testDialects()) {
  describe(`${dialect}: the request indexer`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => t.destroy());
    beforeEach(async () => {
      for (const table of ['requests', 'request_logs', 'request_segments', 'request_rollups'] as const)
        await t.storage.db.deleteFrom(table).execute();
    });

    const count = (table: 'requests' | 'request_logs' | 'request_segments') => countRows(t.storage.db, table);

    it('turns every segment into rows, logs and rollups, and deletes it', async () => {
      const rows = records(0, 250);
      await insertRequestSegments(t.storage.db, [
        segmentOf(rows.slice(0, 100), 'r3'),
        segmentOf(rows.slice(100, 200)),
        segmentOf(rows.slice(200)),
      ]);
      const result = await indexRequestSegments(t.storage.db, { limit: 2 });
      expect(result).toEqual({
        segments: 3,
        requests: 250,
        rejected: { segments: 0, requests: 0, reasons: [] },
      });
      expect(await count('requests')).toBe(250);
      expect(await count('request_logs')).toBe(1);
      expect(await count('request_segments')).toBe(0);
      const r3 = await t.storage.db
        .selectFrom('requests')
        .selectAll()
        .where('id', '=', 'r3')
        .executeTakeFirstOrThrow();
      expect(r3).toMatchObject({ ...rows[3], user_agent_name: 'Other', geo_country: null });
      const rolled = await t.storage.db
        .selectFrom('request_rollups')
        .select((eb) => eb.fn.sum<number>('count').as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(rolled.n)).toBe(250);
      // Nothing left: a second call finds nothing.
      expect((await indexRequestSegments(t.storage.db)).segments).toBe(0);
    });

    it('works out the details of each row', async () => {
      const [row] = records(0, 1, { user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' });
      await insertRequestSegments(t.storage.db, [segmentOf([row!])]);
      await indexRequestSegments(t.storage.db);
      const stored = await t.storage.db.selectFrom('requests').selectAll().executeTakeFirstOrThrow();
      expect(stored.user_agent_name).toBe('Firefox');
      expect(stored.os_name).toBe('Linux');
    });

    it('sets aside bytes that are not a segment, and indexes the others', async () => {
      await insertRequestSegments(t.storage.db, [
        segmentOf(records(0, 10)),
        { count: 7, first_timestamp: 1, last_timestamp: 2, data: Buffer.from('not a segment') },
        segmentOf(records(10, 10)),
      ]);
      const result = await indexRequestSegments(t.storage.db);
      expect(result.segments).toBe(2);
      expect(result.requests).toBe(20);
      expect(result.rejected).toMatchObject({ segments: 1, requests: 7 });
      expect(result.rejected.reasons[0]).toMatch(/request segment/);
      expect(await count('requests')).toBe(20);
      expect(await count('request_segments')).toBe(0);
    });

    it('sets a segment the tables refuse aside only at its last attempt', async () => {
      // A record whose id is already stored: its segment cannot be written.
      await insertRequestBatch(t.storage.db, records(5, 1), []);
      await insertRequestSegments(t.storage.db, [
        segmentOf(records(0, 3)),
        segmentOf(records(3, 3)),
        segmentOf(records(10, 3)),
      ]);
      const failures = new Map<number, number>();
      for (let attempt = 1; attempt < SEGMENT_ATTEMPTS; attempt++) {
        await expect(indexRequestSegments(t.storage.db, { failures })).rejects.toThrow();
        // What came before the bad segment is written; it and what follows wait.
        expect(await count('requests')).toBe(4);
        expect(await count('request_segments')).toBe(2);
      }
      const result = await indexRequestSegments(t.storage.db, { failures });
      expect(result).toMatchObject({ segments: 1, requests: 3, rejected: { segments: 1, requests: 3 } });
      expect(await count('requests')).toBe(7);
      expect(await count('request_segments')).toBe(0);
      expect(failures.size).toBe(0);
    });

    it('writes each segment once when two indexers run at the same time', async () => {
      const segments = Array.from({ length: 12 }, (_, s) => segmentOf(records(s * 50, 50)));
      await insertRequestSegments(t.storage.db, segments);
      const [a, b] = await Promise.all([
        indexRequestSegments(t.storage.db, { limit: 3 }),
        indexRequestSegments(t.storage.db, { limit: 3 }),
      ]);
      expect(a.segments + b.segments).toBe(12);
      expect(a.requests + b.requests).toBe(600);
      expect(await count('requests')).toBe(600);
    });
  });
}
