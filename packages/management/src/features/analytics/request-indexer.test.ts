import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiRow, IndexedSegments, NewRequestRow } from '@portico/storage';
import { encodeRequests, encodeSegment, insertRequestSegments } from '@portico/storage';
import { testDialects, testRequest } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, createApi, signInNewUser, startTestApp } from '../../test-support/index.js';
import { RequestIndexer } from './request-indexer.js';
import { indexPassesFor } from './request-indexer-thread.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: the management server indexes what the gateways report`, () => {
    let t: TestApp;
    let admin: SignedInUser;
    let api: ApiRow;
    let next = 0;
    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await signInNewUser(t.app, t.db, { management: 'ADMIN' });
      api = await createApi(t.db);
    });
    afterAll(() => t.close());
    beforeEach(async () => {
      await t.db.deleteFrom('request_segments').execute();
    });

    /** Segments as a gateway writes them: `parts` parts of `size` records of the API. */
    const report = async (parts: number, size: number): Promise<NewRequestRow[]> => {
      const rows = Array.from({ length: parts * size }, () => {
        const i = next++;
        return { ...testRequest(i), id: `ix-${dialect}-${i}`, api_id: api.id, timestamp: NOW + i };
      });
      const segments = [];
      for (let p = 0; p < parts; p++)
        segments.push(encodeSegment(encodeRequests(rows.slice(p * size, (p + 1) * size)), []));
      await insertRequestSegments(t.db, segments);
      return rows;
    };
    const get = (url: string) => call(t.app, admin.session, { method: 'GET', url });
    const window = `from=${NOW}&to=${NOW + 10_000_000}`;

    it('answers the logs, a log and the analytics with what was reported just before, unindexed', async () => {
      const rows = await report(3, 40);
      const logs = await get(`/apis/${api.id}/logs?${window}&page=1&size=10`);
      expect(logs.statusCode).toBe(200);
      expect(logs.json().total).toBe(120);
      const [latest] = await report(1, 1);
      expect((await get(`/apis/${api.id}/logs/${latest!.id}`)).statusCode).toBe(200);
      const count = await get(`/apis/${api.id}/analytics?type=count&${window}`);
      expect(count.json()).toEqual({ hits: rows.length + 1 });
      expect(await t.db.selectFrom('request_segments').select('id').execute()).toHaveLength(0);
    });

    it("indexes in the scheduler's job too, between reads", async () => {
      await report(2, 10);
      await t.ctx.requests.job().run();
      expect(await t.db.selectFrom('request_segments').select('id').execute()).toHaveLength(0);
    });

    it('lets the calls that come during a pass share the next one, and logs the segments set aside', async () => {
      const errors: string[] = [];
      const indexer = new RequestIndexer({
        passes: indexPassesFor(t.ctx.storage, t.db, undefined),
        log: { error: (_details, message) => errors.push(message), warn: () => {} },
      });
      const passes: IndexedSegments[] = [];
      indexer.onPass = (result) => passes.push(result);
      await report(5, 20);
      await insertRequestSegments(t.db, [
        { count: 3, first_timestamp: NOW, last_timestamp: NOW, data: Buffer.from('x') },
      ]);
      await Promise.all(Array.from({ length: 6 }, () => indexer.catchUp()));
      expect(passes.length).toBeLessThanOrEqual(2);
      expect(passes.reduce((n, p) => n + p.requests, 0)).toBe(100);
      expect(passes[0]!.rejected.segments).toBe(1);
      expect(errors).toEqual([
        'request segments set aside: their requests are not in the logs and analytics',
      ]);
      // A later call runs a pass of its own.
      await report(1, 5);
      await indexer.catchUp();
      expect(passes.at(-1)!.requests).toBe(5);
    });
  });
}
