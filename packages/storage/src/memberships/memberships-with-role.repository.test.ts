import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findUserMembershipsWithRole, upsertMembership } from './memberships.repository.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: memberships with a role`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
      let n = 0;
      for (const [member, type, ref, role] of [
        ['u1', 'USER', 'app1', 'PRIMARY_OWNER'],
        ['u2', 'USER', 'app1', 'USER'],
        ['u3', 'USER', 'app2', 'PRIMARY_OWNER'],
        ['g1', 'GROUP', 'app3', 'PRIMARY_OWNER'],
        ['u4', 'USER', 'app4', 'PRIMARY_OWNER'],
      ] as const) {
        await upsertMembership(t.storage.db, {
          id: `m${n++}`,
          member_id: member,
          member_type: type,
          reference_type: 'APPLICATION',
          reference_id: ref,
          role_scope: 'APPLICATION',
          role_name: role,
          created_at: NOW,
          updated_at: NOW,
        });
      }
    });
    afterAll(async () => {
      await t.destroy();
    });

    it('finds the users holding the role on the references asked for', async () => {
      const rows = await findUserMembershipsWithRole(
        t.storage.db,
        'APPLICATION',
        ['app1', 'app2', 'app3'],
        'PRIMARY_OWNER',
      );
      expect(rows.map((r) => [r.reference_id, r.member_id]).sort()).toEqual([
        ['app1', 'u1'],
        ['app2', 'u3'],
      ]);
    });

    it('finds nothing for an empty list of references', async () => {
      expect(await findUserMembershipsWithRole(t.storage.db, 'APPLICATION', [], 'PRIMARY_OWNER')).toEqual([]);
    });
  });
}
