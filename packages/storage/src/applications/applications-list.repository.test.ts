import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { upsertMembership } from '../memberships/memberships.repository.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  findActiveApplicationByClientId,
  findApplicationById,
  findApplications,
  insertApplication,
  lockApplication,
  updateApplication,
} from './applications.repository.js';
import type { NewApplicationRow } from './applications.table.js';

const NOW = 1_790_000_000_000;

const application = (id: string, changes: Partial<NewApplicationRow> = {}): NewApplicationRow => ({
  id,
  name: `App ${id}`,
  type: 'SIMPLE',
  status: 'ACTIVE',
  groups: '[]',
  settings: '{}',
  created_at: NOW,
  updated_at: NOW,
  ...changes,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: application lists and changes`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('applications').execute();
      await t.storage.db.deleteFrom('memberships').execute();
    });

    it('changes some columns of an application', async () => {
      await insertApplication(t.storage.db, application('a1'));
      expect(await updateApplication(t.storage.db, 'a1', { name: 'Renamed', updated_at: NOW + 1 })).toBe(1);
      expect(await findApplicationById(t.storage.db, 'a1')).toMatchObject({
        name: 'Renamed',
        updated_at: NOW + 1,
      });
      expect(await updateApplication(t.storage.db, 'nope', { name: 'x' })).toBe(0);
    });

    describe('client ids', () => {
      it('finds the active application of a client id, except the one excluded', async () => {
        await insertApplication(t.storage.db, application('a1', { client_id: 'mobile' }));
        expect((await findActiveApplicationByClientId(t.storage.db, 'mobile'))?.id).toBe('a1');
        expect(await findActiveApplicationByClientId(t.storage.db, 'mobile', 'a1')).toBeUndefined();
        expect(await findActiveApplicationByClientId(t.storage.db, 'web')).toBeUndefined();
      });

      it('refuses a second active application with the same client id', async () => {
        await insertApplication(t.storage.db, application('a1', { client_id: 'mobile' }));
        await expect(
          insertApplication(t.storage.db, application('a2', { client_id: 'mobile' })),
        ).rejects.toThrow();
        expect(await findApplicationById(t.storage.db, 'a2')).toBeUndefined();
      });

      it('lets an archived application keep a client id used again, and many without one', async () => {
        await insertApplication(t.storage.db, application('a1', { client_id: 'mobile', status: 'ARCHIVED' }));
        await insertApplication(t.storage.db, application('a2', { client_id: 'mobile' }));
        await insertApplication(t.storage.db, application('a3'));
        await insertApplication(t.storage.db, application('a4'));
        expect((await findActiveApplicationByClientId(t.storage.db, 'mobile'))?.id).toBe('a2');
      });
    });

    describe('findApplications', () => {
      beforeEach(async () => {
        await insertApplication(
          t.storage.db,
          application('a1', { name: 'Zebra shop', description: 'Sells zebras' }),
        );
        await insertApplication(t.storage.db, application('a2', { name: 'Alpha', groups: '["g1"]' }));
        await insertApplication(t.storage.db, application('a3', { name: 'Mobile 100%', groups: '["g2"]' }));
        await insertApplication(t.storage.db, application('a4', { name: 'Old', status: 'ARCHIVED' }));
        await upsertMembership(t.storage.db, {
          id: 'm1',
          member_id: 'u1',
          member_type: 'USER',
          reference_type: 'APPLICATION',
          reference_id: 'a1',
          role_scope: 'APPLICATION',
          role_name: 'PRIMARY_OWNER',
          created_at: NOW,
          updated_at: NOW,
        });
      });
      const names = (rows: { name: string }[]) => rows.map((r) => r.name);

      it('lists by name, of a status', async () => {
        expect(names(await findApplications(t.storage.db, { status: 'ACTIVE' }))).toEqual([
          'Alpha',
          'Mobile 100%',
          'Zebra shop',
        ]);
      });

      it('keeps the applications of a member, directly or through a group', async () => {
        expect(
          names(await findApplications(t.storage.db, { memberOf: { userId: 'u1', groupIds: ['g2'] } })),
        ).toEqual(['Mobile 100%', 'Zebra shop']);
        expect(await findApplications(t.storage.db, { memberOf: { userId: 'u9', groupIds: [] } })).toEqual(
          [],
        );
      });

      it('filters by group and by words of the name or description, wildcards taken literally', async () => {
        expect(names(await findApplications(t.storage.db, { group: 'g1' }))).toEqual(['Alpha']);
        expect(names(await findApplications(t.storage.db, { query: 'ZEBRAS' }))).toEqual(['Zebra shop']);
        expect(names(await findApplications(t.storage.db, { query: '100%' }))).toEqual(['Mobile 100%']);
        expect(names(await findApplications(t.storage.db, { query: '%' }))).toEqual(['Mobile 100%']);
      });
    });

    it('locks an application inside a transaction', async () => {
      await insertApplication(t.storage.db, application('a1'));
      await t.storage.db.transaction().execute(async (trx) => {
        await lockApplication(trx, 'a1');
        await updateApplication(trx, 'a1', { name: 'Locked' });
      });
      expect((await findApplicationById(t.storage.db, 'a1'))?.name).toBe('Locked');
    });
  });
}
