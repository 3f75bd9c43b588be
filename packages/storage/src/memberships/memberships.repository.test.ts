import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  deleteMemberships,
  deleteMembershipsOfMember,
  findMembershipsByRole,
  findMembershipsOfMember,
  findMembershipsOfReference,
  findUserMembershipsOn,
  upsertMembership,
} from './memberships.repository.js';
import type { NewMembershipRow } from './memberships.table.js';

const NOW = 1_790_000_000_000;

function membership(id: string, changes: Partial<NewMembershipRow> = {}): NewMembershipRow {
  return {
    id,
    member_id: 'u1',
    member_type: 'USER',
    reference_type: 'API',
    reference_id: 'api1',
    role_scope: 'API',
    role_name: 'USER',
    source: null,
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

for (const dialect of await testDialects()) {
  describe(`${dialect}: memberships repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('memberships').execute();
    });

    describe('upsertMembership', () => {
      it('creates the membership when the member has none on the reference', async () => {
        const row = membership('m1', { role_name: 'OWNER' });
        await upsertMembership(t.storage.db, row);

        expect(await findMembershipsOfMember(t.storage.db, 'USER', 'u1')).toEqual([row]);
      });

      it('changes the role of an existing member and scope, keeping its id and creation date', async () => {
        await upsertMembership(t.storage.db, membership('m1', { role_name: 'USER' }));

        await upsertMembership(
          t.storage.db,
          membership('m2', { role_name: 'OWNER', created_at: NOW + 9, updated_at: NOW + 9 }),
        );

        expect(await findMembershipsOfReference(t.storage.db, 'API', 'api1')).toEqual([
          membership('m1', { role_name: 'OWNER', created_at: NOW, updated_at: NOW + 9 }),
        ]);
      });

      it('adds a second membership for another role scope on the same reference', async () => {
        await upsertMembership(t.storage.db, membership('m1', { role_scope: 'API', role_name: 'USER' }));
        await upsertMembership(
          t.storage.db,
          membership('m2', { role_scope: 'PORTAL', role_name: 'REVIEWER' }),
        );

        const rows = await findMembershipsOfReference(t.storage.db, 'API', 'api1');

        expect(rows.map((r) => [r.id, r.role_scope, r.role_name]).sort()).toEqual([
          ['m1', 'API', 'USER'],
          ['m2', 'PORTAL', 'REVIEWER'],
        ]);
      });

      it('keeps a group member and a user member with the same id apart', async () => {
        await upsertMembership(t.storage.db, membership('m1', { member_type: 'USER', role_name: 'USER' }));
        await upsertMembership(t.storage.db, membership('m2', { member_type: 'GROUP', role_name: 'OWNER' }));

        expect((await findMembershipsOfMember(t.storage.db, 'USER', 'u1')).map((r) => r.role_name)).toEqual([
          'USER',
        ]);
        expect((await findMembershipsOfMember(t.storage.db, 'GROUP', 'u1')).map((r) => r.role_name)).toEqual([
          'OWNER',
        ]);
      });
    });

    describe('findMembershipsOfMember', () => {
      it('returns every membership of the member, on every reference', async () => {
        await upsertMembership(t.storage.db, membership('m1', { reference_id: 'api1' }));
        await upsertMembership(t.storage.db, membership('m2', { reference_id: 'api2' }));
        await upsertMembership(
          t.storage.db,
          membership('m3', {
            reference_type: 'MANAGEMENT',
            reference_id: 'DEFAULT',
            role_scope: 'MANAGEMENT',
          }),
        );
        await upsertMembership(t.storage.db, membership('m4', { member_id: 'u2' }));

        expect(ids(await findMembershipsOfMember(t.storage.db, 'USER', 'u1'))).toEqual(['m1', 'm2', 'm3']);
      });

      it('returns nothing for a member without memberships', async () => {
        await upsertMembership(t.storage.db, membership('m1'));

        expect(await findMembershipsOfMember(t.storage.db, 'USER', 'u9')).toEqual([]);
      });
    });

    describe('findUserMembershipsOn', () => {
      it("returns the user's memberships on the given references of the type", async () => {
        await upsertMembership(t.storage.db, membership('m1', { reference_id: 'api1' }));
        await upsertMembership(t.storage.db, membership('m2', { reference_id: 'api2' }));
        await upsertMembership(t.storage.db, membership('m3', { reference_id: 'api3' }));
        await upsertMembership(
          t.storage.db,
          membership('m4', {
            reference_type: 'APPLICATION',
            reference_id: 'api1',
            role_scope: 'APPLICATION',
          }),
        );
        await upsertMembership(t.storage.db, membership('m5', { member_id: 'u2', reference_id: 'api1' }));

        const rows = await findUserMembershipsOn(t.storage.db, 'u1', 'API', ['api1', 'api3', 'api9']);

        expect(ids(rows)).toEqual(['m1', 'm3']);
      });

      it('ignores group memberships that have the same id as the user', async () => {
        await upsertMembership(t.storage.db, membership('m1', { member_type: 'GROUP', member_id: 'u1' }));

        expect(await findUserMembershipsOn(t.storage.db, 'u1', 'API', ['api1'])).toEqual([]);
      });

      it('returns nothing for an empty list of references', async () => {
        await upsertMembership(t.storage.db, membership('m1'));

        expect(await findUserMembershipsOn(t.storage.db, 'u1', 'API', [])).toEqual([]);
      });
    });

    describe('findMembershipsOfReference', () => {
      it('returns every member of the reference, oldest first', async () => {
        await upsertMembership(t.storage.db, membership('m1', { member_id: 'u1', created_at: NOW + 2 }));
        await upsertMembership(
          t.storage.db,
          membership('m2', { member_id: 'g1', member_type: 'GROUP', created_at: NOW }),
        );
        await upsertMembership(t.storage.db, membership('m3', { member_id: 'u2', created_at: NOW + 1 }));
        await upsertMembership(t.storage.db, membership('m4', { member_id: 'u3', reference_id: 'api2' }));
        await upsertMembership(
          t.storage.db,
          membership('m5', { member_id: 'u4', reference_type: 'APPLICATION', role_scope: 'APPLICATION' }),
        );

        const rows = await findMembershipsOfReference(t.storage.db, 'API', 'api1');

        expect(rows.map((r) => r.id)).toEqual(['m2', 'm3', 'm1']);
      });
    });

    describe('findMembershipsByRole', () => {
      it('returns the memberships holding that role of that scope', async () => {
        const env = { reference_type: 'MANAGEMENT', reference_id: 'DEFAULT', role_scope: 'MANAGEMENT' };
        await upsertMembership(
          t.storage.db,
          membership('m1', { ...env, member_id: 'u1', role_name: 'ADMIN' }),
        );
        await upsertMembership(
          t.storage.db,
          membership('m2', { ...env, member_id: 'u2', role_name: 'USER' }),
        );
        await upsertMembership(
          t.storage.db,
          membership('m3', { ...env, member_id: 'u3', role_name: 'ADMIN' }),
        );
        await upsertMembership(
          t.storage.db,
          membership('m4', { member_id: 'u4', role_scope: 'API', role_name: 'ADMIN' }),
        );

        expect(ids(await findMembershipsByRole(t.storage.db, 'MANAGEMENT', 'ADMIN'))).toEqual(['m1', 'm3']);
        expect(await findMembershipsByRole(t.storage.db, 'PORTAL', 'ADMIN')).toEqual([]);
      });
    });

    describe('deleteMemberships', () => {
      it('deletes every role of the member on the reference and returns how many went', async () => {
        await upsertMembership(t.storage.db, membership('m1', { role_scope: 'API' }));
        await upsertMembership(t.storage.db, membership('m2', { role_scope: 'PORTAL' }));
        await upsertMembership(t.storage.db, membership('m3', { reference_id: 'api2' }));
        await upsertMembership(t.storage.db, membership('m4', { member_id: 'u2' }));

        const n = await deleteMemberships(t.storage.db, {
          memberId: 'u1',
          memberType: 'USER',
          referenceType: 'API',
          referenceId: 'api1',
        });

        expect(n).toBe(2);
        expect(ids(await t.storage.db.selectFrom('memberships').select('id').execute())).toEqual([
          'm3',
          'm4',
        ]);
      });

      it('returns 0 when the member has no membership on the reference', async () => {
        await upsertMembership(t.storage.db, membership('m1', { member_type: 'GROUP' }));

        const n = await deleteMemberships(t.storage.db, {
          memberId: 'u1',
          memberType: 'USER',
          referenceType: 'API',
          referenceId: 'api1',
        });

        expect(n).toBe(0);
        expect(await findMembershipsOfMember(t.storage.db, 'GROUP', 'u1')).toHaveLength(1);
      });
    });

    describe('deleteMembershipsOfMember', () => {
      it('deletes every membership of the member and keeps the others', async () => {
        await upsertMembership(t.storage.db, membership('m1', { reference_id: 'api1' }));
        await upsertMembership(t.storage.db, membership('m2', { reference_id: 'api2' }));
        await upsertMembership(t.storage.db, membership('m3', { member_id: 'u2' }));
        await upsertMembership(t.storage.db, membership('m4', { member_type: 'GROUP' }));

        await deleteMembershipsOfMember(t.storage.db, 'USER', 'u1');

        expect(await findMembershipsOfMember(t.storage.db, 'USER', 'u1')).toEqual([]);
        expect(ids(await t.storage.db.selectFrom('memberships').select('id').execute())).toEqual([
          'm3',
          'm4',
        ]);
      });
    });
  });
}
