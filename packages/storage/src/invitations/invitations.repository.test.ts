import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  deleteInvitation,
  deleteInvitationsOfReference,
  findInvitationsByEmail,
  findInvitationsOfReference,
  insertInvitation,
  updateInvitationRoles,
} from './invitations.repository.js';

const NOW = 1_790_000_000_000;

const invitation = (id: string, groupId: string, email: string) => ({
  id,
  reference_type: 'GROUP',
  reference_id: groupId,
  email,
  api_role: 'USER',
  application_role: null,
  created_at: NOW,
  updated_at: NOW,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: invitations repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('invitations').execute();
    });

    it('stores the email lower-cased and finds the invitations of a group by email', async () => {
      await insertInvitation(t.storage.db, invitation('i1', 'g1', 'Zed@Example.test'));
      await insertInvitation(t.storage.db, invitation('i2', 'g1', 'amy@example.test'));
      await insertInvitation(t.storage.db, invitation('i3', 'g2', 'amy@example.test'));

      expect((await findInvitationsOfReference(t.storage.db, 'GROUP', 'g1')).map((i) => i.email)).toEqual([
        'amy@example.test',
        'zed@example.test',
      ]);
      expect((await findInvitationsByEmail(t.storage.db, 'AMY@example.test')).map((i) => i.id)).toEqual([
        'i2',
        'i3',
      ]);
    });

    it('refuses a second invitation of the same email to the same group', async () => {
      await insertInvitation(t.storage.db, invitation('i1', 'g1', 'amy@example.test'));

      await expect(
        insertInvitation(t.storage.db, invitation('i2', 'g1', 'AMY@example.test')),
      ).rejects.toThrow();
      expect(await findInvitationsOfReference(t.storage.db, 'GROUP', 'g1')).toHaveLength(1);
    });

    it('changes the roles, deletes one, or every invitation of a group', async () => {
      await insertInvitation(t.storage.db, invitation('i1', 'g1', 'a@example.test'));
      await insertInvitation(t.storage.db, invitation('i2', 'g1', 'b@example.test'));
      await insertInvitation(t.storage.db, invitation('i3', 'g2', 'c@example.test'));

      expect(
        await updateInvitationRoles(
          t.storage.db,
          'i1',
          { api_role: null, application_role: 'OWNER' },
          NOW + 5,
        ),
      ).toBe(1);
      expect((await findInvitationsByEmail(t.storage.db, 'a@example.test'))[0]).toMatchObject({
        api_role: null,
        application_role: 'OWNER',
        updated_at: NOW + 5,
      });
      expect(await deleteInvitation(t.storage.db, 'i2')).toBe(1);
      expect(await deleteInvitationsOfReference(t.storage.db, 'GROUP', 'g1')).toBe(1);
      expect((await t.storage.db.selectFrom('invitations').select('id').execute()).map((r) => r.id)).toEqual([
        'i3',
      ]);
    });
  });
}
