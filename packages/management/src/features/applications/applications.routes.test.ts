import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findApiKey,
  findApiKeysOfSubscription,
  findApplicationById,
  findMembershipsOfReference,
  findSubscriptionById,
  findSubscriptions,
} from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { APPLICATION_DESCRIPTION_REQUIRED } from '@portico/model';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createGroup,
  errorBody,
  invalidFieldBody,
  grantRoleOn,
  grantRoleThroughGroup,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import { apiUsers, createApiAs } from '../apis/test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import {
  CLIENT_ID_REQUIRED,
  COMMENT_REQUIRED,
  NOT_CLOSABLE_BY_APPLICATION,
} from '../subscriptions/subscriptions.errors.js';
import { APP_PRIMARY_OWNER_UNREMOVABLE, APP_TRANSFER_OWNER_ONLY } from './application-members.service.js';
import { CLIENT_ID_TAKEN, REGISTRATION_DISABLED } from './applications.service.js';

const countApplications = async (t: TestApp) =>
  Number(
    (
      await t.db
        .selectFrom('applications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

interface AppJson {
  id: string;
  name: string;
  type: string;
  settings: { app?: { client_id: string | null }; oauth?: { client_id: string; client_secret: string } };
  owner: { id: string; displayName: string } | null;
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: application calls`, () => {
    let t: TestApp;
    let u: ApiUsers;
    let dev: SignedInUser;
    let colleague: SignedInUser;
    let apiId: string;
    let plan: string;
    let autoPlan: string;
    let commentPlan: string;
    let jwtPlan: string;

    const createApp = async (session: TestSession, payload: Record<string, unknown> = {}) => {
      const res = await call(t.app, session, {
        method: 'POST',
        url: '/applications/',
        payload: { name: 'My app', description: 'Does things', ...payload },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<AppJson>();
    };
    const newPlan = async (payload: Record<string, unknown>) => {
      const res = await call(t.app, u.publisher.session, {
        method: 'POST',
        url: `/apis/${apiId}/plans`,
        payload: { name: 'A plan', description: 'x', security: 'API_KEY', ...payload },
      });
      const id = res.json<{ id: string }>().id;
      await call(t.app, u.publisher.session, { method: 'POST', url: `/apis/${apiId}/plans/${id}/_publish` });
      return id;
    };
    const subscribe = async (
      session: TestSession,
      application: string,
      planId = autoPlan,
      payload?: Record<string, unknown>,
    ) => {
      const res = await call(t.app, session, {
        method: 'POST',
        url: `/applications/${application}/subscriptions/?plan=${planId}`,
        ...(payload === undefined ? {} : { payload }),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string; status: string }>();
    };

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
      dev = await signInNewUser(t.app, t.db, {}, { firstname: 'Dev' });
      colleague = await signInNewUser(t.app, t.db, {}, { firstname: 'Colleague' });
      apiId = (await createApiAs(t, u.publisher.session, { name: 'Weather' })).id;
      await call(t.app, u.publisher.session, {
        method: 'PUT',
        url: `/apis/${apiId}`,
        payload: { visibility: 'PUBLIC' },
      });
      plan = await newPlan({ name: 'Manual' });
      autoPlan = await newPlan({ name: 'Auto', validation: 'AUTO' });
      commentPlan = await newPlan({
        name: 'Commented',
        comment_required: true,
        comment_message: 'Your use case?',
      });
      jwtPlan = await newPlan({
        name: 'Token',
        security: 'JWT',
        securityDefinition: {
          signature: 'HMAC_HS256',
          resolverParameter: 'a-very-secret-hmac-key-of-32-chars',
        },
      });
    });
    afterAll(() => t?.close());

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

    describe('subscriptions of an application', () => {
      it('subscribes with a message, lists, reads, tells the subscribed APIs, and closes', async () => {
        const app = await createApp(dev.session);
        const pending = await subscribe(dev.session, app.id, plan, { request: 'We need weather' });
        expect(pending.status).toBe('PENDING');
        const auto = await subscribe(dev.session, app.id, autoPlan);
        expect(auto.status).toBe('ACCEPTED');

        const list = await call(t.app, dev.session, {
          method: 'GET',
          url: `/applications/${app.id}/subscriptions`,
        });
        expect(
          list
            .json()
            .data.map((s: { id: string }) => s.id)
            .sort(),
        ).toEqual([pending.id, auto.id].sort());
        expect(list.json().metadata[apiId]).toMatchObject({ name: 'Weather' });
        const filtered = await call(t.app, dev.session, {
          method: 'GET',
          url: `/applications/${app.id}/subscriptions?status=pending&api=${apiId}`,
        });
        expect(filtered.json().data.map((s: { id: string }) => s.id)).toEqual([pending.id]);

        const detail = await call(t.app, dev.session, {
          method: 'GET',
          url: `/applications/${app.id}/subscriptions/${pending.id}`,
        });
        expect(detail.json()).toMatchObject({
          id: pending.id,
          request: 'We need weather',
          api: { id: apiId, name: 'Weather' },
          plan: { name: 'Manual', security: 'API_KEY' },
          subscribed_by: { displayName: expect.stringContaining('Dev') },
        });
        const subscribed = await call(t.app, dev.session, {
          method: 'GET',
          url: `/applications/${app.id}/subscribed`,
        });
        expect(subscribed.json()).toEqual([{ id: apiId, name: 'Weather', version: '1.0' }]);

        const closed = await call(t.app, dev.session, {
          method: 'DELETE',
          url: `/applications/${app.id}/subscriptions/${pending.id}`,
        });
        expect(closed.statusCode).toBe(200);
        expect(closed.json()).toMatchObject({
          id: pending.id,
          status: 'CLOSED',
          closed_at: expect.any(Number),
        });
        const again = await call(t.app, dev.session, {
          method: 'DELETE',
          url: `/applications/${app.id}/subscriptions/${pending.id}`,
        });
        expect(again.json()).toEqual(errorBody(400, NOT_CLOSABLE_BY_APPLICATION));
      });

      it('refuses a missing comment, a message over 150, a JWT plan without client id, naming the field', async () => {
        const app = await createApp(dev.session);
        const post = (planId: string, payload?: Record<string, unknown>) =>
          call(t.app, dev.session, {
            method: 'POST',
            url: `/applications/${app.id}/subscriptions?plan=${planId}`,
            ...(payload === undefined ? {} : { payload }),
          });
        expect((await post(commentPlan)).json()).toEqual(
          errorBody(400, COMMENT_REQUIRED('Your use case?'), 'request'),
        );
        expect((await post(plan, { request: 'x'.repeat(151) })).json()).toEqual(
          invalidFieldBody('request', /150/),
        );
        expect((await post(jwtPlan)).json()).toEqual(errorBody(400, CLIENT_ID_REQUIRED, 'application'));
        expect(
          (
            await call(t.app, dev.session, { method: 'POST', url: `/applications/${app.id}/subscriptions` })
          ).json(),
        ).toEqual(invalidFieldBody('plan', 'is required'));
        expect(await findSubscriptions(t.db, { applicationIds: [app.id] })).toEqual([]);
      });

      it('renews and revokes keys from the application side', async () => {
        const app = await createApp(dev.session);
        const s = await subscribe(dev.session, app.id);
        const base = `/applications/${app.id}/subscriptions/${s.id}`;
        const keys = await call(t.app, dev.session, { method: 'GET', url: `${base}/keys` });
        expect(keys.json()).toHaveLength(1);
        const first = keys.json()[0].key as string;
        const renewed = await call(t.app, dev.session, { method: 'POST', url: `${base}/keys/_renew` });
        expect(renewed.statusCode).toBe(201);
        const renewedAgain = await call(t.app, dev.session, { method: 'POST', url: base });
        expect(renewedAgain.statusCode).toBe(201);
        expect((await call(t.app, dev.session, { method: 'GET', url: `${base}/keys` })).json()).toHaveLength(
          3,
        );
        expect(
          (await call(t.app, dev.session, { method: 'DELETE', url: `${base}/keys/${first}` })).statusCode,
        ).toBe(204);
        expect((await findApiKey(t.db, first))?.revoked).toBe(1);
      });

      it('refuses users without the application subscription permissions (403), and changes nothing', async () => {
        const app = await createApp(dev.session);
        const s = await subscribe(dev.session, app.id);
        await grantRoleOn(t.db, colleague.user.id, 'APPLICATION', app.id, 'USER');
        const base = `/applications/${app.id}/subscriptions/${s.id}`;
        for (const [request, permission] of [
          [
            { method: 'POST', url: `/applications/${app.id}/subscriptions?plan=${plan}` },
            'application-subscription-c',
          ],
          [{ method: 'DELETE', url: base }, 'application-subscription-d'],
          [{ method: 'POST', url: `${base}/keys/_renew` }, 'application-subscription-u'],
          [{ method: 'DELETE', url: `${base}/keys/whatever` }, 'application-subscription-d'],
        ] as const) {
          const res = await call(t.app, colleague.session, request);
          expect(res.json()).toEqual(errorBody(403, `You do not have the permission ${permission}`));
        }
        for (const url of [
          `/applications/${app.id}/subscriptions`,
          base,
          `${base}/keys`,
          `/applications/${app.id}/subscribed`,
        ])
          expect((await call(t.app, u.outsider.session, { method: 'GET', url })).statusCode).toBe(403);
        expect(await findSubscriptions(t.db, { applicationIds: [app.id] })).toHaveLength(1);
        expect((await findSubscriptionById(t.db, s.id))?.status).toBe('ACCEPTED');
        expect(await findApiKeysOfSubscription(t.db, s.id)).toHaveLength(1);
      });

      it('refuses plans the user may not see: of a private API, or excluded for their group', async () => {
        const app = await createApp(dev.session);
        const hidden = (await createApiAs(t, u.publisher.session, { name: 'Hidden' })).id;
        const hiddenPlan = (
          await call(t.app, u.publisher.session, {
            method: 'POST',
            url: `/apis/${hidden}/plans`,
            payload: { name: 'Secret', description: 'x', security: 'API_KEY', status: 'PUBLISHED' },
          })
        ).json<{ id: string }>().id;
        const group = await createGroup(t.db);
        await grantRoleThroughGroup(t.db, dev.user.id, group.id, 'APPLICATION', 'USER');
        const excluded = await newPlan({ name: 'Not for them', excluded_groups: [group.id] });
        for (const planId of [hiddenPlan, excluded]) {
          const res = await call(t.app, dev.session, {
            method: 'POST',
            url: `/applications/${app.id}/subscriptions?plan=${planId}`,
          });
          expect(res.json()).toEqual(errorBody(400, `The plan [${planId}] can not be found.`, 'plan'));
        }
        expect(await findSubscriptions(t.db, { applicationIds: [app.id] })).toEqual([]);
      });

      it('refuses an unknown status filter naming the field', async () => {
        const app = await createApp(dev.session);
        expect(
          (
            await call(t.app, dev.session, {
              method: 'GET',
              url: `/applications/${app.id}/subscriptions?status=lost`,
            })
          ).json(),
        ).toEqual(invalidFieldBody('status', /unknown status/));
      });
    });

    describe('members of an application', () => {
      it('lists direct and inherited members, adds, changes, removes, and transfers the ownership', async () => {
        const group = await createGroup(t.db);
        const app = await createApp(dev.session, { groups: [group.id] });
        const inherited = await signInNewUser(t.app, t.db);
        await grantRoleThroughGroup(t.db, inherited.user.id, group.id, 'APPLICATION', 'USER');
        const base = `/applications/${app.id}/members`;

        const added = await call(t.app, dev.session, {
          method: 'POST',
          url: base,
          payload: { id: colleague.user.id, role: 'USER' },
        });
        expect(added.statusCode, added.body).toBe(201);
        expect(added.json()).toMatchObject({ id: colleague.user.id, role: 'USER' });
        const list = await call(t.app, dev.session, { method: 'GET', url: base });
        expect(
          list
            .json()
            .map((m: { id: string; role: string; group: unknown }) => [m.id, m.role, m.group !== null]),
        ).toEqual([
          [dev.user.id, 'PRIMARY_OWNER', false],
          [colleague.user.id, 'USER', false],
          [inherited.user.id, 'USER', true],
        ]);

        const refusedRemoval = await call(t.app, dev.session, {
          method: 'DELETE',
          url: `${base}?user=${dev.user.id}`,
        });
        expect(refusedRemoval.json()).toEqual(errorBody(400, APP_PRIMARY_OWNER_UNREMOVABLE, 'user'));

        const transfer = await call(t.app, dev.session, {
          method: 'POST',
          url: `${base}/transfer_ownership`,
          payload: { id: colleague.user.id, role: 'OWNER' },
        });
        expect(transfer.statusCode, transfer.body).toBe(204);
        const roles = Object.fromEntries(
          (await findMembershipsOfReference(t.db, 'APPLICATION', app.id)).map((m) => [
            m.member_id,
            m.role_name,
          ]),
        );
        expect(roles).toEqual({ [dev.user.id]: 'OWNER', [colleague.user.id]: 'PRIMARY_OWNER' });

        const again = await call(t.app, dev.session, {
          method: 'POST',
          url: `${base}/transfer_ownership`,
          payload: { id: dev.user.id },
        });
        expect(again.json()).toEqual(errorBody(403, APP_TRANSFER_OWNER_ONLY));

        const removed = await call(t.app, colleague.session, {
          method: 'DELETE',
          url: `${base}?user=${dev.user.id}`,
        });
        expect(removed.statusCode).toBe(200);
      });

      it('refuses a missing role or user and a system role, naming the field, and stores nothing', async () => {
        const app = await createApp(dev.session);
        const base = `/applications/${app.id}/members`;
        expect(
          (
            await call(t.app, dev.session, { method: 'POST', url: base, payload: { id: colleague.user.id } })
          ).json(),
        ).toEqual(invalidFieldBody('role', 'is required'));
        expect(
          (await call(t.app, dev.session, { method: 'POST', url: base, payload: { role: 'USER' } })).json(),
        ).toEqual(invalidFieldBody('id', 'A user is required.'));
        expect(
          (
            await call(t.app, dev.session, {
              method: 'POST',
              url: base,
              payload: { id: colleague.user.id, role: 'PRIMARY_OWNER' },
            })
          ).json().field,
        ).toBe('role');
        expect(
          (await findMembershipsOfReference(t.db, 'APPLICATION', app.id)).map((m) => m.member_id),
        ).toEqual([dev.user.id]);
      });

      it('refuses users without the member permissions (403)', async () => {
        const app = await createApp(dev.session);
        await grantRoleOn(t.db, colleague.user.id, 'APPLICATION', app.id, 'USER');
        const base = `/applications/${app.id}/members`;
        expect((await call(t.app, u.outsider.session, { method: 'GET', url: base })).json()).toEqual(
          errorBody(403, 'You do not have the permission application-member-r'),
        );
        expect(
          (
            await call(t.app, colleague.session, {
              method: 'POST',
              url: base,
              payload: { id: u.outsider.user.id, role: 'USER' },
            })
          ).json(),
        ).toEqual(
          errorBody(403, 'You do not have the permission application-member-c or application-member-u'),
        );
        expect(
          (
            await call(t.app, colleague.session, { method: 'DELETE', url: `${base}?user=${dev.user.id}` })
          ).json(),
        ).toEqual(errorBody(403, 'You do not have the permission application-member-d'));
        expect(
          (
            await call(t.app, u.outsider.session, {
              method: 'POST',
              url: `${base}/transfer_ownership`,
              payload: { id: u.outsider.user.id },
            })
          ).statusCode,
        ).toBe(403);
        expect(
          (await findMembershipsOfReference(t.db, 'APPLICATION', app.id)).map((m) => m.role_name).sort(),
        ).toEqual(['PRIMARY_OWNER', 'USER']);
      });
    });
  });
}
