import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import { call, signInNewUser } from '../../test-support/index.js';
import { useCallsWorld } from './test-support/subscription-calls.js';
import type { SubscriptionJson } from './test-support/subscription-calls.js';

/**
 * The consumer-side calls of the portal's subscription wizard (portal-and-platform.md 7): a developer
 * creates an application, checks its subscriptions to the plan, subscribes and reads the key through
 * `GET subscriptions/{subId}/keys`, which only who reads the application or the API may call.
 */
for (const dialect of await testDialects()) {
  describe(`${dialect}: subscription wizard calls`, () => {
    const { w, newApplication } = useCallsWorld(dialect);
    // The developers of the portal see the API's plans once it is public.
    beforeAll(async () => {
      const res = await call(w.t.app, w.u.publisher.session, {
        method: 'PUT',
        url: `/apis/${w.apiId}`,
        payload: { visibility: 'PUBLIC' },
      });
      expect(res.statusCode, res.body).toBe(200);
    });

    const developerSubscribes = async (planId: string) => {
      const developer = await signInNewUser(w.t.app, w.t.db, { portal: 'USER' });
      const application = await newApplication(developer.session, 'Developer app');
      const res = await call(w.t.app, developer.session, {
        method: 'POST',
        url: `/applications/${application}/subscriptions/?plan=${planId}`,
        payload: { request: 'Please' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { developer, application, subscription: res.json<SubscriptionJson>() };
    };

    it('gives a developer the key of an accepted subscription, and its readers on the API side', async () => {
      const { developer, subscription } = await developerSubscribes(w.autoPlan);
      expect(subscription.status).toBe('ACCEPTED');
      const mine = await call(w.t.app, developer.session, {
        method: 'GET',
        url: `/subscriptions/${subscription.id}/keys`,
      });
      expect(mine.statusCode, mine.body).toBe(200);
      const keys = mine.json<{ key: string; revoked: boolean }[]>();
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatchObject({ revoked: false });
      expect(keys[0]!.key).toMatch(/\S{16,}/);
      const reviewer = await call(w.t.app, w.reviewer.session, {
        method: 'GET',
        url: `/subscriptions/${subscription.id}/keys`,
      });
      expect(reviewer.json()).toEqual(keys);
    });

    it('answers 401 without a session, 403 to someone else and 404 for an unknown subscription', async () => {
      const { subscription } = await developerSubscribes(w.otherPlan);
      const url = `/subscriptions/${subscription.id}/keys`;
      expect((await w.t.app.inject({ method: 'GET', url: `/management${url}` })).statusCode).toBe(401);
      const stranger = await signInNewUser(w.t.app, w.t.db, { portal: 'USER' });
      const refused = await call(w.t.app, stranger.session, { method: 'GET', url });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).not.toContain(subscription.id);
      const unknown = await call(w.t.app, stranger.session, {
        method: 'GET',
        url: '/subscriptions/no-such-subscription/keys',
      });
      expect(unknown.statusCode).toBe(404);
    });

    it("lists the application's live subscriptions to one plan (the wizard's existing-subscription check)", async () => {
      const { developer, application, subscription } = await developerSubscribes(w.plan);
      expect(subscription.status).toBe('PENDING');
      const check = (plan: string) =>
        call(w.t.app, developer.session, {
          method: 'GET',
          url: `/applications/${application}/subscriptions?plan=${plan}&status=ACCEPTED,PENDING`,
        });
      const samePlan = await check(w.plan);
      expect(samePlan.statusCode, samePlan.body).toBe(200);
      expect(samePlan.json<{ data: { id: string }[] }>().data.map((s) => s.id)).toEqual([subscription.id]);
      expect((await check(w.autoPlan)).json<{ data: unknown[] }>().data).toEqual([]);
      // A second subscription to the same plan is refused with the rule's message, naming the plan.
      const again = await call(w.t.app, developer.session, {
        method: 'POST',
        url: `/applications/${application}/subscriptions?plan=${w.plan}`,
        payload: { request: 'Again' },
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ field: 'plan' });
    });
  });
}
