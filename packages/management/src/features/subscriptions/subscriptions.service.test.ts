import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanRow, SubscriptionRow, UserRow } from '@portico/storage';
import {
  findApiKeysOfSubscription,
  findNotificationsOfUser,
  findRecentMails,
  findSubscriptionById,
  searchAudits,
} from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import {
  createUser,
  grantRoleOn,
  grantRoleThroughGroup,
  createGroup,
  startTestApp,
} from '../../test-support/index.js';
import type { SubscriptionServices } from './subscriptions.wiring.js';
import {
  ALREADY_SUBSCRIBED,
  CLIENT_ID_REQUIRED,
  END_BEFORE_NOW,
  END_BEFORE_START,
  KEYLESS_NOT_SUBSCRIBABLE,
  NOT_ACCEPTED,
  NOT_CHANGEABLE,
  NOT_CLOSABLE,
  NOT_PAUSED,
  NOT_PENDING,
  NOT_TRANSFERABLE,
  ONE_OAUTH_SUBSCRIPTION,
  PLAN_NOT_SUBSCRIBABLE,
  START_BEFORE_TODAY,
  TRANSFER_OTHER_SECURITY,
  TRANSFER_PLAN_NOT_PUBLISHED,
  TRANSFER_SAME_PLAN,
} from './subscriptions.errors.js';
import {
  busRecorder,
  newApi,
  ownedApplication,
  planInput,
  publishedPlan,
  refusal,
  subscriptionServices,
} from './test-support/index.js';

const DAY = 86_400_000;
const JWT_DEFINITION = JSON.stringify({
  signature: 'HMAC_HS256',
  resolverParameter: 'a-secret-of-32-characters-long!!',
});
type Status = 'PENDING' | 'ACCEPTED' | 'PAUSED' | 'REJECTED' | 'CLOSED';

