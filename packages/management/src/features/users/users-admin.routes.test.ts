import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMembershipsOfMember, findUserById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  addMembership,
  call,
  createApi,
  createApplication,
  createGroup,
  createUser,
  errorBody,
  grantRoleOn,
  grantRoleThroughGroup,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: users administration`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());

    describe('DELETE users/{id}', () => {
      it('deletes a user: not listed, cannot sign in, roles gone, email free again', async () => {
        const doomed = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
        const res = await call(t.app, admin, { method: 'DELETE', url: `/users/${doomed.user.id}` });
        expect(res.statusCode).toBe(204);

        expect(await findUserById(t.db, doomed.user.id)).toMatchObject({
          status: 'ARCHIVED',
          email: null,
          password: null,
          source_id: `deleted-${doomed.user.id}`,
        });
        expect(await findMembershipsOfMember(t.db, 'USER', doomed.user.id)).toEqual([]);
        const list = await call(t.app, admin, { method: 'GET', url: `/users?q=${doomed.user.source_id}` });
        expect(list.json().data).toEqual([]);
        expect(
          (await call(t.app, admin, { method: 'GET', url: `/users/${doomed.user.id}` })).statusCode,
        ).toBe(404);
        // Their open session ends.
        expect((await call(t.app, doomed.session, { method: 'GET', url: '/user' })).statusCode).toBe(401);
        const again = await call(t.app, admin, {
          method: 'POST',
          url: '/users',
          payload: { email: doomed.user.email },
        });
        expect(again.statusCode).toBe(201);
        const audit = await t.db
          .selectFrom('audits')
          .selectAll()
          .where('event', '=', 'USER_DELETED')
          .execute();
        expect(audit.map((a) => JSON.parse(a.properties).USER)).toContain(doomed.user.id);
      });

      it('refuses to delete the primary owner of an API or application, who carries primary_owner', async () => {
        const owner = await createUser(t.db);
        const api = await createApi(t.db);
        await grantRoleOn(t.db, owner.id, 'API', api.id, 'PRIMARY_OWNER');
        const shown = await call(t.app, admin, { method: 'GET', url: `/users/${owner.id}` });
        expect(shown.json().primary_owner).toBe(true);
        const listed = await call(t.app, admin, { method: 'GET', url: `/users?q=${owner.source_id}` });
        expect(listed.json().data[0].primary_owner).toBe(true);

        const res = await call(t.app, admin, { method: 'DELETE', url: `/users/${owner.id}` });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(
          errorBody(400, /still the primary owner of 1 API\(s\) and 0 application\(s\)/, 'user'),
        );
        expect(await findUserById(t.db, owner.id)).toMatchObject({ status: 'ACTIVE' });
      });

      it('refuses to delete oneself, and answers 404 for an unknown user', async () => {
        const me = await signInNewUser(t.app, t.db, { management: 'ADMIN' });
        const self = await call(t.app, me.session, { method: 'DELETE', url: `/users/${me.user.id}` });
        expect(self.statusCode).toBe(400);
        expect(self.json()).toEqual(invalidFieldBody('user'));
        expect((await call(t.app, admin, { method: 'DELETE', url: '/users/nobody' })).statusCode).toBe(404);
      });

      it('is refused without management-user-d', async () => {
        const victim = await createUser(t.db);
        const publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
        const res = await call(t.app, publisher.session, { method: 'DELETE', url: `/users/${victim.id}` });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-user-d'));
        expect(await findUserById(t.db, victim.id)).toMatchObject({ status: 'ACTIVE' });
      });
    });

    describe('GET users/{id}/groups and users/{id}/memberships', () => {
      it("lists the user's groups with the roles held in each", async () => {
        const u = await createUser(t.db);
        const group = await createGroup(t.db, 'Team Blue');
        await grantRoleThroughGroup(t.db, u.id, group.id, 'API', 'OWNER');
        await addMembership(t.db, {
          memberId: u.id,
          referenceType: 'GROUP',
          referenceId: group.id,
          roleScope: 'GROUP',
          roleName: 'ADMIN',
        });
        const res = await call(t.app, admin, { method: 'GET', url: `/users/${u.id}/groups` });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([
          { id: group.id, name: 'Team Blue', roles: { API: 'OWNER', GROUP: 'ADMIN' } },
        ]);
      });

      it('lists APIs (direct and through groups) with name, version and visibility', async () => {
        const u = await createUser(t.db);
        const group = await createGroup(t.db);
        const direct = await createApi(t.db, { name: 'direct-api', version: '2.1', visibility: 'PUBLIC' });
        const viaGroup = await createApi(t.db, { name: 'group-api', groups: [group.id] });
        await createApi(t.db, { name: 'other-api' });
        await grantRoleOn(t.db, u.id, 'API', direct.id, 'OWNER');
        await grantRoleThroughGroup(t.db, u.id, group.id, 'API', 'USER');
        const res = await call(t.app, admin, { method: 'GET', url: `/users/${u.id}/memberships?type=api` });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.memberships.map((m: { reference: string }) => m.reference).sort()).toEqual(
          [direct.id, viaGroup.id].sort(),
        );
        expect(body.metadata[direct.id]).toMatchObject({
          name: 'direct-api',
          version: '2.1',
          visibility: 'PUBLIC',
        });
        expect(body.metadata[viaGroup.id]).toMatchObject({ name: 'group-api' });
      });

      it('lists applications with name, type and status, leaving archived ones out', async () => {
        const u = await createUser(t.db);
        const app = await createApplication(t.db, { name: 'my-app', type: 'WEB' });
        const gone = await createApplication(t.db, { name: 'gone', status: 'ARCHIVED' });
        await grantRoleOn(t.db, u.id, 'APPLICATION', app.id, 'PRIMARY_OWNER');
        await grantRoleOn(t.db, u.id, 'APPLICATION', gone.id, 'USER');
        const res = await call(t.app, admin, {
          method: 'GET',
          url: `/users/${u.id}/memberships?type=application`,
        });
        expect(res.json()).toEqual({
          memberships: [
            {
              reference: app.id,
              type: 'APPLICATION',
              roles: { APPLICATION: 'PRIMARY_OWNER' },
              source: 'direct',
            },
          ],
          metadata: { [app.id]: { name: 'my-app', type: 'WEB', status: 'ACTIVE' } },
        });
      });

      it('refuses a missing or unknown type, naming it', async () => {
        const u = await createUser(t.db);
        for (const q of ['', '?type=planet']) {
          const res = await call(t.app, admin, { method: 'GET', url: `/users/${u.id}/memberships${q}` });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody('type'));
        }
      });

      it('needs management-user-r', async () => {
        const u = await createUser(t.db);
        const plain = await signInNewUser(t.app, t.db);
        for (const url of [`/users/${u.id}/groups`, `/users/${u.id}/memberships?type=api`]) {
          const res = await call(t.app, plain.session, { method: 'GET', url });
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-user-r'));
        }
      });
    });

    describe('POST users/{id}/resetPassword', () => {
      it('refuses a user of another identity provider, naming the user, and mails nothing', async () => {
        const u = await createUser(t.db);
        await t.db.updateTable('users').set({ source: 'github' }).where('id', '=', u.id).execute();
        const mailsBefore = await t.db.selectFrom('mails').select('id').execute();
        const res = await call(t.app, admin, { method: 'POST', url: `/users/${u.id}/resetPassword` });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('user', /built-in user store/));
        expect(await t.db.selectFrom('mails').select('id').execute()).toEqual(mailsBefore);
      });
    });
  });
}
