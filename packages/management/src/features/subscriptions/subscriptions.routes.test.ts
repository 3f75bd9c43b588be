import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findApiKey,
  findApiKeysOfSubscription,
  findNotificationsOfUser,
  findRecentMails,
  findSubscriptionById,
  findSubscriptions,
} from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  errorBody,
  invalidFieldBody,
  grantRoleOn,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { apiUsers, createApiAs } from '../apis/test-support/index.js';
import {
  ALREADY_SUBSCRIBED,
  END_BEFORE_NOW,
  KEY_ALREADY_REVOKED,
  KEY_NEEDS_ACCEPTED,
  KEYLESS_NOT_SUBSCRIBABLE,
  START_BEFORE_TODAY,
  TRANSFER_OTHER_SECURITY,
} from './subscriptions.errors.js';

const DAY = 86_400_000;

interface SubscriptionJson {
  id: string;
  status: string;
  plan: { id: string; name: string; security: string };
  application: { id: string; name: string; owner: { displayName: string } };
  [key: string]: unknown;
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: API subscription calls`, () => {
    let t: TestApp;
    let u: ApiUsers;
    let reviewer: SignedInUser;
    let validator: SignedInUser;
    let apiId: string;
    let plan: string;
    let autoPlan: string;
    let otherPlan: string;
    let keylessPlan: string;
    let jwtPlan: string;

    const admin = () => u.admin;
    const publisher = () => u.publisher.session;

    const newPlan = async (payload: Record<string, unknown>, publish = true) => {
      const res = await call(t.app, publisher(), {
        method: 'POST',
        url: `/apis/${apiId}/plans`,
        payload: { name: 'Some plan', description: 'x', security: 'API_KEY', ...payload },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json<{ id: string }>().id;
      if (publish)
        await call(t.app, publisher(), { method: 'POST', url: `/apis/${apiId}/plans/${id}/_publish` });
      return id;
    };
    const newApplication = async (session: TestSession = publisher(), name = 'Consumer app') => {
      const res = await call(t.app, session, {
        method: 'POST',
        url: '/applications',
        payload: { name, description: 'x' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string }>().id;
    };
    /** The application's owner asks for a subscription (pending on a plan with manual validation). */
    const subscribe = async (planId = plan, application?: string) => {
      const res = await call(t.app, publisher(), {
        method: 'POST',
        url: `/applications/${application ?? (await newApplication())}/subscriptions?plan=${planId}`,
        payload: { request: 'Let me in' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<SubscriptionJson>();
    };
    const accepted = async (planId = plan) => {
      const sub = await subscribe(planId);
      if (sub.status === 'ACCEPTED') return sub;
      const res = await call(t.app, validator.session, {
        method: 'POST',
        url: `/apis/${apiId}/subscriptions/${sub.id}/_process`,
        payload: { accepted: true },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<SubscriptionJson>();
    };
    const sub = (id: string, rest = '') => `/apis/${apiId}/subscriptions/${id}${rest}`;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
      reviewer = await signInNewUser(t.app, t.db);
      validator = await signInNewUser(t.app, t.db);
      apiId = (await createApiAs(t, publisher())).id;
      await grantRoleOn(t.db, reviewer.user.id, 'API', apiId, 'REVIEWER');
      await grantRoleOn(t.db, validator.user.id, 'API', apiId, 'OWNER');
      plan = await newPlan({ name: 'Manual plan' });
      autoPlan = await newPlan({ name: 'Auto plan', validation: 'AUTO' });
      otherPlan = await newPlan({ name: 'Other plan' });
      keylessPlan = await newPlan({ name: 'Free plan', security: 'KEY_LESS' });
      jwtPlan = await newPlan({
        name: 'Token plan',
        security: 'JWT',
        securityDefinition: {
          signature: 'HMAC_HS256',
          resolverParameter: 'a-very-secret-hmac-key-of-32-chars',
        },
      });
    });
    afterAll(() => t?.close());

    it('documents the subscription and key calls in the OpenAPI document', async () => {
      const res = await call(t.app, undefined, { method: 'GET', url: '/openapi.json' });
      expect(Object.keys(res.json().paths)).toEqual(
        expect.arrayContaining([
          '/apis/{api}/subscriptions',
          '/apis/{api}/subscribers',
          '/apis/{api}/subscriptions/{subscription}',
          '/apis/{api}/subscriptions/{subscription}/_process',
          '/apis/{api}/subscriptions/{subscription}/status',
          '/apis/{api}/subscriptions/{subscription}/_transfer',
          '/apis/{api}/subscriptions/{subscription}/keys',
          '/apis/{api}/subscriptions/{subscription}/keys/{key}',
          '/apis/{api}/keys/{key}',
        ]),
      );
    });

    describe('POST apis/{id}/subscriptions?plan=&application=', () => {
      it("subscribes an application, accepted at once by the API's publisher on a manual plan, key issued", async () => {
        const application = await newApplication(reviewer.session, 'Subscriber');
        const res = await call(t.app, publisher(), {
          method: 'POST',
          url: `/apis/${apiId}/subscriptions?plan=${plan}&application=${application}`,
          payload: { request: 'Hello' },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          id: expect.any(String),
          status: 'ACCEPTED',
          request: 'Hello',
          plan: { id: plan, name: 'Manual plan', security: 'API_KEY' },
          application: { id: application, name: 'Subscriber', owner: { displayName: expect.any(String) } },
          api: { id: apiId },
          subscribed_by: { id: u.publisher.user.id },
          processed_by: { id: u.publisher.user.id },
        });
        const id = res.json<SubscriptionJson>().id;
        const stored = await findSubscriptionById(t.db, id);
        expect(stored).toMatchObject({ status: 'ACCEPTED', processed_by: u.publisher.user.id });
        expect(stored?.starting_at).toEqual(expect.any(Number));
        const keys = await findApiKeysOfSubscription(t.db, id);
        expect(keys).toHaveLength(1);
        expect(keys[0]).toMatchObject({ revoked: 0 });
        const seen = await call(t.app, reviewer.session, {
          method: 'GET',
          url: `/applications/${application}/subscriptions/${id}`,
        });
        expect(seen.json()).toMatchObject({ status: 'ACCEPTED' });
        const notified = await findNotificationsOfUser(t.db, reviewer.user.id, { offset: 0, limit: 100 });
        expect(notified.rows.map((n) => n.title)).toContain('Subscription accepted');
        const mails = await findRecentMails(t.db, 100);
        expect(
          mails.some(
            (m) => m.recipients.includes(reviewer.user.email!) && m.subject.includes('Subscription accepted'),
          ),
        ).toBe(true);
      });

      it('refuses a second subscription of the application to the plan, and a key-less plan', async () => {
        const application = await newApplication();
        await subscribe(plan, application);
        const again = await call(t.app, publisher(), {
          method: 'POST',
          url: `/apis/${apiId}/subscriptions?plan=${plan}&application=${application}`,
        });
        expect(again.json()).toEqual(errorBody(400, ALREADY_SUBSCRIBED, 'plan'));
        const keyless = await call(t.app, publisher(), {
          method: 'POST',
          url: `/apis/${apiId}/subscriptions?plan=${keylessPlan}&application=${application}`,
        });
        expect(keyless.json()).toEqual(errorBody(400, KEYLESS_NOT_SUBSCRIBABLE, 'plan'));
        expect(await findSubscriptions(t.db, { applicationIds: [application] })).toHaveLength(1);
      });

      it('refuses a missing application, a message over 150 characters, naming the field, and stores nothing', async () => {
        const application = await newApplication();
        const missing = await call(t.app, publisher(), {
          method: 'POST',
          url: `/apis/${apiId}/subscriptions?plan=${plan}`,
        });
        expect(missing.statusCode).toBe(400);
        expect(missing.json()).toEqual(invalidFieldBody('application', 'is required'));
        const long = await call(t.app, publisher(), {
          method: 'POST',
          url: `/apis/${apiId}/subscriptions?plan=${plan}&application=${application}`,
          payload: { request: 'x'.repeat(151) },
        });
        expect(long.json()).toEqual(invalidFieldBody('request', /150/));
        expect(await findSubscriptions(t.db, { applicationIds: [application] })).toEqual([]);
      });

      it('refuses a user without api-subscription-c (403)', async () => {
        const application = await newApplication(reviewer.session);
        const res = await call(t.app, reviewer.session, {
          method: 'POST',
          url: `/apis/${apiId}/subscriptions?plan=${plan}&application=${application}`,
        });
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-c'));
        expect(await findSubscriptions(t.db, { applicationIds: [application] })).toEqual([]);
      });
    });

    describe('GET apis/{id}/subscriptions and subscribers', () => {
      it('pages the subscriptions (default statuses accepted, pending, paused) with metadata by id', async () => {
        const pending = await subscribe();
        const closed = await accepted();
        await call(t.app, validator.session, {
          method: 'POST',
          url: sub(closed.id, '/status?status=CLOSED'),
        });
        const res = await call(t.app, reviewer.session, {
          method: 'GET',
          url: `/apis/${apiId}/subscriptions?size=100`,
        });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        const ids = body.data.map((s: { id: string }) => s.id);
        expect(ids).toContain(pending.id);
        expect(ids).not.toContain(closed.id);
        expect(body.page).toMatchObject({
          current: 1,
          per_page: 100,
          total_elements: ids.length,
          size: ids.length,
        });
        expect(body.metadata[plan]).toMatchObject({ name: 'Manual plan' });
        expect(body.metadata[pending.application.id]).toMatchObject({ name: 'Consumer app' });

        const filtered = await call(t.app, reviewer.session, {
          method: 'GET',
          url: `/apis/${apiId}/subscriptions?status=closed&application=${closed.application.id},nope&plan=${plan}`,
        });
        expect(filtered.json().data.map((s: { id: string }) => s.id)).toEqual([closed.id]);

        const paged = await call(t.app, reviewer.session, {
          method: 'GET',
          url: `/apis/${apiId}/subscriptions?page=2&size=1`,
        });
        expect(paged.json().data).toHaveLength(1);
        expect(paged.json().page).toMatchObject({ current: 2, per_page: 1, size: 1 });
      });

      it('lists the subscribed applications', async () => {
        const s = await subscribe();
        const res = await call(t.app, reviewer.session, { method: 'GET', url: `/apis/${apiId}/subscribers` });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(
          expect.arrayContaining([expect.objectContaining({ id: s.application.id, name: 'Consumer app' })]),
        );
      });

      it('refuses an unknown status and a page 0 naming the field', async () => {
        expect(
          (
            await call(t.app, reviewer.session, {
              method: 'GET',
              url: `/apis/${apiId}/subscriptions?status=gone`,
            })
          ).json(),
        ).toEqual(invalidFieldBody('status', /unknown status \[gone\]/));
        expect(
          (
            await call(t.app, reviewer.session, { method: 'GET', url: `/apis/${apiId}/subscriptions?page=0` })
          ).json(),
        ).toEqual(invalidFieldBody('page'));
      });

      it('refuses users without api-subscription-r (403)', async () => {
        for (const url of [`/apis/${apiId}/subscriptions`, `/apis/${apiId}/subscribers`]) {
          const res = await call(t.app, u.outsider.session, { method: 'GET', url });
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-r'));
        }
      });
    });

    describe('GET and PUT apis/{id}/subscriptions/{subId}', () => {
      it('answers every field of one subscription; 404 for a subscription of another API; 403 without the permission', async () => {
        const s = await accepted();
        const res = await call(t.app, reviewer.session, { method: 'GET', url: sub(s.id) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          id: s.id,
          status: 'ACCEPTED',
          request: 'Let me in',
          processed_by: { id: validator.user.id },
          processed_at: expect.any(Number),
          starting_at: expect.any(Number),
          ending_at: null,
          created_at: expect.any(Number),
          paused_at: null,
          closed_at: null,
        });
        const other = (await createApiAs(t, publisher())).id;
        expect(
          (await call(t.app, publisher(), { method: 'GET', url: `/apis/${other}/subscriptions/${s.id}` }))
            .statusCode,
        ).toBe(404);
        expect((await call(t.app, u.outsider.session, { method: 'GET', url: sub(s.id) })).statusCode).toBe(
          403,
        );
      });

      it('changes the end date; refuses one earlier than now or not a date, naming the field', async () => {
        const s = await accepted();
        const end = t.clock.peek() + 10 * DAY;
        const res = await call(t.app, validator.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { id: s.id, ending_at: end },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().ending_at).toBe(end);
        const iso = await call(t.app, validator.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { ending_at: new Date(end + DAY).toISOString() },
        });
        expect(iso.json().ending_at).toBe(end + DAY);
        const past = await call(t.app, validator.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { ending_at: t.clock.peek() - DAY },
        });
        expect(past.json()).toEqual(errorBody(400, END_BEFORE_NOW, 'ending_at'));
        const bad = await call(t.app, validator.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { ending_at: 'tomorrow' },
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().field).toBe('ending_at');
        expect((await findSubscriptionById(t.db, s.id))?.ending_at).toBe(end + DAY);
        const forbidden = await call(t.app, reviewer.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { ending_at: end },
        });
        expect(forbidden.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-u'));
      });
    });

    describe('POST .../_process, .../status, .../_transfer', () => {
      it('accepts with dates and a message; the key appears', async () => {
        const s = await subscribe();
        const start = t.clock.peek() + DAY;
        const res = await call(t.app, validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: { accepted: true, starting_at: start, ending_at: start + 30 * DAY, reason: 'Welcome' },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          status: 'ACCEPTED',
          starting_at: start,
          ending_at: start + 30 * DAY,
          reason: 'Welcome',
        });
        const keys = await call(t.app, reviewer.session, { method: 'GET', url: sub(s.id, '/keys') });
        expect(keys.json()).toEqual([
          expect.objectContaining({
            revoked: false,
            expired: false,
            expire_at: start + 30 * DAY,
            subscription: s.id,
          }),
        ]);
      });

      it('rejects with a reason', async () => {
        const s = await subscribe();
        const res = await call(t.app, validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: { accepted: false, reason: 'Not now' },
        });
        expect(res.json()).toMatchObject({
          status: 'REJECTED',
          reason: 'Not now',
          closed_at: expect.any(Number),
        });
      });

      it('refuses a start before today and a missing decision, naming the field, and changes nothing', async () => {
        const s = await subscribe();
        const early = await call(t.app, validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: { accepted: true, starting_at: t.clock.peek() - 3 * DAY },
        });
        expect(early.json()).toEqual(errorBody(400, START_BEFORE_TODAY, 'starting_at'));
        const missing = await call(t.app, validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: {},
        });
        expect(missing.json()).toEqual(invalidFieldBody('accepted', 'is required'));
        expect((await findSubscriptionById(t.db, s.id))?.status).toBe('PENDING');
      });

      it('pauses, resumes and closes; the keys follow', async () => {
        const s = await accepted();
        const [key] = await findApiKeysOfSubscription(t.db, s.id);
        const status = async (value: string) =>
          call(t.app, validator.session, { method: 'POST', url: sub(s.id, `/status?status=${value}`) });
        expect((await status('PAUSED')).json()).toMatchObject({
          status: 'PAUSED',
          paused_at: expect.any(Number),
        });
        expect((await findApiKey(t.db, key!.key))?.paused).toBe(1);
        expect((await status('resumed')).json()).toMatchObject({ status: 'ACCEPTED', paused_at: null });
        expect((await findApiKey(t.db, key!.key))?.paused).toBe(0);
        expect((await status('CLOSED')).json()).toMatchObject({ status: 'CLOSED' });
        expect((await findApiKey(t.db, key!.key))?.revoked).toBe(1);
        const unknown = await status('DELETED');
        expect(unknown.statusCode).toBe(400);
        expect(unknown.json().field).toBe('status');
      });

      it('transfers to another published plan of the same security; refuses another security', async () => {
        const s = await accepted();
        const res = await call(t.app, validator.session, {
          method: 'POST',
          url: sub(s.id, '/_transfer'),
          payload: { id: s.id, plan: otherPlan },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().plan).toMatchObject({ id: otherPlan, name: 'Other plan' });
        const refused = await call(t.app, validator.session, {
          method: 'POST',
          url: sub(s.id, '/_transfer'),
          payload: { plan: jwtPlan },
        });
        expect(refused.json()).toEqual(errorBody(400, TRANSFER_OTHER_SECURITY, 'plan'));
        const missing = await call(t.app, validator.session, {
          method: 'POST',
          url: sub(s.id, '/_transfer'),
          payload: {},
        });
        expect(missing.json()).toEqual(invalidFieldBody('plan', 'is required'));
        expect((await findSubscriptionById(t.db, s.id))?.plan_id).toBe(otherPlan);
      });

      it('refuses users without api-subscription-u (403) and changes nothing', async () => {
        const s = await subscribe();
        for (const [url, payload] of [
          [sub(s.id, '/_process'), { accepted: true }],
          [sub(s.id, '/status?status=CLOSED'), undefined],
          [sub(s.id, '/_transfer'), { plan: otherPlan }],
        ] as const) {
          const res = await call(t.app, reviewer.session, {
            method: 'POST',
            url,
            ...(payload ? { payload } : {}),
          });
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-u'));
        }
        expect(await findSubscriptionById(t.db, s.id)).toMatchObject({ status: 'PENDING', plan_id: plan });
      });
    });

    describe('API keys', () => {
      it('lists, renews (old key kept 2 hours), revokes and sets the expiry of keys', async () => {
        const s = await accepted(autoPlan);
        const [first] = await findApiKeysOfSubscription(t.db, s.id);
        const renewed = await call(t.app, validator.session, { method: 'POST', url: sub(s.id) });
        expect(renewed.statusCode).toBe(201);
        const newKey = renewed.json<{ key: string }>().key;
        expect(newKey).not.toBe(first!.key);
        const list = await call(t.app, reviewer.session, { method: 'GET', url: sub(s.id, '/keys') });
        expect(list.json().map((k: { key: string }) => k.key)).toEqual([newKey, first!.key]);
        expect(list.json()[1].expire_at).toBeGreaterThan(t.clock.peek() + 3_500_000);

        const expiry = t.clock.peek() + 5 * DAY;
        const put = await call(t.app, validator.session, {
          method: 'PUT',
          url: `/apis/${apiId}/keys/${newKey}`,
          payload: { expire_at: expiry },
        });
        expect(put.statusCode, put.body).toBe(200);
        expect(put.json()).toMatchObject({ key: newKey, expire_at: expiry, expired: false });

        const revoked = await call(t.app, validator.session, {
          method: 'DELETE',
          url: sub(s.id, `/keys/${first!.key}`),
        });
        expect(revoked.statusCode).toBe(204);
        expect((await findApiKey(t.db, first!.key))?.revoked).toBe(1);
        const viaKeyPath = await call(t.app, validator.session, {
          method: 'DELETE',
          url: `/apis/${apiId}/keys/${newKey}`,
        });
        expect(viaKeyPath.statusCode).toBe(204);
        expect((await findApiKey(t.db, newKey))?.revoked).toBe(1);
      });

      it('refuses an expiry that is not a date or after 2099, naming the field, and changes nothing', async () => {
        const s = await accepted(autoPlan);
        const [key] = await findApiKeysOfSubscription(t.db, s.id);
        for (const expire_at of ['soon', Date.UTC(2100, 0, 1)]) {
          const res = await call(t.app, validator.session, {
            method: 'PUT',
            url: `/apis/${apiId}/keys/${key!.key}`,
            payload: { expire_at },
          });
          expect(res.statusCode).toBe(400);
          expect(res.json().field).toBe('expire_at');
        }
        expect((await findApiKey(t.db, key!.key))?.expire_at).toBeNull();
      });

      it('refuses to renew the key of a paused subscription and to revoke a revoked key, and changes nothing', async () => {
        const s = await accepted(autoPlan);
        const [key] = await findApiKeysOfSubscription(t.db, s.id);
        await call(t.app, validator.session, { method: 'POST', url: sub(s.id, '/status?status=PAUSED') });
        const renew = await call(t.app, validator.session, { method: 'POST', url: sub(s.id) });
        expect(renew.json()).toEqual(errorBody(400, KEY_NEEDS_ACCEPTED));
        await call(t.app, validator.session, { method: 'POST', url: sub(s.id, '/status?status=RESUMED') });
        await call(t.app, validator.session, { method: 'DELETE', url: sub(s.id, `/keys/${key!.key}`) });
        const again = await call(t.app, validator.session, {
          method: 'DELETE',
          url: sub(s.id, `/keys/${key!.key}`),
        });
        expect(again.json()).toEqual(errorBody(400, KEY_ALREADY_REVOKED));
        expect(await findApiKeysOfSubscription(t.db, s.id)).toHaveLength(1);
      });

      it('refuses users without the permissions (403), and keeps the keys as they are', async () => {
        const s = await accepted(autoPlan);
        const [key] = await findApiKeysOfSubscription(t.db, s.id);
        expect(
          (await call(t.app, u.outsider.session, { method: 'GET', url: sub(s.id, '/keys') })).statusCode,
        ).toBe(403);
        for (const request of [
          { method: 'POST' as const, url: sub(s.id) },
          { method: 'DELETE' as const, url: sub(s.id, `/keys/${key!.key}`) },
          { method: 'DELETE' as const, url: `/apis/${apiId}/keys/${key!.key}` },
          {
            method: 'PUT' as const,
            url: `/apis/${apiId}/keys/${key!.key}`,
            payload: { expire_at: t.clock.peek() + DAY },
          },
        ]) {
          const res = await call(t.app, reviewer.session, request);
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-u'));
        }
        expect(await findApiKeysOfSubscription(t.db, s.id)).toEqual([key]);
      });
    });

    describe('My Tasks', () => {
      it('lists the pending subscriptions to validate, and accepting one from the list removes it', async () => {
        const s = await subscribe();
        const tasks = async (session: TestSession) =>
          (await call(t.app, session, { method: 'GET', url: '/user/tasks?size=100' })).json<{
            data: { data: { id: string } }[];
            page: { total_elements: number };
          }>();
        const before = await tasks(validator.session);
        expect(before.data.map((task) => task.data.id)).toContain(s.id);
        expect((await tasks(reviewer.session)).data).toEqual([]);
        await call(t.app, validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: { accepted: true },
        });
        const after = await tasks(validator.session);
        expect(after.data.map((task) => task.data.id)).not.toContain(s.id);
        expect(after.page.total_elements).toBe(before.page.total_elements - 1);
      });
    });

    it('lets an administrator do everything on any API', async () => {
      const s = await subscribe();
      const res = await call(t.app, admin(), {
        method: 'POST',
        url: sub(s.id, '/_process'),
        payload: { accepted: true },
      });
      expect(res.json().status).toBe('ACCEPTED');
    });
  });
}
