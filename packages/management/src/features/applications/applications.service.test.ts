import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '@portico/storage';
import {
  findApiKeysOfSubscription,
  findApplicationById,
  findMembershipsOfReference,
  findSubscriptionById,
  searchAudits,
} from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import {
  ApplicationUpdate,
  GRANT_TYPES_REQUIRED,
  NewApplication,
  REDIRECT_URIS_REQUIRED,
} from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import {
  createGroup,
  createUser,
  grantPlatformRole,
  grantRoleThroughGroup,
  startTestApp,
} from '../../test-support/index.js';
import type { SubscriptionServices } from '../subscriptions/subscriptions.wiring.js';
import { newApi, publishedPlan, refusal, subscriptionServices } from '../subscriptions/test-support/index.js';
import {
  CLIENT_ID_TAKEN,
  GRANT_MANDATORY,
  GRANT_NOT_ALLOWED,
  NO_OAUTH_FOR_SIMPLE,
  REGISTRATION_DISABLED,
  TYPE_FIXED,
} from './applications.service.js';
import { settingsOf } from './applications.mapper.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: application rules`, () => {
    let t: TestApp;
    let s: SubscriptionServices;
    let owner: UserRow;
    let admin: UserRow;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      s = subscriptionServices(t);
      owner = await createUser(t.db);
      admin = await createUser(t.db);
      await grantPlatformRole(t.db, admin.id, 'MANAGEMENT', 'ADMIN');
    });
    afterAll(() => t?.close());

    const registration = (enabled: boolean) =>
      t.services.settings.update(admin.id, { application: { registration: { enabled } } });
    const create = (fields: Record<string, unknown> = {}, actor: UserRow = owner) =>
      s.applications.create(
        actor,
        NewApplication.parse({ name: 'Mobile', description: 'The app', ...fields }),
      );

    describe('creation', () => {
      it('creates a SIMPLE application with its own client id; the creator is its primary owner', async () => {
        const app = await create({ settings: { app: { type: 'mobile', client_id: `mobile-${dialect}` } } });
        expect(app).toMatchObject({ type: 'SIMPLE', status: 'ACTIVE', client_id: `mobile-${dialect}` });
        expect(settingsOf(app)).toEqual({ app: { type: 'mobile', client_id: `mobile-${dialect}` } });
        const members = await findMembershipsOfReference(t.db, 'APPLICATION', app.id);
        expect(members.map((m) => [m.member_id, m.role_name])).toEqual([[owner.id, 'PRIMARY_OWNER']]);
      });

      it('refuses a client id used by another active application, not one of an archived application', async () => {
        const first = await create({ settings: { app: { client_id: `shared-${dialect}` } } });
        expect(await refusal(create({ settings: { app: { client_id: `shared-${dialect}` } } }))).toEqual({
          status: 400,
          message: `Invalid value for field 'settings.app.client_id': ${CLIENT_ID_TAKEN(`shared-${dialect}`)}`,
          field: 'settings.app.client_id',
        });
        await s.applications.archive(owner, first.id);
        expect((await create({ settings: { app: { client_id: `shared-${dialect}` } } })).client_id).toBe(
          `shared-${dialect}`,
        );
      });

      it('refuses OAuth types while client registration is disabled, and OAuth settings on a SIMPLE application', async () => {
        await registration(false);
        expect(
          await refusal(
            create({ type: 'WEB', settings: { oauth: { redirect_uris: ['https://a.example/cb'] } } }),
          ),
        ).toMatchObject({
          field: 'type',
          message: expect.stringContaining(REGISTRATION_DISABLED),
        });
        expect(await refusal(create({ type: 'SIMPLE', settings: { oauth: {} } }))).toMatchObject({
          field: 'settings.oauth',
          message: expect.stringContaining(NO_OAUTH_FOR_SIMPLE),
        });
      });

      describe('with client registration enabled', () => {
        beforeAll(() => registration(true));
        afterAll(() => registration(false));

        it('generates the client credentials of a BROWSER application, implicit by default', async () => {
          const app = await create({
            settings: { oauth: { application_type: 'browser', redirect_uris: ['https://spa.example/cb'] } },
          });
          const oauth = settingsOf(app).oauth!;
          expect(app.type).toBe('BROWSER');
          expect(app.client_id).toBe(oauth.client_id);
          expect(oauth).toMatchObject({
            application_type: 'BROWSER',
            grant_types: ['implicit'],
            response_types: ['token', 'id_token'],
            redirect_uris: ['https://spa.example/cb'],
          });
          expect(oauth.client_secret.length).toBeGreaterThanOrEqual(40);
        });

        it('gives a WEB application authorization_code, which it must keep', async () => {
          const app = await create({
            type: 'WEB',
            settings: { oauth: { redirect_uris: ['https://web.example/cb'] } },
          });
          expect(settingsOf(app).oauth).toMatchObject({
            grant_types: ['authorization_code'],
            response_types: ['code'],
          });
          expect(
            await refusal(
              create({
                type: 'WEB',
                settings: { oauth: { grant_types: ['refresh_token'], redirect_uris: ['https://w.example'] } },
              }),
            ),
          ).toMatchObject({
            field: 'settings.oauth.grant_types',
            message: expect.stringContaining(GRANT_MANDATORY('authorization_code', 'WEB')),
          });
        });

        it('allows password to NATIVE applications only', async () => {
          const native = await create({
            type: 'NATIVE',
            settings: {
              oauth: {
                grant_types: ['authorization_code', 'password'],
                redirect_uris: ['com.example.app:/cb'],
              },
            },
          });
          expect(settingsOf(native).oauth!.grant_types).toEqual(['authorization_code', 'password']);
          expect(
            await refusal(
              create({
                type: 'WEB',
                settings: {
                  oauth: {
                    grant_types: ['authorization_code', 'password'],
                    redirect_uris: ['https://w.example'],
                  },
                },
              }),
            ),
          ).toMatchObject({ message: expect.stringContaining(GRANT_NOT_ALLOWED('password', 'WEB')) });
          expect(
            await refusal(
              create({
                type: 'BROWSER',
                settings: { oauth: { grant_types: ['refresh_token'], redirect_uris: ['https://b.example'] } },
              }),
            ),
          ).toMatchObject({
            message: expect.stringContaining(GRANT_NOT_ALLOWED('refresh_token', 'BROWSER')),
          });
        });

        it('needs grant types and, for redirecting grant types, redirect URIs', async () => {
          expect(
            await refusal(create({ type: 'BROWSER', settings: { oauth: { grant_types: [] } } })),
          ).toMatchObject({
            field: 'settings.oauth.grant_types',
            message: expect.stringContaining(GRANT_TYPES_REQUIRED),
          });
          expect(await refusal(create({ type: 'WEB', settings: { oauth: {} } }))).toMatchObject({
            field: 'settings.oauth.redirect_uris',
            message: expect.stringContaining(REDIRECT_URIS_REQUIRED),
          });
        });

        it('keeps the type and the client credentials when the OAuth settings change', async () => {
          const app = await create({
            type: 'WEB',
            settings: { oauth: { redirect_uris: ['https://one.example/cb'] } },
          });
          const before = settingsOf(app).oauth!;
          const updated = await s.applications.update(
            owner,
            app.id,
            ApplicationUpdate.parse({
              settings: {
                oauth: {
                  grant_types: ['authorization_code', 'refresh_token'],
                  redirect_uris: ['https://two.example/cb'],
                },
              },
            }),
          );
          expect(settingsOf(updated).oauth).toMatchObject({
            client_id: before.client_id,
            client_secret: before.client_secret,
            grant_types: ['authorization_code', 'refresh_token'],
            redirect_uris: ['https://two.example/cb'],
          });
          expect(
            await refusal(
              s.applications.update(
                owner,
                app.id,
                ApplicationUpdate.parse({ settings: { oauth: { application_type: 'native' } } }),
              ),
            ),
          ).toMatchObject({
            field: 'settings.oauth.application_type',
            message: expect.stringContaining(TYPE_FIXED),
          });
        });
      });

      it('refuses groups that do not exist, and adds the groups that take every new application', async () => {
        expect(await refusal(create({ groups: ['nope'] }))).toMatchObject({ field: 'groups' });
        const group = await createGroup(t.db);
        await t.db
          .updateTable('groups')
          .set({ event_rules: '[{"event":"APPLICATION_CREATE"}]' })
          .where('id', '=', group.id)
          .execute();
        const app = await create();
        expect(JSON.parse(app.groups)).toContain(group.id);
        await t.db.updateTable('groups').set({ event_rules: '[]' }).where('id', '=', group.id).execute();
      });
    });

    describe('update and archive', () => {
      it('saves name, description, groups, client id; subscriptions follow the new client id', async () => {
        const app = await create({ settings: { app: { client_id: `before-${dialect}` } } });
        const api = await newApi(s, owner, 'Follow');
        const plan = await publishedPlan(s, owner, api.id);
        const sub = await s.subscriptions.subscribe(owner, { planId: plan.id, applicationId: app.id });
        const group = await createGroup(t.db);
        const updated = await s.applications.update(
          owner,
          app.id,
          ApplicationUpdate.parse({
            name: 'Renamed',
            description: 'New text',
            groups: [group.id],
            settings: { app: { client_id: `after-${dialect}` } },
          }),
        );
        expect(updated).toMatchObject({
          name: 'Renamed',
          description: 'New text',
          client_id: `after-${dialect}`,
        });
        expect(JSON.parse(updated.groups)).toEqual([group.id]);
        const followed = (await findSubscriptionById(t.db, sub.id))!;
        expect(followed.client_id).toBe(`after-${dialect}`);
        expect(followed.updated_at).toBeGreaterThan(sub.updated_at);
      });

      it('archives the application: subscriptions closed, keys revoked, the application gone', async () => {
        const app = await create();
        const api = await newApi(s, owner, 'Archive');
        const auto = await publishedPlan(s, owner, api.id, { validation: 'AUTO' });
        const manual = await publishedPlan(s, owner, api.id);
        const accepted = await s.subscriptions.subscribe(owner, { planId: auto.id, applicationId: app.id });
        const pending = await s.subscriptions.subscribe(owner, { planId: manual.id, applicationId: app.id });
        await s.applications.archive(owner, app.id);
        expect((await findApplicationById(t.db, app.id))?.status).toBe('ARCHIVED');
        expect((await findSubscriptionById(t.db, accepted.id))?.status).toBe('CLOSED');
        expect((await findSubscriptionById(t.db, pending.id))?.status).toBe('CLOSED');
        expect((await findApiKeysOfSubscription(t.db, accepted.id)).every((k) => k.revoked === 1)).toBe(true);
        expect((await refusal(s.applications.get(app.id))).status).toBe(404);
        expect((await refusal(s.applications.archive(owner, app.id))).status).toBe(404);
        const { rows } = await searchAudits(t.db, {
          references: [{ type: 'APPLICATION', ids: [app.id] }],
          offset: 0,
          limit: 50,
        });
        expect(rows.map((r) => r.event)).toEqual(
          expect.arrayContaining(['APPLICATION_CREATED', 'APPLICATION_ARCHIVED', 'SUBSCRIPTION_CLOSED']),
        );
      });
    });

    describe('list', () => {
      it("lists the user's applications, directly or through a group; everything for an administrator", async () => {
        const user = await createUser(t.db);
        const own = await create({ name: 'Own app' }, user);
        const group = await createGroup(t.db);
        const grouped = await create({ name: 'Group app', groups: [group.id] });
        const foreign = await create({ name: 'Foreign app' });
        await grantRoleThroughGroup(t.db, user.id, group.id, 'APPLICATION', 'USER');
        const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
        expect(ids(await s.applications.list(user, {}))).toEqual([grouped.id, own.id]);
        expect(ids(await s.applications.list(user, { query: 'own' }))).toEqual([own.id]);
        expect(ids(await s.applications.list(user, { group: group.id }))).toEqual([grouped.id]);
        expect(ids(await s.applications.list(admin, {}))).toEqual(
          expect.arrayContaining([own.id, grouped.id, foreign.id]),
        );
      });
    });
  });
}
