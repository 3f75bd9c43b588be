import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@portico/model';
import type { ApiRow, ApplicationRow, GroupRow } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  createGroup,
  errorBody,
  grantRoleOn,
  grantRoleThroughGroup,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

const everyRight = (scope: 'API' | 'APPLICATION') =>
  Object.fromEntries(PERMISSIONS[scope].map((p) => [p, 'CRUD']));

for (const dialect of await testDialects()) {
  describe(`${dialect}: roles and member permissions`, () => {
    let t: TestApp;
    let admin: TestSession;
    let plainUser: SignedInUser;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      plainUser = await signInNewUser(t.app, t.db);
    });
    afterAll(() => t?.close());

    describe('GET configuration/rolescopes', () => {
      it('lists every scope with its permission names to management-role-r holders', async () => {
        const publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
        for (const session of [admin, publisher.session]) {
          const res = await call(t.app, session, { method: 'GET', url: '/configuration/rolescopes' });
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual(PERMISSIONS);
        }
      });

      it('is refused to a user without management-role-r', async () => {
        const res = await call(t.app, plainUser.session, { method: 'GET', url: '/configuration/rolescopes' });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-role-r'));
      });
    });

    describe('GET configuration/rolescopes/{scope}/roles', () => {
      it('lists the roles of a scope, with the default and system flags, to any signed-in user', async () => {
        const res = await call(t.app, plainUser.session, {
          method: 'GET',
          url: '/configuration/rolescopes/API/roles',
        });
        expect(res.statusCode).toBe(200);
        const roles = res.json<{ name: string; default: boolean; system: boolean; scope: string }[]>();
        expect(roles.map((r) => r.name)).toEqual(['OWNER', 'PRIMARY_OWNER', 'REVIEWER', 'USER']);
        expect(roles.filter((r) => r.default).map((r) => r.name)).toEqual(['USER']);
        expect(roles.filter((r) => r.system).map((r) => r.name)).toEqual(['PRIMARY_OWNER']);
        expect(roles.every((r) => r.scope === 'API')).toBe(true);
      });

      it('refuses an unknown scope, naming it', async () => {
        const res = await call(t.app, admin, {
          method: 'GET',
          url: '/configuration/rolescopes/PLANET/roles',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('scope'));
      });

      it('needs a session', async () => {
        const res = await call(t.app, undefined, {
          method: 'GET',
          url: '/configuration/rolescopes/API/roles',
        });
        expect(res.statusCode).toBe(401);
      });
    });

    describe('GET configuration/rolescopes/{scope}/roles/{role}', () => {
      it('shows one role with its permission map', async () => {
        const res = await call(t.app, admin, {
          method: 'GET',
          url: '/configuration/rolescopes/APPLICATION/roles/USER',
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          name: 'USER',
          scope: 'APPLICATION',
          description: 'Reads the application, its subscriptions and its traffic',
          default: true,
          system: false,
          permissions: {
            DEFINITION: ['R'],
            MEMBER: ['R'],
            ANALYTICS: ['R'],
            LOG: ['R'],
            SUBSCRIPTION: ['R'],
          },
        });
      });

      it('answers 404 for an unknown role', async () => {
        const res = await call(t.app, admin, {
          method: 'GET',
          url: '/configuration/rolescopes/API/roles/NOPE',
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorBody(404, 'Role [API:NOPE] can not be found.'));
      });

      it('is refused to a user without management-role-r', async () => {
        const res = await call(t.app, plainUser.session, {
          method: 'GET',
          url: '/configuration/rolescopes/API/roles/USER',
        });
        expect(res.statusCode).toBe(403);
      });
    });

    describe('GET apis/{api}/members/permissions', () => {
      let api: ApiRow;
      let group: GroupRow;
      beforeAll(async () => {
        group = await createGroup(t.db);
        api = await createApi(t.db, { groups: [group.id] });
      });
      const permissionsOn = (session: TestSession, apiId = api.id) =>
        call(t.app, session, { method: 'GET', url: `/apis/${apiId}/members/permissions` });

      it('answers the rights of a direct role as letters', async () => {
        const member = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, member.user.id, 'API', api.id, 'USER');
        const res = await permissionsOn(member.session);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          DEFINITION: 'R',
          PLAN: 'R',
          DOCUMENTATION: 'R',
          METADATA: 'R',
          RATING: 'CRU',
          RATING_ANSWER: 'R',
        });
      });

      it("gives an OWNER every right but the gateway definition's writes", async () => {
        const owner = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, owner.user.id, 'API', api.id, 'OWNER');
        const body = (await permissionsOn(owner.session)).json();
        expect(body).toMatchObject({ PLAN: 'CRUD', SUBSCRIPTION: 'CRUD', GATEWAY_DEFINITION: 'R' });
      });

      it('merges the direct role with the role given through a group of the API', async () => {
        const member = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, member.user.id, 'API', api.id, 'USER');
        await grantRoleThroughGroup(t.db, member.user.id, group.id, 'API', 'REVIEWER');
        const body = (await permissionsOn(member.session)).json();
        expect(body).toMatchObject({ RATING: 'CRU', AUDIT: 'R', SUBSCRIPTION: 'R', PLAN: 'R' });
        expect(body).not.toHaveProperty('MESSAGE');
      });

      it('gives the MANAGEMENT ADMIN every right', async () => {
        expect((await permissionsOn(admin)).json()).toEqual(everyRight('API'));
      });

      it('answers no rights to a user who is not a member', async () => {
        const res = await permissionsOn(plainUser.session);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({});
      });

      it('answers 404 for an unknown API', async () => {
        const res = await permissionsOn(admin, 'no-such-api');
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorBody(404, 'Api [no-such-api] can not be found.'));
      });
    });

    describe('GET applications/{application}/members/permissions', () => {
      let application: ApplicationRow;
      beforeAll(async () => {
        application = await createApplication(t.db);
      });
      const permissionsOn = (session: TestSession, applicationId = application.id) =>
        call(t.app, session, { method: 'GET', url: `/applications/${applicationId}/members/permissions` });

      it('answers the rights of the role on the application', async () => {
        const owner = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, owner.user.id, 'APPLICATION', application.id, 'OWNER');
        const res = await permissionsOn(owner.session);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ ...everyRight('APPLICATION'), DEFINITION: 'RU' });
      });

      it("gives a group member the group's APPLICATION role on the group's applications only", async () => {
        const group = await createGroup(t.db);
        const grouped = await createApplication(t.db, { groups: [group.id] });
        const member = await signInNewUser(t.app, t.db);
        await grantRoleThroughGroup(t.db, member.user.id, group.id, 'APPLICATION', 'USER');
        await grantRoleThroughGroup(t.db, member.user.id, group.id, 'API', 'OWNER');
        expect((await permissionsOn(member.session, grouped.id)).json()).toEqual({
          DEFINITION: 'R',
          MEMBER: 'R',
          ANALYTICS: 'R',
          LOG: 'R',
          SUBSCRIPTION: 'R',
        });
        expect((await permissionsOn(member.session)).json()).toEqual({});
      });

      it('gives the MANAGEMENT ADMIN every right', async () => {
        expect((await permissionsOn(admin)).json()).toEqual(everyRight('APPLICATION'));
      });

      it('answers 404 for an unknown application', async () => {
        const res = await permissionsOn(admin, 'no-such-app');
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorBody(404, 'Application [no-such-app] can not be found.'));
      });
    });
  });
}
