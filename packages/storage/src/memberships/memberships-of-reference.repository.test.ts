import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  deleteMembershipsOfReference,
  findMembershipsOfReference,
  upsertMembership,
} from './memberships.repository.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: memberships of a reference`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });

    it('deletes every member of one reference and leaves the others', async () => {
      let n = 0;
      for (const [member, type, ref] of [
        ['u1', 'API', 'a1'],
        ['u2', 'API', 'a1'],
        ['u1', 'API', 'a2'],
        ['u1', 'APPLICATION', 'a1'],
      ] as const) {
        await upsertMembership(t.storage.db, {
          id: `m${n++}`,
          member_id: member,
          member_type: 'USER',
          reference_type: type,
          reference_id: ref,
          role_scope: type,
          role_name: 'USER',
          created_at: NOW,
          updated_at: NOW,
        });
      }

      expect(await deleteMembershipsOfReference(t.storage.db, 'API', 'a1')).toBe(2);

      expect(await findMembershipsOfReference(t.storage.db, 'API', 'a1')).toEqual([]);
      expect(await findMembershipsOfReference(t.storage.db, 'API', 'a2')).toHaveLength(1);
      expect(await findMembershipsOfReference(t.storage.db, 'APPLICATION', 'a1')).toHaveLength(1);
    });
  });
}
