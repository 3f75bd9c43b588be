import { describe, expect, it } from 'vitest';
import { findApiKey, findApiKeysOfSubscription } from '@portico/storage';
import { findSubscriptionById, findSubscriptions } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, createGroup, errorBody } from '../../test-support/index.js';
import { invalidFieldBody, grantRoleOn, grantRoleThroughGroup } from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { createApiAs } from '../apis/test-support/index.js';
import { CLIENT_ID_REQUIRED, COMMENT_REQUIRED } from '../subscriptions/subscriptions.errors.js';
import { NOT_CLOSABLE_BY_APPLICATION } from '../subscriptions/subscriptions.errors.js';
import type { ApplicationCalls } from './test-support/application-calls.js';
import { useApplicationCallsApp } from './test-support/application-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: application calls`, () => {
    let t: TestApp, u: ApiUsers, dev: SignedInUser, colleague: SignedInUser;
    let apiId: string, plan: string, autoPlan: string, commentPlan: string, jwtPlan: string;
    let createApp: ApplicationCalls['createApp'], newPlan: ApplicationCalls['newPlan'];
    let subscribe: ApplicationCalls['subscribe'];
    useApplicationCallsApp(
      dialect,
      (calls) =>
        ({
          t,
          u,
          dev,
          colleague,
          apiId,
          plan,
          autoPlan,
          commentPlan,
          jwtPlan,
          createApp,
          newPlan,
          subscribe,
        } = calls),
    );

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
  });
}
