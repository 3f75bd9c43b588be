import { describe, expect, it } from 'vitest';
import { findApiKeysOfSubscription, findApplicationById, findSubscriptionById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { APPLICATION_DESCRIPTION_REQUIRED } from '@portico/model';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, createGroup, errorBody, invalidFieldBody } from '../../test-support/index.js';
import { grantRoleOn, grantRoleThroughGroup, signInNewUser } from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { CLIENT_ID_TAKEN, REGISTRATION_DISABLED } from './applications.service.js';
import type { AppJson, ApplicationCalls } from './test-support/application-calls.js';
import { useApplicationCallsApp } from './test-support/application-calls.js';

const countApplications = async (t: TestApp) =>
  Number(
    (
      await t.db
        .selectFrom('applications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

for (const dialect of await testDialects()) {
  describe(`${dialect}: application calls`, () => {
    let t: TestApp, u: ApiUsers, dev: SignedInUser, colleague: SignedInUser;
    let createApp: ApplicationCalls['createApp'], subscribe: ApplicationCalls['subscribe'];
    useApplicationCallsApp(dialect, (calls) => ({ t, u, dev, colleague, createApp, subscribe } = calls));

    it('documents the application calls in the OpenAPI document', async () => {
      const res = await call(t.app, undefined, { method: 'GET', url: '/openapi.json' });
      expect(Object.keys(res.json().paths)).toEqual(
        expect.arrayContaining([
          '/applications',
          '/applications/{application}',
          '/applications/{application}/subscribed',
          '/applications/{application}/subscriptions',
          '/applications/{application}/subscriptions/{subscription}',
          '/applications/{application}/subscriptions/{subscription}/keys',
          '/applications/{application}/subscriptions/{subscription}/keys/_renew',
          '/applications/{application}/subscriptions/{subscription}/keys/{key}',
          '/applications/{application}/members',
          '/applications/{application}/members/transfer_ownership',
        ]),
      );
    });

    describe('POST applications/', () => {
      it('creates a SIMPLE application owned by its creator', async () => {
        const app = await createApp(dev.session, {
          name: 'Dashboard',
          settings: { app: { type: 'web', client_id: `dash-${dialect}` } },
        });
        expect(app).toMatchObject({
          name: 'Dashboard',
          type: 'SIMPLE',
          status: 'ACTIVE',
          settings: { app: { type: 'web', client_id: `dash-${dialect}` } },
          owner: { id: dev.user.id, displayName: expect.stringContaining('Dev') },
        });
      });

      for (const [what, payload, expected] of [
        [
          'a missing description',
          { description: undefined },
          invalidFieldBody('description', APPLICATION_DESCRIPTION_REQUIRED),
        ],
        [
          'a client id over 300 characters',
          { settings: { app: { client_id: 'c'.repeat(301) } } },
          invalidFieldBody('settings.app.client_id', /300/),
        ],
        ['an unknown type', { type: 'SATELLITE' }, invalidFieldBody('type', /Invalid option/)],
        [
          'an OAuth type without client registration',
          { type: 'WEB' },
          invalidFieldBody('type', REGISTRATION_DISABLED),
        ],
        [
          'an unknown grant type',
          { settings: { oauth: { grant_types: ['magic'] } } },
          invalidFieldBody('settings.oauth.grant_types.0'),
        ],
      ] as const) {
        it(`refuses ${what} (400 naming the field) and stores nothing`, async () => {
          const before = await countApplications(t);
          const res = await call(t.app, dev.session, {
            method: 'POST',
            url: '/applications',
            payload: { name: 'Refused', description: 'x', ...(payload as Record<string, unknown>) },
          });
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json()).toEqual(expected);
          expect(await countApplications(t)).toBe(before);
        });
      }

      it('refuses a client id of another active application', async () => {
        await createApp(dev.session, { settings: { app: { client_id: `taken-${dialect}` } } });
        const res = await call(t.app, colleague.session, {
          method: 'POST',
          url: '/applications',
          payload: { name: 'Copy', description: 'x', settings: { app: { client_id: `taken-${dialect}` } } },
        });
        expect(res.json()).toEqual(
          invalidFieldBody('settings.app.client_id', CLIENT_ID_TAKEN(`taken-${dialect}`)),
        );
      });

      it('creates a WEB application with generated client credentials once client registration is enabled', async () => {
        const enable = await call(t.app, u.admin, {
          method: 'POST',
          url: '/portal',
          payload: { application: { registration: { enabled: true } } },
        });
        expect(enable.statusCode, enable.body).toBeLessThan(300);
        try {
          const app = await createApp(dev.session, {
            settings: { oauth: { application_type: 'WEB', redirect_uris: ['https://app.example/callback'] } },
          });
          expect(app.type).toBe('WEB');
          expect(app.settings.oauth).toMatchObject({
            client_id: expect.any(String),
            client_secret: expect.any(String),
            grant_types: ['authorization_code'],
            response_types: ['code'],
          });
        } finally {
          await call(t.app, u.admin, {
            method: 'POST',
            url: '/portal',
            payload: { application: { registration: { enabled: false } } },
          });
        }
      });

      it('refuses a user without portal-application-c nor management-application-c (403)', async () => {
        const noRights = await signInNewUser(t.app, t.db, { portal: 'NOBODY' });
        await t.db
          .insertInto('roles')
          .values({
            scope: 'PORTAL',
            name: 'NOBODY',
            description: 'no rights',
            is_default: 0,
            is_system: 0,
            permissions: '{}',
            created_at: 1,
            updated_at: 1,
          } as never)
          .execute()
          .catch(() => {});
        const before = await countApplications(t);
        const res = await call(t.app, noRights.session, {
          method: 'POST',
          url: '/applications',
          payload: { name: 'x', description: 'y' },
        });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(
          errorBody(403, 'You do not have the permission portal-application-c or management-application-c'),
        );
        expect(await countApplications(t)).toBe(before);
      });
    });

    describe('GET applications/', () => {
      it("lists the user's applications (direct or through a group), searchable; all for an administrator", async () => {
        const mine = await createApp(colleague.session, { name: 'Colleague solo' });
        const group = await createGroup(t.db);
        const shared = await createApp(dev.session, { name: 'Shared tool', groups: [group.id] });
        await grantRoleThroughGroup(t.db, colleague.user.id, group.id, 'APPLICATION', 'USER');
        const list = await call(t.app, colleague.session, { method: 'GET', url: '/applications/' });
        const ids = list.json().map((a: AppJson) => a.id);
        expect(ids).toEqual(expect.arrayContaining([mine.id, shared.id]));
        expect(list.json().find((a: AppJson) => a.id === shared.id).owner.id).toBe(dev.user.id);
        const searched = await call(t.app, colleague.session, {
          method: 'GET',
          url: '/applications?query=solo',
        });
        expect(searched.json().map((a: AppJson) => a.id)).toEqual([mine.id]);
        const byGroup = await call(t.app, colleague.session, {
          method: 'GET',
          url: `/applications?group=${group.id}`,
        });
        expect(byGroup.json().map((a: AppJson) => a.id)).toEqual([shared.id]);
        const all = await call(t.app, u.admin, { method: 'GET', url: '/applications' });
        expect(all.json().map((a: AppJson) => a.id)).toEqual(expect.arrayContaining([mine.id, shared.id]));
        expect(
          (await call(t.app, u.outsider.session, { method: 'GET', url: '/applications' })).json(),
        ).toEqual([]);
      });

      it('refuses a query over 200 characters naming the field, and anonymous callers', async () => {
        expect(
          (
            await call(t.app, dev.session, { method: 'GET', url: `/applications?query=${'q'.repeat(201)}` })
          ).json(),
        ).toEqual(invalidFieldBody('query'));
        expect((await call(t.app, undefined, { method: 'GET', url: '/applications' })).statusCode).toBe(401);
      });
    });

    describe('GET, PUT, DELETE applications/{id}', () => {
      it('reads, saves and deletes (archives) an application', async () => {
        const app = await createApp(dev.session);
        const read = await call(t.app, dev.session, { method: 'GET', url: `/applications/${app.id}` });
        expect(read.json()).toMatchObject({ id: app.id, name: 'My app' });
        const saved = await call(t.app, dev.session, {
          method: 'PUT',
          url: `/applications/${app.id}`,
          payload: {
            name: 'Renamed app',
            description: 'New',
            settings: { app: { client_id: `renamed-${dialect}` } },
          },
        });
        expect(saved.statusCode, saved.body).toBe(200);
        expect(saved.json()).toMatchObject({
          name: 'Renamed app',
          settings: { app: { client_id: `renamed-${dialect}` } },
        });
        const sub = await subscribe(dev.session, app.id);
        const deleted = await call(t.app, dev.session, { method: 'DELETE', url: `/applications/${app.id}` });
        expect(deleted.statusCode).toBe(204);
        expect((await findApplicationById(t.db, app.id))?.status).toBe('ARCHIVED');
        expect((await findSubscriptionById(t.db, sub.id))?.status).toBe('CLOSED');
        expect((await findApiKeysOfSubscription(t.db, sub.id)).every((k) => k.revoked === 1)).toBe(true);
        expect(
          (await call(t.app, dev.session, { method: 'GET', url: `/applications/${app.id}` })).statusCode,
        ).toBe(404);
      });

      it('refuses an empty name naming the field and stores nothing', async () => {
        const app = await createApp(dev.session);
        const res = await call(t.app, dev.session, {
          method: 'PUT',
          url: `/applications/${app.id}`,
          payload: { name: '' },
        });
        expect(res.json()).toEqual(invalidFieldBody('name', 'Name is required.'));
        expect((await findApplicationById(t.db, app.id))?.name).toBe('My app');
      });

      it('refuses users without application-definition-r/u/d (403)', async () => {
        const app = await createApp(dev.session);
        await grantRoleOn(t.db, colleague.user.id, 'APPLICATION', app.id, 'USER');
        expect(
          (await call(t.app, u.outsider.session, { method: 'GET', url: `/applications/${app.id}` })).json(),
        ).toEqual(errorBody(403, 'You do not have the permission application-definition-r'));
        expect(
          (
            await call(t.app, colleague.session, {
              method: 'PUT',
              url: `/applications/${app.id}`,
              payload: { name: 'Mine' },
            })
          ).json(),
        ).toEqual(errorBody(403, 'You do not have the permission application-definition-u'));
        expect(
          (await call(t.app, colleague.session, { method: 'DELETE', url: `/applications/${app.id}` })).json(),
        ).toEqual(errorBody(403, 'You do not have the permission application-definition-d'));
        expect(await findApplicationById(t.db, app.id)).toMatchObject({ name: 'My app', status: 'ACTIVE' });
      });
    });
  });
}
