import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMembershipsOfMember, findRole } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createUser,
  errorBody,
  grantRoleOn,
  createApi,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
  uniqueId,
} from '../../test-support/index.js';

const roles = (scope: string) => `/configuration/rolescopes/${scope}/roles`;

for (const dialect of await testDialects()) {
  describe(`${dialect}: roles administration`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());

    const create = (body: object, scope = 'API', session = admin) =>
      call(t.app, session, { method: 'POST', url: roles(scope), payload: body });
    const roleOf = (scope: string, name: string) => findRole(t.db, scope, name);

    describe('POST configuration/rolescopes/{scope}/roles', () => {
      it('creates a role with its permissions; the name is upper-cased with underscores', async () => {
        const res = await create({
          name: 'Api  tester',
          description: 'Tests',
          permissions: { PLAN: ['R', 'C'], LOG: [] },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({
          name: 'API_TESTER',
          scope: 'API',
          description: 'Tests',
          default: false,
          system: false,
          permissions: { PLAN: ['C', 'R'] },
        });
        expect(await roleOf('API', 'API_TESTER')).toMatchObject({ is_default: 0, is_system: 0 });
      });

      it('makes a new default role the only default of its scope', async () => {
        const res = await create({ name: 'new default app', default: true }, 'APPLICATION');
        expect(res.statusCode).toBe(201);
        expect((await roleOf('APPLICATION', 'NEW_DEFAULT_APP'))!.is_default).toBe(1);
        expect((await roleOf('APPLICATION', 'USER'))!.is_default).toBe(0);
        // Put it back: other tests of this file read the default role.
        await call(t.app, admin, {
          method: 'PUT',
          url: `${roles('APPLICATION')}/USER`,
          payload: { default: true },
        });
        expect((await roleOf('APPLICATION', 'USER'))!.is_default).toBe(1);
        expect((await roleOf('APPLICATION', 'NEW_DEFAULT_APP'))!.is_default).toBe(0);
      });

      it('refuses a missing name, naming the field, and stores nothing', async () => {
        const before = await t.db.selectFrom('roles').select('name').execute();
        for (const body of [{}, { name: '   ' }, { name: 42 }]) {
          const res = await create(body);
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody('name'));
        }
        expect(await t.db.selectFrom('roles').select('name').execute()).toEqual(before);
      });

      it('refuses a permission the scope does not have, or an unknown right, storing nothing', async () => {
        const a = await create({ name: 'bad perm', permissions: { INSTANCE: ['R'] } });
        expect(a.statusCode).toBe(400);
        expect(a.json()).toEqual(invalidFieldBody('permissions', /INSTANCE is not a permission of API/));
        const b = await create({ name: 'bad right', permissions: { PLAN: ['X'] } });
        expect(b.statusCode).toBe(400);
        expect(b.json().message).toMatch(/permissions/);
        expect(await roleOf('API', 'BAD_PERM')).toBeUndefined();
        expect(await roleOf('API', 'BAD_RIGHT')).toBeUndefined();
      });

      it('refuses a name taken in the scope, and a GROUP role', async () => {
        const taken = await create({ name: 'owner' });
        expect(taken.statusCode).toBe(400);
        expect(taken.json()).toEqual(errorBody(400, 'Role [API:OWNER] already exists', 'name'));
        const group = await create({ name: 'group thing' }, 'GROUP');
        expect(group.statusCode).toBe(400);
        expect(group.json()).toEqual(invalidFieldBody('scope'));
        expect(await roleOf('GROUP', 'GROUP_THING')).toBeUndefined();
      });

      it('is refused without management-role-c, storing nothing', async () => {
        const publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
        const res = await create({ name: 'sneaky' }, 'API', publisher.session);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-role-c'));
        expect(await roleOf('API', 'SNEAKY')).toBeUndefined();
      });
    });

    describe('PUT configuration/rolescopes/{scope}/roles/{role}', () => {
      it('changes the description and permissions, and audits ROLE_UPDATED', async () => {
        await create({ name: 'editable', permissions: { PLAN: ['R'] } });
        const res = await call(t.app, admin, {
          method: 'PUT',
          url: `${roles('API')}/EDITABLE`,
          payload: {
            name: 'EDITABLE',
            description: 'Now',
            permissions: { PLAN: ['C', 'R', 'U', 'D'], LOG: ['R'] },
          },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          description: 'Now',
          permissions: { PLAN: ['C', 'R', 'U', 'D'], LOG: ['R'] },
        });
        expect(JSON.parse((await roleOf('API', 'EDITABLE'))!.permissions)).toEqual({
          PLAN: ['C', 'R', 'U', 'D'],
          LOG: ['R'],
        });
        const audit = await t.db
          .selectFrom('audits')
          .selectAll()
          .where('event', '=', 'ROLE_UPDATED')
          .execute();
        expect(audit.some((a) => JSON.parse(a.properties).ROLE === 'API:EDITABLE')).toBe(true);
      });

      it('refuses to change a system role, which stays as it was', async () => {
        const before = await roleOf('MANAGEMENT', 'ADMIN');
        const res = await call(t.app, admin, {
          method: 'PUT',
          url: `${roles('MANAGEMENT')}/ADMIN`,
          payload: { permissions: { INSTANCE: ['R'] } },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/system role can not be changed/);
        expect(await roleOf('MANAGEMENT', 'ADMIN')).toEqual(before);
      });

      it('refuses to take the default flag off the default role, naming the field', async () => {
        const res = await call(t.app, admin, {
          method: 'PUT',
          url: `${roles('PORTAL')}/USER`,
          payload: { default: false },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('default'));
        expect((await roleOf('PORTAL', 'USER'))!.is_default).toBe(1);
      });

      it('refuses bad permissions, naming the field, and answers 404 for an unknown role', async () => {
        const bad = await call(t.app, admin, {
          method: 'PUT',
          url: `${roles('API')}/OWNER`,
          payload: { permissions: { NOPE: ['R'] } },
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json()).toEqual(invalidFieldBody('permissions'));
        const missing = await call(t.app, admin, {
          method: 'PUT',
          url: `${roles('API')}/GHOST`,
          payload: {},
        });
        expect(missing.statusCode).toBe(404);
      });

      it('is refused without management-role-u', async () => {
        const publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
        const before = await roleOf('API', 'USER');
        const res = await call(t.app, publisher.session, {
          method: 'PUT',
          url: `${roles('API')}/USER`,
          payload: { permissions: {} },
        });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-role-u'));
        expect(await roleOf('API', 'USER')).toEqual(before);
      });
    });

    describe('DELETE configuration/rolescopes/{scope}/roles/{role}', () => {
      it("deletes a role; whoever held it gets the scope's default role", async () => {
        await create({ name: 'doomed' });
        const member = await createUser(t.db);
        const api = await createApi(t.db);
        await grantRoleOn(t.db, member.id, 'API', api.id, 'DOOMED');
        const res = await call(t.app, admin, { method: 'DELETE', url: `${roles('API')}/DOOMED` });
        expect(res.statusCode).toBe(204);
        expect(await roleOf('API', 'DOOMED')).toBeUndefined();
        const [membership] = await findMembershipsOfMember(t.db, 'USER', member.id);
        expect(membership).toMatchObject({ reference_id: api.id, role_name: 'USER' });
      });

      it('refuses to delete a system or a default role', async () => {
        for (const [scope, name] of [
          ['MANAGEMENT', 'ADMIN'],
          ['API', 'PRIMARY_OWNER'],
          ['MANAGEMENT', 'USER'],
        ]) {
          const res = await call(t.app, admin, { method: 'DELETE', url: `${roles(scope!)}/${name}` });
          expect(res.statusCode).toBe(400);
          expect(res.json().message).toMatch(/system and default roles can not be deleted/);
          expect(await roleOf(scope!, name!)).toBeDefined();
        }
      });

      it('is refused without management-role-d', async () => {
        await create({ name: 'kept' });
        const publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
        const res = await call(t.app, publisher.session, { method: 'DELETE', url: `${roles('API')}/KEPT` });
        expect(res.statusCode).toBe(403);
        expect(await roleOf('API', 'KEPT')).toBeDefined();
      });
    });

    describe('role members (MANAGEMENT and PORTAL)', () => {
      const members = (scope: string, role: string) => `${roles(scope)}/${role}/users`;

      it('lets an administrator make another user an administrator, who then administers', async () => {
        const other = await signInNewUser(t.app, t.db, {}, { firstname: 'Zed', lastname: 'Second' });
        const before = await call(t.app, other.session, { method: 'GET', url: '/configuration/rolescopes' });
        expect(before.statusCode).toBe(403);

        const res = await call(t.app, admin, {
          method: 'POST',
          url: members('MANAGEMENT', 'ADMIN'),
          payload: { id: other.user.id, reference: other.user.id },
        });
        expect(res.statusCode).toBe(201);
        const list = await call(t.app, admin, { method: 'GET', url: members('MANAGEMENT', 'ADMIN') });
        expect(list.json()).toEqual(
          expect.arrayContaining([
            {
              id: other.user.id,
              reference: other.user.id,
              displayName: 'Zed Second',
              username: other.user.source_id,
            },
          ]),
        );
        const after = await call(t.app, other.session, { method: 'GET', url: '/configuration/rolescopes' });
        expect(after.statusCode).toBe(200);
        const user = await call(t.app, admin, { method: 'GET', url: `/users/${other.user.id}` });
        expect(user.json().roles).toEqual(expect.arrayContaining([{ scope: 'MANAGEMENT', name: 'ADMIN' }]));
      });

      it("replaces the user's role of the scope, and removing it gives back the default role", async () => {
        const u = await createUser(t.db);
        await call(t.app, admin, { method: 'POST', url: members('PORTAL', 'ADMIN'), payload: { id: u.id } });
        const res = await call(t.app, admin, {
          method: 'POST',
          url: members('PORTAL', 'USER'),
          payload: { reference: u.id },
        });
        expect(res.statusCode).toBe(201);
        const portal = (await findMembershipsOfMember(t.db, 'USER', u.id)).filter(
          (m) => m.role_scope === 'PORTAL',
        );
        expect(portal.map((m) => m.role_name)).toEqual(['USER']);
        const removed = await call(t.app, admin, {
          method: 'DELETE',
          url: `${members('PORTAL', 'USER')}/${u.id}`,
        });
        expect(removed.statusCode).toBe(204);
        expect(await findMembershipsOfMember(t.db, 'USER', u.id)).toEqual([]);
        const again = await call(t.app, admin, {
          method: 'DELETE',
          url: `${members('PORTAL', 'USER')}/${u.id}`,
        });
        expect(again.statusCode).toBe(404);
      });

      it('refuses an unknown user or no user, naming the field, and API roles, storing nothing', async () => {
        const unknown = await call(t.app, admin, {
          method: 'POST',
          url: members('MANAGEMENT', 'ADMIN'),
          payload: { id: uniqueId('ghost') },
        });
        expect(unknown.statusCode).toBe(400);
        expect(unknown.json()).toEqual(invalidFieldBody('id'));
        const none = await call(t.app, admin, {
          method: 'POST',
          url: members('MANAGEMENT', 'ADMIN'),
          payload: {},
        });
        expect(none.statusCode).toBe(400);
        expect(none.json()).toEqual(invalidFieldBody('id'));
        const u = await createUser(t.db);
        const api = await call(t.app, admin, {
          method: 'POST',
          url: members('API', 'OWNER'),
          payload: { id: u.id },
        });
        expect(api.statusCode).toBe(400);
        expect(api.json()).toEqual(invalidFieldBody('scope'));
        const role = await call(t.app, admin, {
          method: 'POST',
          url: members('MANAGEMENT', 'GHOST'),
          payload: { id: u.id },
        });
        expect(role.statusCode).toBe(404);
        expect(await findMembershipsOfMember(t.db, 'USER', u.id)).toEqual([]);
      });

      it('never removes the last administrator', async () => {
        const admins = await call(t.app, admin, { method: 'GET', url: members('MANAGEMENT', 'ADMIN') });
        const ids = admins.json<{ id: string }[]>().map((m) => m.id);
        for (const id of ids.slice(1)) {
          expect(
            (await call(t.app, admin, { method: 'DELETE', url: `${members('MANAGEMENT', 'ADMIN')}/${id}` }))
              .statusCode,
          ).toBe(204);
        }
        const last = await call(t.app, admin, {
          method: 'DELETE',
          url: `${members('MANAGEMENT', 'ADMIN')}/${ids[0]}`,
        });
        expect(last.statusCode).toBe(400);
        expect(last.json().message).toBe('the platform needs at least one administrator');
      });

      it('needs management-role-r to list, -c and -u to give, -d to take', async () => {
        const publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' }); // ROLE: R only
        const u = await createUser(t.db);
        expect(
          (await call(t.app, publisher.session, { method: 'GET', url: members('MANAGEMENT', 'ADMIN') }))
            .statusCode,
        ).toBe(200);
        const plain = await signInNewUser(t.app, t.db);
        const list = await call(t.app, plain.session, { method: 'GET', url: members('MANAGEMENT', 'ADMIN') });
        expect(list.statusCode).toBe(403);
        expect(list.json()).toEqual(errorBody(403, 'You do not have the permission management-role-r'));
        const give = await call(t.app, publisher.session, {
          method: 'POST',
          url: members('MANAGEMENT', 'ADMIN'),
          payload: { id: publisher.user.id },
        });
        expect(give.statusCode).toBe(403);
        expect(give.json()).toEqual(errorBody(403, 'You do not have the permission management-role-c'));
        await call(t.app, admin, { method: 'POST', url: members('PORTAL', 'ADMIN'), payload: { id: u.id } });
        const take = await call(t.app, publisher.session, {
          method: 'DELETE',
          url: `${members('PORTAL', 'ADMIN')}/${u.id}`,
        });
        expect(take.statusCode).toBe(403);
        expect(take.json()).toEqual(errorBody(403, 'You do not have the permission management-role-d'));
        const roles = await findMembershipsOfMember(t.db, 'USER', publisher.user.id);
        expect(roles.map((m) => m.role_name)).toEqual(['API_PUBLISHER']);
        expect((await findMembershipsOfMember(t.db, 'USER', u.id)).map((m) => m.role_name)).toEqual([
          'ADMIN',
        ]);
      });
    });
  });
}
