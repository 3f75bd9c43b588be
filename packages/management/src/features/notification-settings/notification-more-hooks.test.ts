import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findApiKeysOfSubscription, findRecentMails, insertNotificationSetting } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestReceiver, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  createGroup,
  createPlan,
  createSubscription,
  createUser,
  login,
  startReceiver,
  startTestApp,
} from '../../test-support/index.js';

const PORTAL_URL = 'https://portal.example.test';

/** A webhook receiver: a real local HTTP server keeping what it was sent. */
let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

for (const dialect of await testDialects()) {
  describe(`${dialect}: sign-ins, registrations, group membership, keys and lifecycle reach their hooks`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect, {
        options: {
          outbound: { allowPrivate: false, allowed: ['127.0.0.1'] },
          schedulerTickMs: 0,
          portalUrl: PORTAL_URL,
        },
      });
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());
    beforeEach(() => {
      receiver.received.length = 0;
    });

    const webhook = (referenceType: string, referenceId: string, path: string, hooks: string[]) =>
      insertNotificationSetting(t.db, {
        ...{ id: `w-${Math.random()}`, name: 'Ops', config_type: 'GENERIC', reference_type: referenceType },
        ...{
          reference_id: referenceId,
          user_id: null,
          notifier: 'default-webhook',
          config: `${receiver.url}${path}`,
        },
        ...{ use_system_proxy: 0, hooks: JSON.stringify(hooks), created_at: 0, updated_at: 0 },
      });
    const events = async (path: string) => {
      await t.services.scheduler.tick();
      return receiver.json<{ event: string }>(path);
    };

    it('USER_FIRST_LOGIN: told once, at the first sign-in only', async () => {
      await webhook('PORTAL', 'DEFAULT', '/first', ['USER_FIRST_LOGIN']);
      const user = await createUser(t.db, {
        username: `ada-${dialect}`,
        firstname: 'Ada',
        lastname: 'Lovelace',
      });
      await login(t.app, user.source_id, 'password');
      await login(t.app, user.source_id, 'password');
      expect(await events('/first')).toEqual([
        expect.objectContaining({
          event: 'USER_FIRST_LOGIN',
          scope: 'PORTAL',
          message: 'The user Ada Lovelace signed in for the first time.',
          user: expect.objectContaining({ id: user.id }),
        }),
      ]);
    });

    it('GROUP_INVITATION: a user added to a group, not one whose roles change', async () => {
      await webhook('PORTAL', 'DEFAULT', '/group', ['GROUP_INVITATION']);
      const group = await createGroup(t.db, `Partners ${dialect}`);
      const user = await createUser(t.db, { firstname: 'Grace', lastname: 'Hopper' });
      const add = (role: string) =>
        call(t.app, admin, {
          method: 'POST',
          url: `/configuration/groups/${group.id}/members`,
          payload: [{ id: user.id, roles: [{ scope: 'API', name: role }] }],
        });
      expect((await add('USER')).statusCode).toBe(201);
      expect((await add('OWNER')).statusCode).toBe(200);
      expect(await events('/group')).toEqual([
        expect.objectContaining({
          event: 'GROUP_INVITATION',
          message: `The user Grace Hopper has been added to the group Partners ${dialect}.`,
          group: { id: group.id, name: `Partners ${dialect}` },
        }),
      ]);
    });

    it("APIKEY_EXPIRED: an expiry date set on a key is told to the API's and application's settings", async () => {
      const api = await createApi(t.db);
      const application = await createApplication(t.db);
      await webhook('API', api.id, '/keys', ['APIKEY_EXPIRED']);
      const plan = await createPlan(t.db, api.id);
      const s = await createSubscription(t.db, plan, application);
      const accepted = await call(t.app, admin, {
        method: 'POST',
        url: `/apis/${api.id}/subscriptions/${s.id}/_process`,
        payload: { accepted: true },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const [key] = await findApiKeysOfSubscription(t.db, s.id);
      const expiry = t.clock.peek() + 5 * 24 * 3600 * 1000;
      const put = await call(t.app, admin, {
        method: 'PUT',
        url: `/apis/${api.id}/keys/${key!.key}`,
        payload: { expire_at: expiry },
      });
      expect(put.statusCode, put.body).toBe(200);
      const told = await events('/keys');
      expect(told).toEqual([
        expect.objectContaining({
          event: 'APIKEY_EXPIRED',
          api: expect.objectContaining({ id: api.id }),
          application: expect.objectContaining({ id: application.id }),
        }),
      ]);
      expect(JSON.stringify(told)).not.toContain(key!.key); // the key itself is masked
    });

    it("SUBSCRIPTION_REJECTED, APIKEY_RENEWED, APIKEY_REVOKED, API_DEPRECATED: told to the API's webhook", async () => {
      const created = await call(t.app, admin, {
        method: 'POST',
        url: '/apis',
        payload: {
          ...{ name: 'Ledger', version: '1', description: 'd', context_path: `/ledger-${dialect}` },
          endpoint: 'https://ledger.example.com',
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const api = created.json<{ id: string }>();
      const hooks = ['SUBSCRIPTION_REJECTED', 'APIKEY_RENEWED', 'APIKEY_REVOKED', 'API_DEPRECATED'];
      await webhook('API', api.id, '/api', hooks);
      const plan = await createPlan(t.db, api.id);
      const process = (id: string, payload: object) =>
        call(t.app, admin, { method: 'POST', url: `/apis/${api.id}/subscriptions/${id}/_process`, payload });
      const refused = await createSubscription(t.db, plan, await createApplication(t.db));
      expect((await process(refused.id, { accepted: false, reason: 'No' })).statusCode).toBe(200);
      const application = await createApplication(t.db);
      const s = await createSubscription(t.db, plan, application);
      expect((await process(s.id, { accepted: true })).statusCode).toBe(200);
      const renewed = await call(t.app, admin, {
        method: 'POST',
        url: `/applications/${application.id}/subscriptions/${s.id}/keys/_renew`,
      });
      expect(renewed.statusCode, renewed.body).toBe(201);
      const revoke = `/apis/${api.id}/keys/${renewed.json().key as string}`;
      expect((await call(t.app, admin, { method: 'DELETE', url: revoke })).statusCode).toBe(204);
      const deprecate = { lifecycle_state: 'DEPRECATED' };
      const put = await call(t.app, admin, { method: 'PUT', url: `/apis/${api.id}`, payload: deprecate });
      expect(put.statusCode, put.body).toBe(200);
      const told = await events('/api');
      expect(told.map((e) => e.event)).toEqual(hooks);
      expect(told[0]).toMatchObject({ subscription: { id: refused.id, status: 'REJECTED' } });
      expect(told[3]).toMatchObject({ message: expect.stringMatching(/^The API Ledger .* deprecated\.$/) });
    });

    it('USER_REGISTERED and PASSWORD_RESET: told to the platform webhook', async () => {
      await webhook('PORTAL', 'DEFAULT', '/users', ['USER_REGISTERED', 'PASSWORD_RESET']);
      const email = `joan-${dialect}@example.test`;
      const registration = { firstname: 'Joan', lastname: 'Clarke', email };
      const registered = await call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration',
        payload: registration,
      });
      expect(registered.statusCode, registered.body).toBe(201);
      const mail = (await findRecentMails(t.db, 100)).find((m) => m.recipients.includes(email));
      const token = new RegExp(`${PORTAL_URL}/registration/confirm/([\\w.-]+)`).exec(mail?.text ?? '')?.[1];
      const finalized = await call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration/finalize',
        payload: { token, password: 'a good password', firstname: 'Joan', lastname: 'Clarke' },
      });
      expect(finalized.statusCode, finalized.body).toBeLessThan(300);
      const user = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      const reset = await call(t.app, admin, { method: 'POST', url: `/users/${user!.id}/resetPassword` });
      expect(reset.statusCode, reset.body).toBe(204);
      expect(await events('/users')).toEqual([
        expect.objectContaining({
          event: 'USER_REGISTERED',
          message: 'The user Joan Clarke has registered.',
        }),
        expect.objectContaining({
          event: 'PASSWORD_RESET',
          message: 'The user Joan Clarke asked for a password reset.',
          user: expect.objectContaining({ id: user!.id }),
        }),
      ]);
    });
  });
}
