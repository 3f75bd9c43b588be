import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findGroupByName, findGroupsWithEventRule, insertGroup } from './groups.repository.js';
import type { NewGroupRow } from './groups.table.js';

const NOW = 1_790_000_000_000;

function group(id: string, name: string, eventRules: string[] = []): NewGroupRow {
  return {
    id,
    name,
    event_rules: JSON.stringify(eventRules.map((event) => ({ event }))),
    lock_api_role: 0,
    lock_application_role: 0,
    system_invitation: 0,
    email_invitation: 0,
    created_at: NOW,
    updated_at: NOW,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: group look-ups`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('groups').execute();
    });

    it('finds a group by its exact name', async () => {
      await insertGroup(t.storage.db, group('g1', 'Partners'));
      await insertGroup(t.storage.db, group('g2', 'partners team'));

      expect((await findGroupByName(t.storage.db, 'Partners'))?.id).toBe('g1');
      expect(await findGroupByName(t.storage.db, 'Part')).toBeUndefined();
    });

    it('finds the groups having an event rule, by name', async () => {
      await insertGroup(t.storage.db, group('g1', 'b', ['API_CREATE']));
      await insertGroup(t.storage.db, group('g2', 'a', ['APPLICATION_CREATE', 'API_CREATE']));
      await insertGroup(t.storage.db, group('g3', 'c', ['APPLICATION_CREATE']));
      await insertGroup(t.storage.db, group('g4', 'd'));

      expect((await findGroupsWithEventRule(t.storage.db, 'API_CREATE')).map((g) => g.id)).toEqual([
        'g2',
        'g1',
      ]);
      expect((await findGroupsWithEventRule(t.storage.db, 'API_%')).map((g) => g.id)).toEqual([]);
    });
  });
}
