import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findLatestEventOfApi, insertEvent } from './events.repository.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: latest event of an API`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
      let n = 0;
      for (const [api, type] of [
        ['api1', 'PUBLISH_API'],
        ['api1', 'PUBLISH_API'],
        ['api1', 'START_API'],
        ['api2', 'PUBLISH_API'],
      ] as const) {
        // Same instant for all: the sequence decides which is the latest.
        await insertEvent(t.storage.db, {
          id: `e${n++}`,
          type,
          payload: `{"n":${n}}`,
          properties: '{}',
          api_id: api,
          user_id: null,
          created_at: NOW,
          updated_at: NOW,
        });
      }
    });
    afterAll(async () => {
      await t.destroy();
    });

    it('answers the latest event of the type for the API', async () => {
      expect((await findLatestEventOfApi(t.storage.db, 'api1', 'PUBLISH_API'))?.id).toBe('e1');
      expect((await findLatestEventOfApi(t.storage.db, 'api1', 'START_API'))?.id).toBe('e2');
      expect((await findLatestEventOfApi(t.storage.db, 'api2', 'PUBLISH_API'))?.id).toBe('e3');
    });

    it('answers undefined when the API has no such event', async () => {
      expect(await findLatestEventOfApi(t.storage.db, 'api1', 'STOP_API')).toBeUndefined();
      expect(await findLatestEventOfApi(t.storage.db, 'api9', 'PUBLISH_API')).toBeUndefined();
    });
  });
}
