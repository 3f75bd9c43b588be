import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  createGroup,
  createNotification,
  createPlan,
  createSubscription,
  createTag,
  errorBody,
  grantRoleOn,
  grantRoleThroughGroup,
  signInNewUser,
} from '../../test-support/index.js';
import { startUserWorld } from './test-support/user-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: the current user (user/*): tags, tasks, notifications`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      ({ t, admin } = await startUserWorld(dialect));
    });
    afterAll(() => t?.close());

    describe('GET user/tags', () => {
      it('lists unrestricted tags and those restricted to the user’s groups; administrators get all', async () => {
        const group = await createGroup(t.db);
        const otherGroup = await createGroup(t.db);
        await createTag(t.db, 'tag-public');
        await createTag(t.db, 'tag-mine', [group.id]);
        await createTag(t.db, 'tag-theirs', [otherGroup.id]);
        const me = await signInNewUser(t.app, t.db);
        await grantRoleThroughGroup(t.db, me.user.id, group.id, 'API', 'USER');

        const mine = await call(t.app, me.session, { method: 'GET', url: '/user/tags' });
        expect(mine.json()).toEqual(['tag-mine', 'tag-public']);
        const all = await call(t.app, admin, { method: 'GET', url: '/user/tags' });
        expect(all.json()).toEqual(['tag-mine', 'tag-public', 'tag-theirs']);
      });
    });

    describe('GET user/tasks', () => {
      let validator: SignedInUser;
      const pendingIds: Record<string, string> = {};

      beforeAll(async () => {
        validator = await signInNewUser(t.app, t.db);
        const group = await createGroup(t.db);
        const application = await createApplication(t.db, { name: 'Weather app' });
        const direct = await createApi(t.db, { name: 'direct-owner' });
        const readOnly = await createApi(t.db, { name: 'reviewer-only' });
        const viaGroup = await createApi(t.db, { name: 'via-group', groups: [group.id] });
        const unrelated = await createApi(t.db, { name: 'unrelated' });
        await grantRoleOn(t.db, validator.user.id, 'API', direct.id, 'OWNER');
        await grantRoleOn(t.db, validator.user.id, 'API', readOnly.id, 'REVIEWER');
        await grantRoleThroughGroup(t.db, validator.user.id, group.id, 'API', 'OWNER');
        let at = Date.UTC(2025, 0, 1);
        for (const api of [direct, readOnly, viaGroup, unrelated]) {
          const plan = await createPlan(t.db, api.id, { name: `Gold of ${api.name}` });
          const pending = await createSubscription(t.db, plan, application, { created_at: at++ });
          pendingIds[api.name] = pending.id;
          await createSubscription(t.db, plan, application, { status: 'ACCEPTED', created_at: at++ });
        }
      });

      it('shows the pending subscriptions of the APIs where the user may validate them, directly or via a group', async () => {
        const res = await call(t.app, validator.session, { method: 'GET', url: '/user/tasks' });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.data.map((task: { data: { id: string } }) => task.data.id)).toEqual([
          pendingIds['direct-owner'],
          pendingIds['via-group'],
        ]);
        expect(body.data[0]).toMatchObject({
          type: 'SUBSCRIPTION_APPROVAL',
          data: { request: 'please', application: expect.any(String), plan: expect.any(String) },
        });
        expect(body.page).toMatchObject({ current: 1, total_elements: 2 });
        const firstApi = body.data[0].data.api as string;
        expect(body.metadata[firstApi]).toEqual({ name: 'direct-owner', version: '1.0' });
        expect(body.metadata[body.data[0].data.application]).toEqual({ name: 'Weather app' });
        expect(body.metadata[body.data[0].data.plan]).toMatchObject({ name: 'Gold of direct-owner' });
      });

      it('pages the tasks', async () => {
        const res = await call(t.app, validator.session, { method: 'GET', url: '/user/tasks?page=2&size=1' });
        const body = res.json();
        expect(body.data.map((task: { data: { id: string } }) => task.data.id)).toEqual([
          pendingIds['via-group'],
        ]);
        expect(body.page).toEqual({ current: 2, size: 1, per_page: 1, total_pages: 2, total_elements: 2 });
      });

      it('shows every pending subscription to an administrator', async () => {
        const body = (await call(t.app, admin, { method: 'GET', url: '/user/tasks?size=100' })).json();
        expect(body.data.map((task: { data: { id: string } }) => task.data.id)).toEqual(
          Object.values(pendingIds),
        );
        expect(body.page.total_elements).toBe(4);
      });

      it('shows nothing to a user without api-subscription-u anywhere', async () => {
        const nobody = await signInNewUser(t.app, t.db);
        const body = (await call(t.app, nobody.session, { method: 'GET', url: '/user/tasks' })).json();
        expect(body.data).toEqual([]);
        expect(body.page.total_elements).toBe(0);
      });
    });

    describe('user/notifications', () => {
      let me: SignedInUser;
      let someoneElse: SignedInUser;
      beforeAll(async () => {
        me = await signInNewUser(t.app, t.db);
        someoneElse = await signInNewUser(t.app, t.db);
      });
      const count = async (userId: string) =>
        (
          await t.db
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n;

      it('lists only the own notifications, newest first', async () => {
        const older = await createNotification(t.db, me.user.id, { title: 'older', created_at: 1000 });
        const newer = await createNotification(t.db, me.user.id, { title: 'newer', created_at: 2000 });
        await createNotification(t.db, someoneElse.user.id, { title: 'not mine' });
        const res = await call(t.app, me.session, { method: 'GET', url: '/user/notifications' });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.data).toEqual([
          { id: newer.id, title: 'newer', message: newer.message, created_at: 2000 },
          { id: older.id, title: 'older', message: older.message, created_at: 1000 },
        ]);
        expect(body.page.total_elements).toBe(2);
      });

      it('deletes one own notification', async () => {
        const n = await createNotification(t.db, me.user.id);
        const before = Number(await count(me.user.id));
        const res = await call(t.app, me.session, { method: 'DELETE', url: `/user/notifications/${n.id}` });
        expect(res.statusCode).toBe(204);
        expect(Number(await count(me.user.id))).toBe(before - 1);
        const left = await t.db.selectFrom('notifications').select('id').where('id', '=', n.id).execute();
        expect(left).toEqual([]);
      });

      it("answers 404 for another user's notification and keeps it", async () => {
        const theirs = await createNotification(t.db, someoneElse.user.id);
        const res = await call(t.app, me.session, {
          method: 'DELETE',
          url: `/user/notifications/${theirs.id}`,
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorBody(404, `Notification [${theirs.id}] can not be found.`));
        const kept = await t.db
          .selectFrom('notifications')
          .select('id')
          .where('id', '=', theirs.id)
          .execute();
        expect(kept).toHaveLength(1);
      });

      it('deletes all own notifications, and only those', async () => {
        await createNotification(t.db, me.user.id);
        const theirsBefore = Number(await count(someoneElse.user.id));
        expect(theirsBefore).toBeGreaterThan(0);
        const res = await call(t.app, me.session, { method: 'DELETE', url: '/user/notifications' });
        expect(res.statusCode).toBe(204);
        expect(Number(await count(me.user.id))).toBe(0);
        expect(Number(await count(someoneElse.user.id))).toBe(theirsBefore);
      });
    });
  });
}
