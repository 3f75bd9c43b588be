import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMembershipsOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  addMembership,
  call,
  createApi,
  createUser,
  errorBody,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
  uniqueId,
} from '../../test-support/index.js';

const GROUPS = '/configuration/groups';

for (const dialect of await testDialects()) {
  describe(`${dialect}: group members`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());

    const createGroup = async (body: object = {}) =>
      (
        await call(t.app, admin, {
          method: 'POST',
          url: GROUPS,
          payload: { name: uniqueId('group'), ...body },
        })
      ).json() as { id: string };
    const add = (groupId: string, members: object[], session = admin) =>
      call(t.app, session, { method: 'POST', url: `${GROUPS}/${groupId}/members`, payload: members });
    const rolesIn = async (groupId: string, userId: string) =>
      Object.fromEntries(
        (await findMembershipsOfReference(t.db, 'GROUP', groupId))
          .filter((m) => m.member_id === userId)
          .map((m) => [m.role_scope, m.role_name]),
      );
    /** A signed-in user who is an ADMIN member of the group (not a super admin). */
    const groupAdminOf = async (groupId: string) => {
      const u = await signInNewUser(t.app, t.db);
      await addMembership(t.db, {
        memberId: u.user.id,
        referenceType: 'GROUP',
        referenceId: groupId,
        roleScope: 'GROUP',
        roleName: 'ADMIN',
      });
      await addMembership(t.db, {
        memberId: u.user.id,
        referenceType: 'GROUP',
        referenceId: groupId,
        roleScope: 'API',
        roleName: 'USER',
      });
      return u;
    };

    it('adds a member with API, application and group roles, lists and changes it, then removes it', async () => {
      const g = await createGroup();
      const user = await createUser(t.db, { firstname: 'Ada', lastname: 'Member' });

      const added = await add(g.id, [
        {
          id: user.id,
          roles: [
            { scope: 'API', name: 'OWNER' },
            { scope: 'APPLICATION', name: 'USER' },
            { scope: 'GROUP', name: 'ADMIN' },
          ],
        },
      ]);
      expect(added.statusCode).toBe(201);
      const list = (await call(t.app, admin, { method: 'GET', url: `${GROUPS}/${g.id}/members` })).json();
      expect(list).toEqual([
        expect.objectContaining({
          id: user.id,
          displayName: 'Ada Member',
          roles: { API: 'OWNER', APPLICATION: 'USER', GROUP: 'ADMIN' },
        }),
      ]);

      const changed = await add(g.id, [
        {
          reference: user.id,
          roles: [
            { scope: 'API', name: 'REVIEWER' },
            { scope: 'GROUP', name: '' },
          ],
        },
      ]);
      expect(changed.statusCode).toBe(200);
      expect(await rolesIn(g.id, user.id)).toEqual({ API: 'REVIEWER', APPLICATION: 'USER' });

      const removed = await call(t.app, admin, {
        method: 'DELETE',
        url: `${GROUPS}/${g.id}/members/${user.id}`,
      });
      expect(removed.statusCode).toBe(200);
      expect(await rolesIn(g.id, user.id)).toEqual({});
    });

    it('gives the group members the roles on the group APIs (permissions follow)', async () => {
      const g = await createGroup();
      const api = await createApi(t.db, { groups: [g.id] });
      const member = await signInNewUser(t.app, t.db);
      const perms = () =>
        call(t.app, member.session, { method: 'GET', url: `/apis/${api.id}/members/permissions` }).then((r) =>
          r.json(),
        );
      expect(await perms()).toEqual({});
      await add(g.id, [{ id: member.user.id, roles: [{ scope: 'API', name: 'OWNER' }] }]);
      expect((await perms()).PLAN).toBe('CRUD');
    });

    it.each([
      [[{ id: 'x', roles: [] }], '0.id', /can not be found/],
      [[{ roles: [{ scope: 'API', name: 'USER' }] }], '0.id', /required/],
      [[{ id: 'SELF', roles: [] }], '0.roles', /Select at least one role/],
      [[{ id: 'SELF', roles: [{ scope: 'API', name: 'PRIMARY_OWNER' }] }], '0.roles.API', /system role/],
      [[{ id: 'SELF', roles: [{ scope: 'GROUP', name: 'OWNER' }] }], '0.roles.GROUP', /ADMIN or none/],
      [[{ id: 'SELF', roles: [{ scope: 'PLAN', name: 'USER' }] }], '0.roles.0.scope', undefined],
    ])('refuses %j naming the field, storing nothing', async (body, field, reason) => {
      const g = await createGroup();
      const user = await createUser(t.db);
      const payload = JSON.parse(JSON.stringify(body).replace('SELF', user.id));
      const res = await add(g.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalidFieldBody(field, reason));
      expect(await findMembershipsOfReference(t.db, 'GROUP', g.id)).toEqual([]);
    });

    describe('group admins', () => {
      it('may add members only when system invitation is on', async () => {
        const g = await createGroup({ system_invitation: false });
        const groupAdmin = await groupAdminOf(g.id);
        const user = await createUser(t.db);
        const res = await add(
          g.id,
          [{ id: user.id, roles: [{ scope: 'API', name: 'USER' }] }],
          groupAdmin.session,
        );
        expect(res.json()).toEqual(
          errorBody(400, `Invitation system is forbidden for group [${g.id}]`, 'system_invitation'),
        );
        expect(await rolesIn(g.id, user.id)).toEqual({});
      });

      it('may not pass the max members (members and pending invitations count); the super admin may', async () => {
        const g = await createGroup({ system_invitation: true, email_invitation: true, max_invitation: 3 });
        const groupAdmin = await groupAdminOf(g.id);
        const invited = await call(t.app, admin, {
          method: 'POST',
          url: `${GROUPS}/${g.id}/invitations`,
          payload: { email: `${uniqueId('someone')}@example.test` },
        });
        expect(invited.statusCode).toBe(200);
        const [a, b] = [await createUser(t.db), await createUser(t.db)];
        const one = await add(
          g.id,
          [{ id: a.id, roles: [{ scope: 'API', name: 'USER' }] }],
          groupAdmin.session,
        );
        expect(one.statusCode).toBe(201);
        const two = await add(
          g.id,
          [{ id: b.id, roles: [{ scope: 'API', name: 'USER' }] }],
          groupAdmin.session,
        );
        expect(two.json()).toEqual(errorBody(400, 'Limitation of 3 members exceeded', 'max_invitation'));
        expect(await rolesIn(g.id, b.id)).toEqual({});
        const email = await call(t.app, groupAdmin.session, {
          method: 'POST',
          url: `${GROUPS}/${g.id}/invitations`,
          payload: { email: `${uniqueId('more')}@example.test` },
        });
        expect(email.json()).toEqual(errorBody(400, 'Limitation of 3 members exceeded', 'max_invitation'));
        const bySuperAdmin = await add(g.id, [{ id: b.id, roles: [{ scope: 'API', name: 'USER' }] }]);
        expect(bySuperAdmin.statusCode).toBe(201);
      });

      it('cannot choose a locked role: a new member gets the group default, an existing one keeps theirs', async () => {
        const g = await createGroup({
          system_invitation: true,
          lock_api_role: true,
          roles: { API: 'REVIEWER' },
        });
        const groupAdmin = await groupAdminOf(g.id);
        const user = await createUser(t.db);
        await add(
          g.id,
          [
            {
              id: user.id,
              roles: [
                { scope: 'API', name: 'OWNER' },
                { scope: 'APPLICATION', name: 'OWNER' },
              ],
            },
          ],
          groupAdmin.session,
        );
        expect(await rolesIn(g.id, user.id)).toEqual({ API: 'REVIEWER', APPLICATION: 'OWNER' });
        await add(g.id, [{ id: user.id, roles: [{ scope: 'API', name: 'USER' }] }]);
        await add(g.id, [{ id: user.id, roles: [{ scope: 'API', name: 'OWNER' }] }], groupAdmin.session);
        expect((await rolesIn(g.id, user.id)).API).toBe('USER');
      });
    });

    it('is refused to a user who is neither super admin nor ADMIN of the group, storing nothing', async () => {
      const g = await createGroup({ system_invitation: true });
      const other = await signInNewUser(t.app, t.db);
      const user = await createUser(t.db);
      const res = await add(g.id, [{ id: user.id, roles: [{ scope: 'API', name: 'USER' }] }], other.session);
      expect(res.statusCode).toBe(403);
      const del = await call(t.app, other.session, {
        method: 'DELETE',
        url: `${GROUPS}/${g.id}/members/${user.id}`,
      });
      expect(del.statusCode).toBe(403);
      expect(await rolesIn(g.id, user.id)).toEqual({});
    });

    it('answers 404 for an unknown group or member', async () => {
      expect((await add('nope', [{ id: 'x', roles: [] }])).statusCode).toBe(404);
      const g = await createGroup();
      const res = await call(t.app, admin, { method: 'DELETE', url: `${GROUPS}/${g.id}/members/nobody` });
      expect(res.statusCode).toBe(404);
    });
  });
}