for (const dialect of await testDialects()) {
  describe(`${dialect}: subscription rules`, () => {
    let t: TestApp;
    let s: SubscriptionServices;
    let publisher: UserRow;
    let validator: UserRow;
    let consumer: UserRow;
    let apiId: string;
    let plan: PlanRow;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      s = subscriptionServices(t);
      publisher = await createUser(t.db);
      validator = await createUser(t.db);
      consumer = await createUser(t.db, { email: `consumer-${dialect}@example.test` });
      apiId = (await newApi(s, publisher)).id;
      await grantRoleOn(t.db, validator.id, 'API', apiId, 'OWNER');
      plan = await publishedPlan(s, publisher, apiId);
    });
    afterAll(() => t?.close());

    const application = (fields = {}) => ownedApplication(t, consumer, fields);
    const subscribe = async (p: PlanRow = plan, fields = {}) =>
      s.subscriptions.subscribe(consumer, { planId: p.id, applicationId: (await application(fields)).id });

    /** A subscription of a new application to the plan, brought to a status through the service. */
    const subscriptionIn = async (status: Status, p: PlanRow = plan): Promise<SubscriptionRow> => {
      const sub = await subscribe(p);
      if (status === 'PENDING') return sub;
      if (status === 'REJECTED') return s.subscriptions.reject(publisher, apiId, sub.id, 'no');
      await s.subscriptions.accept(publisher, apiId, sub.id, {});
      if (status === 'PAUSED') return s.subscriptions.pause(publisher, apiId, sub.id);
      if (status === 'CLOSED') return s.subscriptions.close(publisher, apiId, sub.id);
      return (await findSubscriptionById(t.db, sub.id))!;
    };
    const statusOf = async (id: string) => (await findSubscriptionById(t.db, id))?.status;
    const keysOf = (id: string) => findApiKeysOfSubscription(t.db, id);

    describe('subscribe', () => {
      it('creates a pending subscription to a plan with manual validation, and tells the validators', async () => {
        const sub = await s.subscriptions.subscribe(consumer, {
          apiId,
          planId: plan.id,
          applicationId: (await application({ client_id: `cid-${dialect}-1` })).id,
          request: 'Please let me in',
        });
        expect(sub).toMatchObject({
          status: 'PENDING',
          request: 'Please let me in',
          subscribed_by: consumer.id,
          client_id: `cid-${dialect}-1`,
          api_id: apiId,
        });
        expect(await keysOf(sub.id)).toEqual([]);
        const notified = await findNotificationsOfUser(t.db, validator.id, { offset: 0, limit: 50 });
        expect(notified.rows.map((n) => n.title)).toContain('New subscription to validate');
        const publisherNotified = await findNotificationsOfUser(t.db, publisher.id, { offset: 0, limit: 50 });
        expect(publisherNotified.rows.some((n) => n.message.includes('Please let me in'))).toBe(true);
      });

      it('tells the members who validate through a group of the API too', async () => {
        const groupMember = await createUser(t.db);
        const group = await createGroup(t.db);
        const api = await newApi(s, publisher, 'Grouped');
        await s.apis.update(publisher, api.id, { groups: [group.id] });
        await grantRoleThroughGroup(t.db, groupMember.id, group.id, 'API', 'OWNER');
        const p = await publishedPlan(s, publisher, api.id);
        await subscribe(p);
        const notified = await findNotificationsOfUser(t.db, groupMember.id, { offset: 0, limit: 10 });
        expect(notified.rows.map((n) => n.title)).toEqual(['New subscription to validate']);
      });

      it('accepts at once with automatic validation and issues the key', async () => {
        const auto = await publishedPlan(s, publisher, apiId, { validation: 'AUTO' });
        const sub = await subscribe(auto);
        expect(sub).toMatchObject({ status: 'ACCEPTED', processed_by: null });
        expect(sub.processed_at).toBeGreaterThan(0);
        expect(sub.starting_at).toBeGreaterThan(0);
        const keys = await keysOf(sub.id);
        expect(keys).toHaveLength(1);
        expect(keys[0]).toMatchObject({ revoked: 0, paused: 0, plan_id: auto.id, api_id: apiId });
      });

      it('refuses a key-less plan and plans that are not published', async () => {
        const keyless = await s.plans.create(publisher, apiId, planInput({ security: 'KEY_LESS' }));
        expect(await refusal(subscribe(keyless))).toMatchObject({
          status: 400,
          message: KEYLESS_NOT_SUBSCRIBABLE,
          field: 'plan',
        });
        const staging = await s.plans.create(publisher, apiId, planInput());
        expect(await refusal(subscribe(staging))).toMatchObject({ message: PLAN_NOT_SUBSCRIBABLE });
        const deprecated = await publishedPlan(s, publisher, apiId);
        await s.plans.deprecate(publisher, apiId, deprecated.id);
        expect(await refusal(subscribe(deprecated))).toMatchObject({ message: PLAN_NOT_SUBSCRIBABLE });
        const closed = await publishedPlan(s, publisher, apiId);
        await s.plans.close(publisher, apiId, closed.id);
        expect(await refusal(subscribe(closed))).toMatchObject({ message: PLAN_NOT_SUBSCRIBABLE });
      });

      it('refuses a plan of another API than the one of the call', async () => {
        const other = await newApi(s, publisher, 'Elsewhere');
        const app = await application();
        expect(
          await refusal(
            s.subscriptions.subscribe(consumer, { apiId: other.id, planId: plan.id, applicationId: app.id }),
          ),
        ).toMatchObject({ status: 400, field: 'plan' });
      });

      it('allows one pending, accepted or paused subscription per application and plan', async () => {
        for (const status of ['PENDING', 'ACCEPTED', 'PAUSED'] as const) {
          const sub = await subscriptionIn(status);
          expect(
            await refusal(
              s.subscriptions.subscribe(consumer, { planId: plan.id, applicationId: sub.application_id }),
            ),
          ).toMatchObject({ status: 400, message: ALREADY_SUBSCRIBED });
        }
        for (const status of ['REJECTED', 'CLOSED'] as const) {
          const sub = await subscriptionIn(status);
          const again = await s.subscriptions.subscribe(consumer, {
            planId: plan.id,
            applicationId: sub.application_id,
          });
          expect(again.status).toBe('PENDING');
        }
      });

      it('needs a message when the plan requires one', async () => {
        const p = await publishedPlan(s, publisher, apiId, {
          comment_required: true,
          comment_message: 'Who are you?',
        });
        const app = await application();
        expect(
          await refusal(
            s.subscriptions.subscribe(consumer, { planId: p.id, applicationId: app.id, request: '  ' }),
          ),
        ).toMatchObject({
          status: 400,
          field: 'request',
          message: expect.stringContaining('Who are you?'),
        });
        expect(
          (await s.subscriptions.subscribe(consumer, { planId: p.id, applicationId: app.id, request: 'Me' }))
            .request,
        ).toBe('Me');
      });

      it('needs a client id for OAuth2 and JWT plans, and one such subscription per API and application', async () => {
        const jwt = await publishedPlan(s, publisher, apiId, {
          security: 'JWT',
          securityDefinition: JWT_DEFINITION,
        });
        const jwt2 = await publishedPlan(s, publisher, apiId, {
          security: 'JWT',
          securityDefinition: JWT_DEFINITION,
        });
        expect(await refusal(subscribe(jwt))).toMatchObject({ status: 400, message: CLIENT_ID_REQUIRED });
        const app = await application({ client_id: `jwt-client-${dialect}` });
        await s.subscriptions.subscribe(consumer, { planId: jwt.id, applicationId: app.id });
        expect(
          await refusal(s.subscriptions.subscribe(consumer, { planId: jwt2.id, applicationId: app.id })),
        ).toMatchObject({
          message: ONE_OAUTH_SUBSCRIPTION,
        });
        // An API-key plan of the same API is still open to it.
        expect(
          (await s.subscriptions.subscribe(consumer, { planId: plan.id, applicationId: app.id })).status,
        ).toBe('PENDING');
      });

      it('answers 404 for an archived application', async () => {
        const app = await application({ status: 'ARCHIVED' });
        expect(
          (await refusal(s.subscriptions.subscribe(consumer, { planId: plan.id, applicationId: app.id })))
            .status,
        ).toBe(404);
      });
    });

    describe('accept: pending → accepted', () => {
      it('accepts with dates and a message, issues a key expiring with the subscription, tells the owner', async () => {
        const sub = await subscribe();
        const now = t.clock.peek();
        const accepted = await s.subscriptions.accept(validator, apiId, sub.id, {
          starting_at: now + DAY,
          ending_at: now + 30 * DAY,
          reason: 'Welcome',
        });
        expect(accepted).toMatchObject({
          status: 'ACCEPTED',
          processed_by: validator.id,
          starting_at: now + DAY,
          ending_at: now + 30 * DAY,
          reason: 'Welcome',
        });
        expect(accepted.updated_at).toBeGreaterThan(sub.updated_at);
        const keys = await keysOf(sub.id);
        expect(keys).toHaveLength(1);
        expect(keys[0]!.expire_at).toBe(now + 30 * DAY);
        const notified = await findNotificationsOfUser(t.db, consumer.id, { offset: 0, limit: 100 });
        expect(
          notified.rows.some((n) => n.title === 'Subscription accepted' && n.message.includes('Welcome')),
        ).toBe(true);
        const mails = await findRecentMails(t.db, 100);
        expect(
          mails.some(
            (m) => m.recipients.includes(consumer.email!) && m.subject.includes('Subscription accepted'),
          ),
        ).toBe(true);
      });

      it('starts today when no start date is given', async () => {
        const sub = await subscribe();
        const before = t.clock.peek();
        const accepted = await s.subscriptions.accept(validator, apiId, sub.id, {});
        expect(accepted.starting_at).toBeGreaterThanOrEqual(before);
        expect(accepted.ending_at).toBeNull();
      });

      it('refuses a start before today and an end before the start', async () => {
        const sub = await subscribe();
        const now = t.clock.peek();
        expect(
          await refusal(s.subscriptions.accept(validator, apiId, sub.id, { starting_at: now - 2 * DAY })),
        ).toEqual({
          status: 400,
          message: START_BEFORE_TODAY,
          field: 'starting_at',
        });
        expect(
          await refusal(
            s.subscriptions.accept(validator, apiId, sub.id, {
              starting_at: now + DAY,
              ending_at: now + 1000,
            }),
          ),
        ).toEqual({ status: 400, message: END_BEFORE_START, field: 'ending_at' });
        expect(await statusOf(sub.id)).toBe('PENDING');
        expect(await keysOf(sub.id)).toEqual([]);
      });

      for (const from of ['ACCEPTED', 'PAUSED', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to accept or reject a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.accept(validator, apiId, sub.id, {}))).toMatchObject({
            message: NOT_PENDING,
          });
          expect(await refusal(s.subscriptions.reject(validator, apiId, sub.id, 'no'))).toMatchObject({
            message: NOT_PENDING,
          });
          expect(await statusOf(sub.id)).toBe(from);
        });
      }

      it('answers 404 for a subscription of another API', async () => {
        const sub = await subscribe();
        const other = await newApi(s, publisher, 'NotThisOne');
        expect((await refusal(s.subscriptions.accept(validator, other.id, sub.id, {}))).status).toBe(404);
      });
    });

    describe('reject: pending → rejected', () => {
      it('rejects with the reason, closes it and tells the owner', async () => {
        const sub = await subscribe();
        const rejected = await s.subscriptions.reject(validator, apiId, sub.id, 'Not for you');
        expect(rejected).toMatchObject({
          status: 'REJECTED',
          reason: 'Not for you',
          processed_by: validator.id,
        });
        expect(rejected.closed_at).toBe(rejected.processed_at);
        expect(await keysOf(sub.id)).toEqual([]);
        const notified = await findNotificationsOfUser(t.db, consumer.id, { offset: 0, limit: 200 });
        expect(
          notified.rows.some((n) => n.title === 'Subscription rejected' && n.message.includes('Not for you')),
        ).toBe(true);
      });
    });

    describe('pause and resume', () => {
      it('pauses an accepted subscription and its keys, and resumes both', async () => {
        const sub = await subscriptionIn('ACCEPTED');
        const paused = await s.subscriptions.pause(validator, apiId, sub.id);
        expect(paused.status).toBe('PAUSED');
        expect(paused.paused_at).toBeGreaterThan(0);
        expect((await keysOf(sub.id)).map((k) => k.paused)).toEqual([1]);
        const resumed = await s.subscriptions.resume(validator, apiId, sub.id);
        expect(resumed).toMatchObject({ status: 'ACCEPTED', paused_at: null });
        expect((await keysOf(sub.id)).map((k) => k.paused)).toEqual([0]);
      });

      for (const from of ['PENDING', 'PAUSED', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to pause a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.pause(validator, apiId, sub.id))).toMatchObject({
            message: NOT_ACCEPTED,
          });
          expect(await statusOf(sub.id)).toBe(from);
        });
      }

      for (const from of ['PENDING', 'ACCEPTED', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to resume a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.resume(validator, apiId, sub.id))).toMatchObject({
            message: NOT_PAUSED,
          });
          expect(await statusOf(sub.id)).toBe(from);
        });
      }
    });

    describe('close', () => {
      for (const from of ['ACCEPTED', 'PAUSED'] as const) {
        it(`closes a ${from.toLowerCase()} subscription and revokes its keys`, async () => {
          const sub = await subscriptionIn(from);
          const closed = await s.subscriptions.close(validator, apiId, sub.id);
          expect(closed.status).toBe('CLOSED');
          expect(closed.closed_at).toBeGreaterThan(0);
          const keys = await keysOf(sub.id);
          expect(keys.map((k) => k.revoked)).toEqual([1]);
          expect(keys[0]!.revoked_at).toBe(closed.closed_at);
        });
      }

      for (const from of ['PENDING', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to close a ${from.toLowerCase()} subscription from the API side`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.close(validator, apiId, sub.id))).toMatchObject({
            message: NOT_CLOSABLE,
          });
          expect(await statusOf(sub.id)).toBe(from);
        });
      }

      it('lets the application close a pending subscription, but not a closed one', async () => {
        const pending = await subscriptionIn('PENDING');
        expect(
          (await s.subscriptions.closeByApplication(consumer, pending.application_id, pending.id)).status,
        ).toBe('CLOSED');
        const closed = await subscriptionIn('CLOSED');
        expect(
          (await refusal(s.subscriptions.closeByApplication(consumer, closed.application_id, closed.id)))
            .status,
        ).toBe(400);
        const other = await application();
        expect(
          (await refusal(s.subscriptions.closeByApplication(consumer, other.id, pending.id))).status,
        ).toBe(404);
      });
    });

    describe('transfer', () => {
      let target: PlanRow;
      beforeEach(async () => {
        target = await publishedPlan(s, publisher, apiId);
      });

      for (const from of ['ACCEPTED', 'PAUSED'] as const) {
        it(`moves a ${from.toLowerCase()} subscription and its keys to another published plan of the same security`, async () => {
          const sub = await subscriptionIn(from);
          const moved = await s.subscriptions.transfer(validator, apiId, sub.id, target.id);
          expect(moved).toMatchObject({ plan_id: target.id, status: from });
          expect((await keysOf(sub.id)).map((k) => k.plan_id)).toEqual([target.id]);
        });
      }

      for (const from of ['PENDING', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to transfer a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, target.id))).toMatchObject({
            message: NOT_TRANSFERABLE,
          });
        });
      }

      it('refuses the same plan, a plan not published, another security type, a plan of another API', async () => {
        const sub = await subscriptionIn('ACCEPTED');
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, plan.id))).toMatchObject({
          message: TRANSFER_SAME_PLAN,
        });
        const staging = await s.plans.create(publisher, apiId, planInput());
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, staging.id))).toMatchObject({
          message: TRANSFER_PLAN_NOT_PUBLISHED,
        });
        const jwt = await publishedPlan(s, publisher, apiId, {
          security: 'JWT',
          securityDefinition: JWT_DEFINITION,
        });
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, jwt.id))).toMatchObject({
          message: TRANSFER_OTHER_SECURITY,
        });
        const otherApi = await newApi(s, publisher, 'Foreign');
        const foreign = await publishedPlan(s, publisher, otherApi.id);
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, foreign.id))).toMatchObject({
          status: 400,
          field: 'plan',
        });
        expect((await findSubscriptionById(t.db, sub.id))?.plan_id).toBe(plan.id);
      });

      it('refuses a plan the application already subscribes to', async () => {
        const sub = await subscriptionIn('ACCEPTED');
        await s.subscriptions.subscribe(consumer, { planId: target.id, applicationId: sub.application_id });
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, target.id))).toMatchObject({
          message: ALREADY_SUBSCRIBED,
        });
      });
    });

    describe('change of the end date', () => {
      it('sets a new end, and keys expiring later expire with the subscription', async () => {
        const sub = await subscriptionIn('ACCEPTED');
        const end = t.clock.peek() + 10 * DAY;
        const changed = await s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: end });
        expect(changed.ending_at).toBe(end);
        expect((await keysOf(sub.id))[0]!.expire_at).toBe(end);
      });

      it('refuses an end earlier than now or before the start', async () => {
        const sub = await subscriptionIn('PAUSED');
        const now = t.clock.peek();
        expect(
          await refusal(s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: now - 1000 })),
        ).toEqual({
          status: 400,
          message: END_BEFORE_NOW,
          field: 'ending_at',
        });
        expect(
          await refusal(
            s.subscriptions.changeDates(validator, apiId, sub.id, {
              starting_at: now + 5 * DAY,
              ending_at: now + DAY,
            }),
          ),
        ).toMatchObject({ message: END_BEFORE_START });
        expect((await findSubscriptionById(t.db, sub.id))?.ending_at).toBeNull();
      });

      for (const from of ['PENDING', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to change the dates of a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(
            await refusal(
              s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: t.clock.peek() + DAY }),
            ),
          ).toMatchObject({ message: NOT_CHANGEABLE });
        });
      }
    });

    it('moves updated_at on every change and tells the gateways after the commit', async () => {
      const bus = busRecorder(t);
      try {
        const sub = await subscribe();
        const stamps = [sub.updated_at];
        for (const step of [
          () => s.subscriptions.accept(validator, apiId, sub.id, {}),
          () => s.subscriptions.pause(validator, apiId, sub.id),
          () => s.subscriptions.resume(validator, apiId, sub.id),
          () => s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: t.clock.peek() + DAY }),
          () => s.subscriptions.close(validator, apiId, sub.id),
        ]) {
          stamps.push((await step()).updated_at);
        }
        expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
        expect(new Set(stamps).size).toBe(stamps.length);
        expect(bus.messages.filter((m) => m.kind === 'subscription' && m.id === sub.id)).toHaveLength(6);
        const key = (await keysOf(sub.id))[0]!;
        expect(
          bus.messages.filter((m) => m.kind === 'apikey' && m.id === key.key).length,
        ).toBeGreaterThanOrEqual(5);
        expect(bus.messages.every((m) => m.apiId === apiId)).toBe(true);
        // A refused change announces nothing.
        bus.clear();
        await refusal(s.subscriptions.pause(validator, apiId, sub.id));
        expect(bus.messages).toEqual([]);
      } finally {
        bus.stop();
      }
    });

    it('audits each change in the API trail and in the application trail', async () => {
      const sub = await subscribe();
      await s.subscriptions.accept(validator, apiId, sub.id, {});
      await s.subscriptions.pause(validator, apiId, sub.id);
      await s.subscriptions.resume(validator, apiId, sub.id);
      await s.subscriptions.transfer(validator, apiId, sub.id, (await publishedPlan(s, publisher, apiId)).id);
      await s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: t.clock.peek() + DAY });
      await s.subscriptions.close(validator, apiId, sub.id);
      const expected = [
        'SUBSCRIPTION_CREATED',
        'SUBSCRIPTION_ACCEPTED',
        'SUBSCRIPTION_PAUSED',
        'SUBSCRIPTION_RESUMED',
        'SUBSCRIPTION_TRANSFERRED',
        'SUBSCRIPTION_UPDATED',
        'SUBSCRIPTION_CLOSED',
      ].sort();
      for (const [type, id] of [
        ['API', apiId],
        ['APPLICATION', sub.application_id],
      ] as const) {
        const { rows } = await searchAudits(t.db, {
          references: [{ type, ids: [id] }],
          offset: 0,
          limit: 500,
        });
        const events = rows
          .filter((r) => JSON.parse(r.properties).SUBSCRIPTION === sub.id)
          .map((r) => r.event);
        expect(events.sort()).toEqual(expected);
      }
    });
  });
}
