import { describe, expect, it } from 'vitest';
import {
  findApiKeysOfSubscription,
  findNotificationsOfUser,
  findRecentMails,
  findSubscriptionById,
  findSubscriptions,
} from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestSession } from '../../test-support/index.js';
import { call, errorBody, invalidFieldBody } from '../../test-support/index.js';
import type { SubscriptionJson } from './test-support/subscription-calls.js';
import { DAY, useCallsWorld } from './test-support/subscription-calls.js';
import { createApiAs } from '../apis/test-support/index.js';
import { ALREADY_SUBSCRIBED, END_BEFORE_NOW, KEYLESS_NOT_SUBSCRIBABLE } from './subscriptions.errors.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API subscription calls`, () => {
    const { w, admin, publisher, newApplication, subscribe, accepted, sub } = useCallsWorld(dialect);

    it('documents the subscription and key calls in the OpenAPI document', async () => {
      const res = await call(w.t.app, undefined, { method: 'GET', url: '/openapi.json' });
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
        const application = await newApplication(w.reviewer.session, 'Subscriber');
        const res = await call(w.t.app, publisher(), {
          method: 'POST',
          url: `/apis/${w.apiId}/subscriptions?plan=${w.plan}&application=${application}`,
          payload: { request: 'Hello' },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          id: expect.any(String),
          status: 'ACCEPTED',
          request: 'Hello',
          plan: { id: w.plan, name: 'Manual plan', security: 'API_KEY' },
          application: { id: application, name: 'Subscriber', owner: { displayName: expect.any(String) } },
          api: { id: w.apiId },
          subscribed_by: { id: w.u.publisher.user.id },
          processed_by: { id: w.u.publisher.user.id },
        });
        const id = res.json<SubscriptionJson>().id;
        const stored = await findSubscriptionById(w.t.db, id);
        expect(stored).toMatchObject({ status: 'ACCEPTED', processed_by: w.u.publisher.user.id });
        expect(stored?.starting_at).toEqual(expect.any(Number));
        const keys = await findApiKeysOfSubscription(w.t.db, id);
        expect(keys).toHaveLength(1);
        expect(keys[0]).toMatchObject({ revoked: 0 });
        const seen = await call(w.t.app, w.reviewer.session, {
          method: 'GET',
          url: `/applications/${application}/subscriptions/${id}`,
        });
        expect(seen.json()).toMatchObject({ status: 'ACCEPTED' });
        const notified = await findNotificationsOfUser(w.t.db, w.reviewer.user.id, { offset: 0, limit: 100 });
        expect(notified.rows.map((n) => n.title)).toContain('Subscription accepted');
        const mails = await findRecentMails(w.t.db, 100);
        expect(
          mails.some(
            (m) =>
              m.recipients.includes(w.reviewer.user.email!) && m.subject.includes('Subscription accepted'),
          ),
        ).toBe(true);
      });

      it('refuses a second subscription of the application to the plan, and a key-less plan', async () => {
        const application = await newApplication();
        await subscribe(w.plan, application);
        const again = await call(w.t.app, publisher(), {
          method: 'POST',
          url: `/apis/${w.apiId}/subscriptions?plan=${w.plan}&application=${application}`,
        });
        expect(again.json()).toEqual(errorBody(400, ALREADY_SUBSCRIBED, 'plan'));
        const keyless = await call(w.t.app, publisher(), {
          method: 'POST',
          url: `/apis/${w.apiId}/subscriptions?plan=${w.keylessPlan}&application=${application}`,
        });
        expect(keyless.json()).toEqual(errorBody(400, KEYLESS_NOT_SUBSCRIBABLE, 'plan'));
        expect(await findSubscriptions(w.t.db, { applicationIds: [application] })).toHaveLength(1);
      });

      it('refuses a missing application, a message over 150 characters, naming the field, and stores nothing', async () => {
        const application = await newApplication();
        const missing = await call(w.t.app, publisher(), {
          method: 'POST',
          url: `/apis/${w.apiId}/subscriptions?plan=${w.plan}`,
        });
        expect(missing.statusCode).toBe(400);
        expect(missing.json()).toEqual(invalidFieldBody('application', 'is required'));
        const long = await call(w.t.app, publisher(), {
          method: 'POST',
          url: `/apis/${w.apiId}/subscriptions?plan=${w.plan}&application=${application}`,
          payload: { request: 'x'.repeat(151) },
        });
        expect(long.json()).toEqual(invalidFieldBody('request', /150/));
        expect(await findSubscriptions(w.t.db, { applicationIds: [application] })).toEqual([]);
      });

      it('refuses a user without api-subscription-c (403)', async () => {
        const application = await newApplication(w.reviewer.session);
        const res = await call(w.t.app, w.reviewer.session, {
          method: 'POST',
          url: `/apis/${w.apiId}/subscriptions?plan=${w.plan}&application=${application}`,
        });
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-c'));
        expect(await findSubscriptions(w.t.db, { applicationIds: [application] })).toEqual([]);
      });
    });

    describe('GET apis/{id}/subscriptions and subscribers', () => {
      it('pages the subscriptions (default statuses accepted, pending, paused) with metadata by id', async () => {
        const pending = await subscribe();
        const closed = await accepted();
        await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(closed.id, '/status?status=CLOSED'),
        });
        const res = await call(w.t.app, w.reviewer.session, {
          method: 'GET',
          url: `/apis/${w.apiId}/subscriptions?size=100`,
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
        expect(body.metadata[w.plan]).toMatchObject({ name: 'Manual plan' });
        expect(body.metadata[pending.application.id]).toMatchObject({ name: 'Consumer app' });

        const filtered = await call(w.t.app, w.reviewer.session, {
          method: 'GET',
          url: `/apis/${w.apiId}/subscriptions?status=closed&application=${closed.application.id},nope&plan=${w.plan}`,
        });
        expect(filtered.json().data.map((s: { id: string }) => s.id)).toEqual([closed.id]);

        const paged = await call(w.t.app, w.reviewer.session, {
          method: 'GET',
          url: `/apis/${w.apiId}/subscriptions?page=2&size=1`,
        });
        expect(paged.json().data).toHaveLength(1);
        expect(paged.json().page).toMatchObject({ current: 2, per_page: 1, size: 1 });
      });

      it('lists the subscribed applications', async () => {
        const s = await subscribe();
        const res = await call(w.t.app, w.reviewer.session, {
          method: 'GET',
          url: `/apis/${w.apiId}/subscribers`,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(
          expect.arrayContaining([expect.objectContaining({ id: s.application.id, name: 'Consumer app' })]),
        );
      });

      it('refuses an unknown status and a page 0 naming the field', async () => {
        expect(
          (
            await call(w.t.app, w.reviewer.session, {
              method: 'GET',
              url: `/apis/${w.apiId}/subscriptions?status=gone`,
            })
          ).json(),
        ).toEqual(invalidFieldBody('status', /unknown status \[gone\]/));
        expect(
          (
            await call(w.t.app, w.reviewer.session, {
              method: 'GET',
              url: `/apis/${w.apiId}/subscriptions?page=0`,
            })
          ).json(),
        ).toEqual(invalidFieldBody('page'));
      });

      it('refuses users without api-subscription-r (403)', async () => {
        for (const url of [`/apis/${w.apiId}/subscriptions`, `/apis/${w.apiId}/subscribers`]) {
          const res = await call(w.t.app, w.u.outsider.session, { method: 'GET', url });
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-r'));
        }
      });
    });

    describe('GET and PUT apis/{id}/subscriptions/{subId}', () => {
      it('answers every field of one subscription; 404 for a subscription of another API; 403 without the permission', async () => {
        const s = await accepted();
        const res = await call(w.t.app, w.reviewer.session, { method: 'GET', url: sub(s.id) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          id: s.id,
          status: 'ACCEPTED',
          request: 'Let me in',
          processed_by: { id: w.validator.user.id },
          processed_at: expect.any(Number),
          starting_at: expect.any(Number),
          ending_at: null,
          created_at: expect.any(Number),
          paused_at: null,
          closed_at: null,
        });
        const other = (await createApiAs(w.t, publisher())).id;
        expect(
          (await call(w.t.app, publisher(), { method: 'GET', url: `/apis/${other}/subscriptions/${s.id}` }))
            .statusCode,
        ).toBe(404);
        expect(
          (await call(w.t.app, w.u.outsider.session, { method: 'GET', url: sub(s.id) })).statusCode,
        ).toBe(403);
      });

      it('changes the end date; refuses one earlier than now or not a date, naming the field', async () => {
        const s = await accepted();
        const end = w.t.clock.peek() + 10 * DAY;
        const res = await call(w.t.app, w.validator.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { id: s.id, ending_at: end },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().ending_at).toBe(end);
        const iso = await call(w.t.app, w.validator.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { ending_at: new Date(end + DAY).toISOString() },
        });
        expect(iso.json().ending_at).toBe(end + DAY);
        const past = await call(w.t.app, w.validator.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { ending_at: w.t.clock.peek() - DAY },
        });
        expect(past.json()).toEqual(errorBody(400, END_BEFORE_NOW, 'ending_at'));
        const bad = await call(w.t.app, w.validator.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { ending_at: 'tomorrow' },
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().field).toBe('ending_at');
        expect((await findSubscriptionById(w.t.db, s.id))?.ending_at).toBe(end + DAY);
        const forbidden = await call(w.t.app, w.reviewer.session, {
          method: 'PUT',
          url: sub(s.id),
          payload: { ending_at: end },
        });
        expect(forbidden.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-u'));
      });
    });

    describe('My Tasks', () => {
      it('lists the pending subscriptions to validate, and accepting one from the list removes it', async () => {
        const s = await subscribe();
        const tasks = async (session: TestSession) =>
          (await call(w.t.app, session, { method: 'GET', url: '/user/tasks?size=100' })).json<{
            data: { data: { id: string } }[];
            page: { total_elements: number };
          }>();
        const before = await tasks(w.validator.session);
        expect(before.data.map((task) => task.data.id)).toContain(s.id);
        expect((await tasks(w.reviewer.session)).data).toEqual([]);
        await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: { accepted: true },
        });
        const after = await tasks(w.validator.session);
        expect(after.data.map((task) => task.data.id)).not.toContain(s.id);
        expect(after.page.total_elements).toBe(before.page.total_elements - 1);
      });
    });

    it('lets an administrator do everything on any API', async () => {
      const s = await subscribe();
      const res = await call(w.t.app, admin(), {
        method: 'POST',
        url: sub(s.id, '/_process'),
        payload: { accepted: true },
      });
      expect(res.json().status).toBe('ACCEPTED');
    });
  });
}
