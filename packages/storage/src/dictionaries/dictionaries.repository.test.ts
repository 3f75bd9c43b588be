import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  claimDictionaryPoll,
  findDeployedDictionaryProperties,
  findDictionariesDueForPoll,
  findDictionaryById,
  findDictionaryDeployments,
  insertDictionary,
  updateDictionary,
} from './dictionaries.repository.js';
import type { NewDictionaryRow } from './dictionaries.table.js';

function dictionary(id: string, changes: Partial<NewDictionaryRow> = {}): NewDictionaryRow {
  return {
    id,
    name: id,
    type: 'DYNAMIC',
    state: 'STARTED',
    properties: '{}',
    created_at: 1,
    updated_at: 1,
    ...changes,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: dictionaries repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('dictionaries').execute();
    });

    it('finds the started dynamic dictionaries whose poll is due', async () => {
      const db = t.storage.db;
      await insertDictionary(db, dictionary('never-polled'));
      await insertDictionary(db, dictionary('due', { next_poll_at: 100 }));
      await insertDictionary(db, dictionary('later', { next_poll_at: 500 }));
      await insertDictionary(db, dictionary('stopped', { state: 'STOPPED' }));
      await insertDictionary(db, dictionary('manual', { type: 'MANUAL' }));

      const due = await findDictionariesDueForPoll(db, 200);
      expect(due.map((d) => d.id).sort()).toEqual(['due', 'never-polled']);
    });

    it('lets one of two claims of the same poll win', async () => {
      const db = t.storage.db;
      await insertDictionary(db, dictionary('d', { next_poll_at: 100 }));
      const claims = await Promise.all([
        claimDictionaryPoll(db, 'd', 100, 1100),
        claimDictionaryPoll(db, 'd', 100, 1100),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await findDictionaryById(db, 'd'))?.next_poll_at).toBe(1100);
    });

    it('tells deployed from undeployed dictionaries and reads the served properties', async () => {
      const db = t.storage.db;
      await insertDictionary(db, dictionary('a', { type: 'MANUAL' }));
      await insertDictionary(db, dictionary('b', { type: 'MANUAL' }));
      await insertDictionary(db, dictionary('never', { type: 'MANUAL' }));
      await updateDictionary(db, 'a', { deployed_properties: '{"k":"v"}', deploy_seq: 7 });
      await updateDictionary(db, 'b', { deployed_properties: null, deploy_seq: 9 });

      const deployments = await findDictionaryDeployments(db);
      expect(deployments.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
        { id: 'a', name: 'a', deploy_seq: 7, deployed: true },
        { id: 'b', name: 'b', deploy_seq: 9, deployed: false },
      ]);
      expect(await findDeployedDictionaryProperties(db, ['a'])).toEqual([
        { id: 'a', name: 'a', deploy_seq: 7, deployed_properties: '{"k":"v"}' },
      ]);
    });
  });
}
