import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  deleteGroup,
  findAllGroups,
  findGroupById,
  findGroupsByIds,
  insertGroup,
} from './groups.repository.js';
import type { NewGroupRow } from './groups.table.js';

const NOW = 1_790_000_000_000;

function group(id: string, name: string): NewGroupRow {
  return {
    id,
    name,
    event_rules: '[]',
    lock_api_role: 0,
    lock_application_role: 0,
    system_invitation: 0,
    email_invitation: 0,
    created_at: NOW,
    updated_at: NOW,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: groups repository`, () => {
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

    describe('insertGroup and findGroupById', () => {
      it('stores every column and reads the group back', async () => {
        const row = {
          id: 'g1',
          name: 'Partners',
          event_rules: '[{"event":"API_CREATE"}]',
          max_invitation: 5,
          lock_api_role: 1,
          lock_application_role: 1,
          system_invitation: 1,
          email_invitation: 1,
          api_role: 'USER',
          application_role: 'OWNER',
          created_at: NOW,
          updated_at: NOW + 1,
        };
        await insertGroup(t.storage.db, row);

        expect(await findGroupById(t.storage.db, 'g1')).toEqual(row);
      });

      it('leaves the invitation limit null unless given', async () => {
        await insertGroup(t.storage.db, group('g1', 'Partners'));

        expect((await findGroupById(t.storage.db, 'g1'))?.max_invitation).toBeNull();
      });

      it('returns undefined for an unknown id', async () => {
        await insertGroup(t.storage.db, group('g1', 'Partners'));

        expect(await findGroupById(t.storage.db, 'g2')).toBeUndefined();
      });

      it('refuses a second group with the same id', async () => {
        await insertGroup(t.storage.db, group('g1', 'Partners'));

        await expect(insertGroup(t.storage.db, group('g1', 'Other'))).rejects.toThrow();
        expect((await findGroupById(t.storage.db, 'g1'))?.name).toBe('Partners');
      });
    });

    describe('findGroupsByIds', () => {
      it('returns the groups asked for, by name, ignoring unknown ids', async () => {
        await insertGroup(t.storage.db, group('g1', 'Partners'));
        await insertGroup(t.storage.db, group('g2', 'Interns'));
        await insertGroup(t.storage.db, group('g3', 'Admins'));

        const rows = await findGroupsByIds(t.storage.db, ['g1', 'g2', 'g9']);

        expect(rows.map((r) => r.name)).toEqual(['Interns', 'Partners']);
      });

      it('returns nothing for an empty list', async () => {
        await insertGroup(t.storage.db, group('g1', 'Partners'));

        expect(await findGroupsByIds(t.storage.db, [])).toEqual([]);
      });
    });

    describe('findAllGroups', () => {
      it('returns every group by name', async () => {
        await insertGroup(t.storage.db, group('g1', 'Partners'));
        await insertGroup(t.storage.db, group('g2', 'Interns'));
        await insertGroup(t.storage.db, group('g3', 'Admins'));

        expect((await findAllGroups(t.storage.db)).map((r) => r.id)).toEqual(['g3', 'g2', 'g1']);
      });

      it('returns nothing when there is no group', async () => {
        expect(await findAllGroups(t.storage.db)).toEqual([]);
      });
    });

    describe('deleteGroup', () => {
      it('deletes the group and keeps the others', async () => {
        await insertGroup(t.storage.db, group('g1', 'Partners'));
        await insertGroup(t.storage.db, group('g2', 'Interns'));

        await deleteGroup(t.storage.db, 'g1');

        expect((await findAllGroups(t.storage.db)).map((r) => r.id)).toEqual(['g2']);
      });

      it('does nothing for an unknown id', async () => {
        await insertGroup(t.storage.db, group('g1', 'Partners'));

        await deleteGroup(t.storage.db, 'g9');

        expect(await findAllGroups(t.storage.db)).toHaveLength(1);
      });
    });
  });
}
