import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findApiKeysOfSubscription, insertNotificationSetting } from '@portico/storage';
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

/** A webhook receiver: a real local HTTP server keeping what it was sent. */
let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

for (const dialect of await testDialects()) {
  describe(`${dialect}: first sign-in, group membership and key expiry reach their hooks`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect, {
        options: { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] }, schedulerTickMs: 0 },
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
  });
}
