import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findApiById, findApplicationById, findGroupById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  addMembership,
  call,
  createApi,
  createApplication,
  errorBody,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
  uniqueId,
} from '../../test-support/index.js';

const GROUPS = '/configuration/groups';
const countGroups = (t: TestApp) =>
  t.db
    .selectFrom('groups')
    .select('id')
    .execute()
    .then((r) => r.length);

for (const dialect of await testDialects()) {
  describe(`${dialect}: configuration/groups`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());

    const create = async (body: object = {}, session = admin) =>
      call(t.app, session, { method: 'POST', url: GROUPS, payload: { name: uniqueId('group'), ...body } });
    const makeAdminOf = (userId: string, groupId: string) =>
      addMembership(t.db, {
        memberId: userId,
        referenceType: 'GROUP',
        referenceId: groupId,
        roleScope: 'GROUP',
        roleName: 'ADMIN',
      });

    describe('POST configuration/groups', () => {
      it('creates a group with its default roles, event rules and options', async () => {
        const res = await create({
          name: 'Partners',
          roles: { API: 'OWNER', APPLICATION: 'USER' },
          event_rules: [{ event: 'API_CREATE' }, { event: 'API_CREATE' }],
          max_invitation: 10,
          lock_api_role: true,
          system_invitation: true,
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          name: 'Partners',
          roles: { API: 'OWNER', APPLICATION: 'USER' },
          event_rules: [{ event: 'API_CREATE' }],
          max_invitation: 10,
          lock_api_role: true,
          lock_application_role: false,
          system_invitation: true,
          email_invitation: false,
          manageable: true,
        });
        const row = await findGroupById(t.db, res.json().id);
        expect(row).toMatchObject({
          name: 'Partners',
          api_role: 'OWNER',
          max_invitation: 10,
          lock_api_role: 1,
        });
      });

      it.each([
        [{ name: '' }, 'name', /Group name is required/],
        [{ name: 'x'.repeat(51) }, 'name', /less than 50 characters/],
        [{ max_invitation: 100000 }, 'max_invitation', undefined],
        [{ max_invitation: -1 }, 'max_invitation', undefined],
        [{ event_rules: [{ event: 'PLAN_CREATE' }] }, 'event_rules.0.event', undefined],
        [{ roles: { API: 'NO_SUCH_ROLE' } }, 'roles.API', /does not exist/],
        [{ roles: { APPLICATION: 'PRIMARY_OWNER' } }, 'roles.APPLICATION', /system role/],
      ])('refuses %j naming the field, storing nothing', async (body, field, reason) => {
        const before = await countGroups(t);
        const res = await create(body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody(field, reason));
        expect(await countGroups(t)).toBe(before);
      });

      it('refuses a name another group has (any case)', async () => {
        const name = uniqueId('Taken');
        await create({ name });
        const res = await create({ name: name.toUpperCase() });
        expect(res.json()).toEqual(invalidFieldBody('name', /already exists/));
      });

      it('is refused without management-group-c, storing nothing', async () => {
        const user = await signInNewUser(t.app, t.db);
        const before = await countGroups(t);
        const res = await create({}, user.session);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-group-c'));
        expect(await countGroups(t)).toBe(before);
      });
    });

    describe('GET configuration/groups', () => {
      it('lists every group, manageable for the super admin and for the ADMIN members of a group only', async () => {
        const mine = (await create()).json();
        const other = (await create()).json();
        const user = await signInNewUser(t.app, t.db);
        await makeAdminOf(user.user.id, mine.id);

        const asAdmin = (await call(t.app, admin, { method: 'GET', url: GROUPS })).json();
        const asUser = (await call(t.app, user.session, { method: 'GET', url: GROUPS })).json();

        expect(asAdmin.find((g: { id: string }) => g.id === other.id).manageable).toBe(true);
        const byId = new Map(asUser.map((g: { id: string; manageable: boolean }) => [g.id, g.manageable]));
        expect(byId.get(mine.id)).toBe(true);
        expect(byId.get(other.id)).toBe(false);
        expect(
          (await call(t.app, user.session, { method: 'GET', url: `${GROUPS}/${mine.id}` })).json(),
        ).toMatchObject({
          id: mine.id,
          manageable: true,
        });
      });

      it('answers 404 for an unknown group', async () => {
        const res = await call(t.app, admin, { method: 'GET', url: `${GROUPS}/nope` });
        expect(res.statusCode).toBe(404);
      });
    });

    describe('PUT configuration/groups/{id}', () => {
      it('lets the super admin change everything', async () => {
        const g = (await create()).json();
        const res = await call(t.app, admin, {
          method: 'PUT',
          url: `${GROUPS}/${g.id}`,
          payload: {
            name: `${g.name}-2`,
            max_invitation: 3,
            email_invitation: true,
            roles: { API: 'REVIEWER' },
          },
        });
        expect(res.statusCode).toBe(200);
        expect(await findGroupById(t.db, g.id)).toMatchObject({
          name: `${g.name}-2`,
          max_invitation: 3,
          email_invitation: 1,
          api_role: 'REVIEWER',
        });
      });

      it('keeps options, max members and locked default roles as they are when a group ADMIN saves', async () => {
        const g = (
          await create({
            roles: { API: 'USER', APPLICATION: 'USER' },
            lock_api_role: true,
            max_invitation: 2,
          })
        ).json();
        const groupAdmin = await signInNewUser(t.app, t.db);
        await makeAdminOf(groupAdmin.user.id, g.id);

        const res = await call(t.app, groupAdmin.session, {
          method: 'PUT',
          url: `${GROUPS}/${g.id}`,
          payload: {
            name: `${g.name}-renamed`,
            roles: { API: 'OWNER', APPLICATION: 'OWNER' },
            max_invitation: 500,
            lock_api_role: false,
            email_invitation: true,
          },
        });
        expect(res.statusCode).toBe(200);
        expect(await findGroupById(t.db, g.id)).toMatchObject({
          name: `${g.name}-renamed`,
          api_role: 'USER',
          application_role: 'OWNER',
          max_invitation: 2,
          lock_api_role: 1,
          email_invitation: 0,
        });
      });

      it('is refused to a user who is not an ADMIN of the group, changing nothing', async () => {
        const g = (await create()).json();
        const user = await signInNewUser(t.app, t.db);
        const res = await call(t.app, user.session, {
          method: 'PUT',
          url: `${GROUPS}/${g.id}`,
          payload: { name: 'stolen' },
        });
        expect(res.statusCode).toBe(403);
        expect((await findGroupById(t.db, g.id))!.name).toBe(g.name);
      });

      it('refuses a bad name naming the field, changing nothing', async () => {
        const g = (await create()).json();
        const res = await call(t.app, admin, {
          method: 'PUT',
          url: `${GROUPS}/${g.id}`,
          payload: { name: ' ' },
        });
        expect(res.json()).toEqual(invalidFieldBody('name', /Group name is required/));
        expect((await findGroupById(t.db, g.id))!.name).toBe(g.name);
      });
    });

    describe('associate to all and dependents', () => {
      it('attaches the group to every existing API or application, which then list it', async () => {
        const g = (await create()).json();
        const api = await createApi(t.db);
        const app = await createApplication(t.db);

        const res = await call(t.app, admin, {
          method: 'POST',
          url: `${GROUPS}/${g.id}/memberships?type=api`,
        });
        expect(res.statusCode).toBe(200);
        expect(JSON.parse((await findApiById(t.db, api.id))!.groups)).toContain(g.id);
        expect(JSON.parse((await findApplicationById(t.db, app.id))!.groups)).not.toContain(g.id);
        await call(t.app, admin, { method: 'POST', url: `${GROUPS}/${g.id}/memberships?type=application` });
        expect(JSON.parse((await findApplicationById(t.db, app.id))!.groups)).toContain(g.id);

        const apis = (
          await call(t.app, admin, { method: 'GET', url: `${GROUPS}/${g.id}/memberships?type=api` })
        ).json();
        expect(apis.map((a: { id: string }) => a.id)).toContain(api.id);
        const apps = (
          await call(t.app, admin, { method: 'GET', url: `${GROUPS}/${g.id}/memberships?type=application` })
        ).json();
        expect(apps.map((a: { id: string }) => a.id)).toContain(app.id);
      });

      it('refuses an unknown type naming it, and a user without management-group-u', async () => {
        const g = (await create()).json();
        const api = await createApi(t.db);
        const bad = await call(t.app, admin, {
          method: 'POST',
          url: `${GROUPS}/${g.id}/memberships?type=plan`,
        });
        expect(bad.json()).toEqual(invalidFieldBody('type'));
        const user = await signInNewUser(t.app, t.db);
        await makeAdminOf(user.user.id, g.id);
        const res = await call(t.app, user.session, {
          method: 'POST',
          url: `${GROUPS}/${g.id}/memberships?type=api`,
        });
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-group-u'));
        expect(JSON.parse((await findApiById(t.db, api.id))!.groups)).not.toContain(g.id);
      });
    });

    describe('DELETE configuration/groups/{id}', () => {
      it('deletes the group, its members and its place on APIs and applications', async () => {
        const g = (await create()).json();
        const api = await createApi(t.db, { groups: [g.id] });
        const app = await createApplication(t.db, { groups: [g.id] });
        const user = await signInNewUser(t.app, t.db);
        await makeAdminOf(user.user.id, g.id);

        const res = await call(t.app, admin, { method: 'DELETE', url: `${GROUPS}/${g.id}` });
        expect(res.statusCode).toBe(204);
        expect(await findGroupById(t.db, g.id)).toBeUndefined();
        expect(JSON.parse((await findApiById(t.db, api.id))!.groups)).toEqual([]);
        expect(JSON.parse((await findApplicationById(t.db, app.id))!.groups)).toEqual([]);
        const left = await t.db
          .selectFrom('memberships')
          .select('id')
          .where('reference_id', '=', g.id)
          .execute();
        expect(left).toEqual([]);
      });

      it('is refused without management-group-d, even to the group ADMIN', async () => {
        const g = (await create()).json();
        const user = await signInNewUser(t.app, t.db);
        await makeAdminOf(user.user.id, g.id);
        const res = await call(t.app, user.session, { method: 'DELETE', url: `${GROUPS}/${g.id}` });
        expect(res.statusCode).toBe(403);
        expect(await findGroupById(t.db, g.id)).toBeDefined();
      });
    });

    describe('groups on APIs and applications', () => {
      it('attaches a new API to the groups with the API_CREATE rule, whose members then see it in GET apis', async () => {
        const ruled = (await create({ event_rules: [{ event: 'API_CREATE' }] })).json();
        const plain = (await create()).json();
        const member = await signInNewUser(t.app, t.db);
        await addMembership(t.db, {
          memberId: member.user.id,
          referenceType: 'GROUP',
          referenceId: ruled.id,
          roleScope: 'API',
          roleName: 'USER',
        });
        const before = (await call(t.app, member.session, { method: 'GET', url: '/apis' })).json();

        const res = await call(t.app, admin, {
          method: 'POST',
          url: '/apis',
          payload: {
            name: 'Grouped',
            version: '1',
            description: 'd',
            context_path: `/${uniqueId('grouped')}`,
            endpoint: 'https://grouped.example.com',
          },
        });
        expect(res.statusCode).toBe(201);
        const groups = JSON.parse((await findApiById(t.db, res.json().id))!.groups);
        expect(groups).toContain(ruled.id);
        expect(groups).not.toContain(plain.id);

        const after = (await call(t.app, member.session, { method: 'GET', url: '/apis' })).json();
        const ids = (list: { id: string }[]) => list.map((a) => a.id);
        expect(ids(before)).not.toContain(res.json().id);
        expect(ids(after)).toContain(res.json().id);
      });

      it('attaches a new application to the groups with the APPLICATION_CREATE rule', async () => {
        const ruled = (await create({ event_rules: [{ event: 'APPLICATION_CREATE' }] })).json();
        const res = await call(t.app, admin, {
          method: 'POST',
          url: '/applications',
          payload: { name: uniqueId('app'), description: 'd' },
        });
        expect(res.statusCode).toBe(201);
        expect(JSON.parse((await findApplicationById(t.db, res.json().id))!.groups)).toContain(ruled.id);
      });
    });
  });
}
