import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  clearOtherDefaultRoles,
  findAllRoles,
  findDefaultRole,
  findRole,
  findRolesByScope,
  insertRole,
  updateRole,
} from './roles.repository.js';
import type { NewRoleRow } from './roles.table.js';

const NOW = 1_790_000_000_000;

function role(scope: string, name: string, changes: Partial<NewRoleRow> = {}): NewRoleRow {
  return {
    scope,
    name,
    is_default: 0,
    is_system: 0,
    permissions: '{}',
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: roles repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('roles').execute();
    });

    describe('insertRole and findRole', () => {
      it('stores every column and reads the role back by scope and name', async () => {
        const row = {
          scope: 'API',
          name: 'OWNER',
          description: 'Owns the API',
          is_default: 0,
          is_system: 1,
          permissions: '{"PLAN":["C","R","U","D"]}',
          created_at: NOW,
          updated_at: NOW + 1,
        };
        await insertRole(t.storage.db, row);

        expect(await findRole(t.storage.db, 'API', 'OWNER')).toEqual(row);
      });

      it('leaves the description null unless given', async () => {
        await insertRole(t.storage.db, role('API', 'USER'));

        expect((await findRole(t.storage.db, 'API', 'USER'))?.description).toBeNull();
      });

      it('returns undefined for a name of another scope', async () => {
        await insertRole(t.storage.db, role('API', 'REVIEWER'));

        expect(await findRole(t.storage.db, 'APPLICATION', 'REVIEWER')).toBeUndefined();
      });

      it('refuses a second role with the same scope and name', async () => {
        await insertRole(t.storage.db, role('API', 'USER'));

        await expect(insertRole(t.storage.db, role('API', 'USER'))).rejects.toThrow();
      });

      it('accepts the same name in two scopes', async () => {
        await insertRole(t.storage.db, role('API', 'USER'));
        await insertRole(t.storage.db, role('APPLICATION', 'USER'));

        expect(await findAllRoles(t.storage.db)).toHaveLength(2);
      });
    });

    describe('findRolesByScope', () => {
      it('returns the roles of the scope only, by name', async () => {
        await insertRole(t.storage.db, role('API', 'USER'));
        await insertRole(t.storage.db, role('API', 'OWNER'));
        await insertRole(t.storage.db, role('APPLICATION', 'ADMIN'));
        await insertRole(t.storage.db, role('API', 'REVIEWER'));

        const rows = await findRolesByScope(t.storage.db, 'API');

        expect(rows.map((r) => r.name)).toEqual(['OWNER', 'REVIEWER', 'USER']);
      });

      it('returns nothing for a scope without roles', async () => {
        await insertRole(t.storage.db, role('API', 'USER'));

        expect(await findRolesByScope(t.storage.db, 'PORTAL')).toEqual([]);
      });
    });

    describe('findAllRoles', () => {
      it('returns every role, by scope then name', async () => {
        await insertRole(t.storage.db, role('MANAGEMENT', 'USER'));
        await insertRole(t.storage.db, role('API', 'USER'));
        await insertRole(t.storage.db, role('MANAGEMENT', 'ADMIN'));
        await insertRole(t.storage.db, role('API', 'OWNER'));

        const rows = await findAllRoles(t.storage.db);

        expect(rows.map((r) => `${r.scope}/${r.name}`)).toEqual([
          'API/OWNER',
          'API/USER',
          'MANAGEMENT/ADMIN',
          'MANAGEMENT/USER',
        ]);
      });
    });

    describe('findDefaultRole', () => {
      it('returns the default role of the scope', async () => {
        await insertRole(t.storage.db, role('API', 'OWNER'));
        await insertRole(t.storage.db, role('API', 'USER', { is_default: 1 }));
        await insertRole(t.storage.db, role('APPLICATION', 'ADMIN', { is_default: 1 }));

        expect((await findDefaultRole(t.storage.db, 'API'))?.name).toBe('USER');
        expect((await findDefaultRole(t.storage.db, 'APPLICATION'))?.name).toBe('ADMIN');
      });

      it('returns undefined when the scope has no default role', async () => {
        await insertRole(t.storage.db, role('API', 'OWNER'));
        await insertRole(t.storage.db, role('APPLICATION', 'USER', { is_default: 1 }));

        expect(await findDefaultRole(t.storage.db, 'API')).toBeUndefined();
      });
    });

    describe('updateRole', () => {
      it('changes the given columns of that role only', async () => {
        await insertRole(t.storage.db, role('API', 'USER', { description: 'old' }));
        await insertRole(t.storage.db, role('APPLICATION', 'USER', { description: 'old' }));

        await updateRole(t.storage.db, 'API', 'USER', {
          description: 'new',
          permissions: '{"PLAN":["R"]}',
          updated_at: NOW + 5,
        });

        expect(await findRole(t.storage.db, 'API', 'USER')).toMatchObject({
          description: 'new',
          permissions: '{"PLAN":["R"]}',
          created_at: NOW,
          updated_at: NOW + 5,
        });
        expect(await findRole(t.storage.db, 'APPLICATION', 'USER')).toMatchObject({
          description: 'old',
          updated_at: NOW,
        });
      });

      it('changes nothing for an unknown role', async () => {
        await insertRole(t.storage.db, role('API', 'USER'));

        await updateRole(t.storage.db, 'API', 'UNKNOWN', { description: 'new' });

        expect(await findAllRoles(t.storage.db)).toEqual([
          expect.objectContaining({ name: 'USER', description: null }),
        ]);
      });
    });

    describe('clearOtherDefaultRoles', () => {
      it('clears the default flag of the other roles of the scope and keeps the one named', async () => {
        await insertRole(t.storage.db, role('API', 'OWNER', { is_default: 1 }));
        await insertRole(t.storage.db, role('API', 'USER', { is_default: 1 }));
        await insertRole(t.storage.db, role('API', 'REVIEWER', { is_default: 1 }));

        await clearOtherDefaultRoles(t.storage.db, 'API', 'USER');

        const rows = await findRolesByScope(t.storage.db, 'API');
        expect(rows.map((r) => [r.name, r.is_default])).toEqual([
          ['OWNER', 0],
          ['REVIEWER', 0],
          ['USER', 1],
        ]);
        expect((await findDefaultRole(t.storage.db, 'API'))?.name).toBe('USER');
      });

      it('leaves the default roles of other scopes alone', async () => {
        await insertRole(t.storage.db, role('API', 'USER', { is_default: 1 }));
        await insertRole(t.storage.db, role('APPLICATION', 'OWNER', { is_default: 1 }));

        await clearOtherDefaultRoles(t.storage.db, 'API', 'USER');

        expect((await findDefaultRole(t.storage.db, 'APPLICATION'))?.name).toBe('OWNER');
      });
    });
  });
}
