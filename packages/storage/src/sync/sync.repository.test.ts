import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { insertEvent } from '../events/events.repository.js';
import {
  findApiKeysOfApis,
  findApiKeysUpdatedSince,
  findLastEventSeq,
  findLatestLifecycleEvents,
  findSubscriptionsOfApis,
  findSubscriptionsUpdatedSince,
} from './sync.repository.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: sync repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => t.destroy());
    beforeEach(async () => {
      for (const table of ['events', 'api_keys', 'subscriptions'] as const)
        await t.storage.db.deleteFrom(table).execute();
    });

    const event = (id: string, type: string, apiId: string | null) =>
      insertEvent(t.storage.db, {
        id,
        type,
        payload: null,
        properties: '{}',
        api_id: apiId,
        user_id: null,
        created_at: NOW,
        updated_at: NOW,
      });

    it('finds, per API, the latest deployment event and the latest start/stop event, in sequence order', async () => {
      await event('a1', 'PUBLISH_API', 'a');
      await event('a2', 'START_API', 'a');
      await event('a3', 'PUBLISH_API', 'a');
      await event('a4', 'STOP_API', 'a');
      await event('b1', 'PUBLISH_API', 'b');
      await event('b2', 'UNPUBLISH_API', 'b');
      await event('x1', 'PUBLISH_API', null);
      await event('c1', 'SOMETHING_ELSE', 'c');
      const latest = await findLatestLifecycleEvents(t.storage.db);
      expect(latest.map((e) => e.id)).toEqual(['a3', 'a4', 'b2']);
    });

    it('answers the last sequence number, 0 on an empty table', async () => {
      expect(await findLastEventSeq(t.storage.db)).toBe(0);
      await event('e1', 'PUBLISH_API', 'a');
      const last = await event('e2', 'START_API', 'a');
      expect(await findLastEventSeq(t.storage.db)).toBe(last.seq);
    });

    it('finds subscriptions and keys of some APIs, and those changed since an instant', async () => {
      const sub = (id: string, apiId: string, updatedAt: number) =>
        t.storage.db
          .insertInto('subscriptions')
          .values({
            id,
            api_id: apiId,
            plan_id: 'p',
            application_id: 'app',
            status: 'ACCEPTED',
            request: null,
            reason: null,
            client_id: null,
            subscribed_by: null,
            processed_by: null,
            created_at: NOW,
            updated_at: updatedAt,
            processed_at: null,
            starting_at: null,
            ending_at: null,
            paused_at: null,
            closed_at: null,
          })
          .execute();
      const key = (k: string, apiId: string, updatedAt: number) =>
        t.storage.db
          .insertInto('api_keys')
          .values({
            key: k,
            subscription_id: 's',
            application_id: 'app',
            plan_id: 'p',
            api_id: apiId,
            revoked: 0,
            paused: 0,
            revoked_at: null,
            expire_at: null,
            created_at: NOW,
            updated_at: updatedAt,
          })
          .execute();
      await sub('s1', 'a', NOW);
      await sub('s2', 'b', NOW + 10);
      await key('k1', 'a', NOW);
      await key('k2', 'b', NOW + 10);
      expect((await findSubscriptionsOfApis(t.storage.db, ['a'])).map((s) => s.id)).toEqual(['s1']);
      expect(await findSubscriptionsOfApis(t.storage.db, [])).toEqual([]);
      expect((await findApiKeysOfApis(t.storage.db, ['a', 'b'])).map((k) => k.key).sort()).toEqual([
        'k1',
        'k2',
      ]);
      expect((await findSubscriptionsUpdatedSince(t.storage.db, NOW + 10)).map((s) => s.id)).toEqual(['s2']);
      expect((await findApiKeysUpdatedSince(t.storage.db, NOW + 11)).map((k) => k.key)).toEqual([]);
    });
  });
}
