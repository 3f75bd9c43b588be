import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMembershipsOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import {
  call,
  createGroup,
  createUser,
  errorBody,
  grantRoleOn,
  grantRoleThroughGroup,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import {
  ALREADY_PRIMARY_OWNER,
  PRIMARY_OWNER_UNCHANGEABLE,
  PRIMARY_OWNER_UNREMOVABLE,
  SYSTEM_ROLE_REFUSED,
  TRANSFER_OWNER_ONLY,
} from './apis.errors.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, createApiAs } from './test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API members`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
    });
    afterAll(() => t?.close());

    const roles = async (apiId: string) =>
      Object.fromEntries(
        (await findMembershipsOfReference(t.db, 'API', apiId)).map(
          (m) => [m.member_id, m.role_name] as const,
        ),
      );

    describe('GET apis/{id}/members and GET apis/{id}/groups', () => {
      it('lists the direct members, primary owner first, then the members inherited from each group', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const reviewer = await createUser(t.db, { firstname: 'Rita' });
        await grantRoleOn(t.db, reviewer.id, 'API', api.id, 'REVIEWER');
        const group = await createGroup(t.db, 'Partners');
        const partner = await createUser(t.db, { firstname: 'Paul' });
        const applicationOnly = await createUser(t.db);
        await grantRoleThroughGroup(t.db, partner.id, group.id, 'API', 'USER');
        await grantRoleThroughGroup(t.db, applicationOnly.id, group.id, 'APPLICATION', 'USER');
        await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { groups: [group.id] },
        });

        const res = await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api.id}/members` });
        const groups = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/groups`,
        });

        expect(
          res.json().map((m: { id: string; role: string; group: unknown }) => [m.id, m.role, m.group]),
        ).toEqual([
          [u.publisher.user.id, 'PRIMARY_OWNER', null],
          [reviewer.id, 'REVIEWER', null],
          [partner.id, 'USER', { id: group.id, name: 'Partners' }],
        ]);
        expect(groups.json()).toEqual([
          {
            id: group.id,
            name: 'Partners',
            members: [
              expect.objectContaining({
                id: partner.id,
                role: 'USER',
                displayName: expect.stringMatching(/^Paul/),
              }),
            ],
          },
        ]);
      });

      it('refuses users without api-member-r', async () => {
        const api = await createApiAs(t, u.publisher.session);
        await grantRoleOn(t.db, u.outsider.user.id, 'API', api.id, 'USER');

        const members = await call(t.app, u.outsider.session, {
          method: 'GET',
          url: `/apis/${api.id}/members`,
        });
        const groups = await call(t.app, u.outsider.session, {
          method: 'GET',
          url: `/apis/${api.id}/groups`,
        });

        expect(members.json()).toEqual(errorBody(403, 'You do not have the permission api-member-r'));
        expect(groups.statusCode).toBe(403);
      });
    });

    describe('POST apis/{id}/members', () => {
      it('adds a member by id or by username, then changes its role', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const a = await createUser(t.db);
        const b = await createUser(t.db);

        const byId = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/members`,
          payload: { id: a.id, role: 'OWNER' },
        });
        const byReference = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/members`,
          payload: { reference: b.source_id, role: 'user' },
        });
        const changed = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/members`,
          payload: { id: a.id, role: 'REVIEWER' },
        });

        expect([byId.statusCode, byReference.statusCode, changed.statusCode]).toEqual([201, 201, 201]);
        expect(byId.json()).toMatchObject({ id: a.id, role: 'OWNER', username: a.source_id });
        expect(byReference.json()).toMatchObject({ id: b.id, role: 'USER' });
        expect(changed.json()).toMatchObject({ id: a.id, role: 'REVIEWER' });
        expect(await roles(api.id)).toEqual({
          [u.publisher.user.id]: 'PRIMARY_OWNER',
          [a.id]: 'REVIEWER',
          [b.id]: 'USER',
        });
        const audits = await t.db
          .selectFrom('audits')
          .select('event')
          .where('reference_id', '=', api.id)
          .where('event', 'like', 'MEMBERSHIP_%')
          .orderBy('created_at')
          .execute();
        expect(audits.map((a) => a.event)).toEqual([
          'MEMBERSHIP_CREATED',
          'MEMBERSHIP_CREATED',
          'MEMBERSHIP_CREATED',
          'MEMBERSHIP_UPDATED',
        ]);
      });

      it('refuses a system role, an unknown role, a missing user and a change of the primary owner', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const a = await createUser(t.db);
        const add = (payload: Record<string, unknown>) =>
          call(t.app, u.publisher.session, { method: 'POST', url: `/apis/${api.id}/members`, payload });

        expect((await add({ id: a.id, role: 'PRIMARY_OWNER' })).json()).toEqual({
          http_status: 400,
          message: SYSTEM_ROLE_REFUSED,
          field: 'role',
        });
        expect((await add({ id: a.id, role: 'KING' })).json()).toMatchObject({
          http_status: 400,
          field: 'role',
        });
        expect((await add({ role: 'USER' })).json()).toMatchObject({ http_status: 400, field: 'id' });
        expect((await add({ id: a.id })).json()).toMatchObject({ http_status: 400, field: 'role' });
        expect((await add({ id: 'ghost', role: 'USER' })).statusCode).toBe(404);
        expect((await add({ id: u.publisher.user.id, role: 'USER' })).json()).toEqual({
          http_status: 400,
          message: PRIMARY_OWNER_UNCHANGEABLE,
          field: 'role',
        });
        expect(await roles(api.id)).toEqual({ [u.publisher.user.id]: 'PRIMARY_OWNER' });
      });

      it('needs api-member-c to add and api-member-u to change a role', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const reviewer: SignedInUser = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, reviewer.user.id, 'API', api.id, 'REVIEWER');
        const other = await createUser(t.db);

        const res = await call(t.app, reviewer.session, {
          method: 'POST',
          url: `/apis/${api.id}/members`,
          payload: { id: other.id, role: 'USER' },
        });
        const outsider = await call(t.app, u.outsider.session, {
          method: 'POST',
          url: `/apis/${api.id}/members`,
          payload: { id: other.id, role: 'USER' },
        });

        expect(res.statusCode).toBe(403);
        expect(outsider.statusCode).toBe(403);
        expect(await roles(api.id)).toEqual({
          [u.publisher.user.id]: 'PRIMARY_OWNER',
          [reviewer.user.id]: 'REVIEWER',
        });
      });
    });

    describe('DELETE apis/{id}/members?user=', () => {
      it('removes a member but never the primary owner', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const a = await createUser(t.db);
        await grantRoleOn(t.db, a.id, 'API', api.id, 'USER');

        const removed = await call(t.app, u.publisher.session, {
          method: 'DELETE',
          url: `/apis/${api.id}/members?user=${a.id}`,
        });
        const owner = await call(t.app, u.publisher.session, {
          method: 'DELETE',
          url: `/apis/${api.id}/members?user=${u.publisher.user.id}`,
        });
        const missing = await call(t.app, u.publisher.session, {
          method: 'DELETE',
          url: `/apis/${api.id}/members`,
        });

        expect(removed.statusCode).toBe(200);
        expect(owner.json()).toEqual({ http_status: 400, message: PRIMARY_OWNER_UNREMOVABLE, field: 'user' });
        expect(missing.json().field).toBe('user');
        expect(await roles(api.id)).toEqual({ [u.publisher.user.id]: 'PRIMARY_OWNER' });
        const audit = await t.db
          .selectFrom('audits')
          .select('event')
          .where('reference_id', '=', api.id)
          .where('event', '=', 'MEMBERSHIP_DELETED')
          .execute();
        expect(audit).toHaveLength(1);
      });

      it('refuses users without api-member-d', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const a = await createUser(t.db);
        await grantRoleOn(t.db, a.id, 'API', api.id, 'USER');

        const res = await call(t.app, u.outsider.session, {
          method: 'DELETE',
          url: `/apis/${api.id}/members?user=${a.id}`,
        });

        expect(res.statusCode).toBe(403);
        expect((await roles(api.id))[a.id]).toBe('USER');
      });
    });

    describe('POST apis/{id}/members/transfer_ownership', () => {
      it('makes another user the primary owner and gives the previous one the role chosen', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const heir = await createUser(t.db);

        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/members/transfer_ownership`,
          payload: { id: heir.id, role: 'OWNER' },
        });

        expect(res.statusCode).toBe(204);
        expect(await roles(api.id)).toEqual({ [heir.id]: 'PRIMARY_OWNER', [u.publisher.user.id]: 'OWNER' });
        const api2 = await call(t.app, u.admin, { method: 'GET', url: `/apis/${api.id}` });
        expect(api2.json().owner.id).toBe(heir.id);
      });

      it('lets an administrator transfer, and gives the default role when none is chosen', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const heir = await createUser(t.db);

        const res = await call(t.app, u.admin, {
          method: 'POST',
          url: `/apis/${api.id}/members/transfer_ownership`,
          payload: { id: heir.id },
        });

        expect(res.statusCode).toBe(204);
        expect(await roles(api.id)).toEqual({ [heir.id]: 'PRIMARY_OWNER', [u.publisher.user.id]: 'USER' });
      });

      it('refuses PRIMARY_OWNER as the role of the previous owner, the owner itself, and a missing user', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const heir = await createUser(t.db);
        const transfer = (payload: Record<string, unknown>) =>
          call(t.app, u.publisher.session, {
            method: 'POST',
            url: `/apis/${api.id}/members/transfer_ownership`,
            payload,
          });

        expect((await transfer({ id: heir.id, role: 'PRIMARY_OWNER' })).json()).toMatchObject({
          message: SYSTEM_ROLE_REFUSED,
        });
        expect((await transfer({ id: u.publisher.user.id, role: 'USER' })).json()).toEqual({
          http_status: 400,
          message: ALREADY_PRIMARY_OWNER,
          field: 'id',
        });
        expect((await transfer({ role: 'USER' })).json().field).toBe('id');
        expect(await roles(api.id)).toEqual({ [u.publisher.user.id]: 'PRIMARY_OWNER' });
      });

      it('refuses members who are not the primary owner, even with member rights, and outsiders', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const owner: SignedInUser = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, owner.user.id, 'API', api.id, 'OWNER');

        const member = await call(t.app, owner.session, {
          method: 'POST',
          url: `/apis/${api.id}/members/transfer_ownership`,
          payload: { id: owner.user.id },
        });
        const outsider = await call(t.app, u.outsider.session, {
          method: 'POST',
          url: `/apis/${api.id}/members/transfer_ownership`,
          payload: { id: u.outsider.user.id },
        });

        expect(member.json()).toEqual(errorBody(403, TRANSFER_OWNER_ONLY));
        expect(outsider.statusCode).toBe(403);
        expect((await roles(api.id))[u.publisher.user.id]).toBe('PRIMARY_OWNER');
      });
    });
  });
}
