import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanRow, SubscriptionRow, UserRow } from '@portico/storage';
import {
  findApiKey,
  findApiKeysOfSubscription,
  findNotificationsOfUser,
  searchAudits,
} from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { API_KEY_MAX_EXPIRY, API_KEY_RENEWAL_GRACE_MS } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { createUser, startTestApp } from '../../test-support/index.js';
import { KEY_EXPIRY_NOTICE_MS, generateApiKey } from './api-keys.service.js';
import type { SubscriptionServices } from './subscriptions.wiring.js';
import {
  KEY_ALREADY_REVOKED,
  KEY_EXPIRY_AFTER,
  KEY_EXPIRY_IN_PAST,
  KEY_NEEDS_ACCEPTED,
  KEY_NOT_API_KEY_PLAN,
} from './subscriptions.errors.js';
import {
  newApi,
  ownedApplication,
  publishedPlan,
  refusal,
  subscriptionServices,
} from './test-support/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const JWT_DEFINITION = JSON.stringify({
  signature: 'HMAC_HS256',
  resolverParameter: 'a-secret-of-32-characters-long!!',
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: API key rules`, () => {
    let t: TestApp;
    let s: SubscriptionServices;
    let publisher: UserRow;
    let consumer: UserRow;
    let apiId: string;
    let plan: PlanRow;

    beforeAll(async () => {
      // No background ticks: the expiring-key scan runs when the test calls it, not meanwhile.
      t = await startTestApp(dialect, { options: { schedulerTickMs: 0 } });
      s = subscriptionServices(t);
      publisher = await createUser(t.db);
      consumer = await createUser(t.db);
      apiId = (await newApi(s, publisher)).id;
      plan = await publishedPlan(s, publisher, apiId);
    });
    afterAll(() => t?.close());

    /** An accepted subscription (ending when told) with its first key. */
    const accepted = async (endingAt: number | null = null): Promise<SubscriptionRow> => {
      const app = await ownedApplication(t, consumer);
      const sub = await s.subscriptions.subscribe(consumer, { planId: plan.id, applicationId: app.id });
      return s.subscriptions.accept(publisher, apiId, sub.id, { ending_at: endingAt });
    };
    const keysOf = (id: string) => findApiKeysOfSubscription(t.db, id);

    describe('issue', () => {
      it('issues unguessable, distinct keys of 192 bits', () => {
        const keys = new Set(Array.from({ length: 2000 }, generateApiKey));
        expect(keys.size).toBe(2000);
        for (const key of [...keys].slice(0, 20)) {
          expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
          expect(Buffer.from(key, 'base64url')).toHaveLength(24);
        }
      });

      it('issues no key to a subscription of an OAuth2 or JWT plan', async () => {
        const jwt = await publishedPlan(s, publisher, apiId, {
          security: 'JWT',
          securityDefinition: JWT_DEFINITION,
          validation: 'AUTO',
        });
        const app = await ownedApplication(t, consumer, { client_id: `client-${dialect}` });
        const sub = await s.subscriptions.subscribe(consumer, { planId: jwt.id, applicationId: app.id });
        expect(sub.status).toBe('ACCEPTED');
        expect(await keysOf(sub.id)).toEqual([]);
        expect(await refusal(s.keys.renew(consumer, sub.id))).toMatchObject({
          message: KEY_NOT_API_KEY_PLAN,
        });
      });
    });

    describe('renew', () => {
      it('issues a new key; the previous one keeps working 2 hours', async () => {
        const sub = await accepted();
        const [first] = await keysOf(sub.id);
        const before = t.clock.peek();
        const renewed = await s.keys.renew(consumer, sub.id);
        expect(renewed.key).not.toBe(first!.key);
        expect(renewed).toMatchObject({ revoked: 0, expire_at: null, subscription_id: sub.id });
        const previous = (await findApiKey(t.db, first!.key))!;
        expect(previous.revoked).toBe(0);
        expect(previous.expire_at! - before).toBeGreaterThanOrEqual(API_KEY_RENEWAL_GRACE_MS);
        expect(previous.expire_at! - before).toBeLessThan(API_KEY_RENEWAL_GRACE_MS + 1000);
        expect(previous.updated_at).toBeGreaterThan(first!.updated_at);
        expect((await keysOf(sub.id)).map((k) => k.key)).toEqual([renewed.key, first!.key]);
        const notified = await findNotificationsOfUser(t.db, consumer.id, { offset: 0, limit: 200 });
        expect(notified.rows.some((n) => n.title === 'API key renewed')).toBe(true);
      });

      it('never lets the previous key outlive the subscription', async () => {
        const end = t.clock.peek() + 30 * 60_000;
        const sub = await accepted(end);
        const [first] = await keysOf(sub.id);
        await s.keys.renew(consumer, sub.id);
        expect((await findApiKey(t.db, first!.key))!.expire_at).toBe(end);
      });

      it('keeps an earlier expiry of the previous key', async () => {
        const sub = await accepted();
        const [first] = await keysOf(sub.id);
        const soon = t.clock.peek() + 10 * 60_000;
        await s.keys.setExpiry(publisher, apiId, first!.key, soon);
        await s.keys.renew(consumer, sub.id);
        expect((await findApiKey(t.db, first!.key))!.expire_at).toBe(soon);
      });

      it('refuses to renew unless the subscription is accepted', async () => {
        const sub = await accepted();
        await s.subscriptions.pause(publisher, apiId, sub.id);
        expect(await refusal(s.keys.renew(consumer, sub.id))).toMatchObject({
          status: 400,
          message: KEY_NEEDS_ACCEPTED,
        });
        await s.subscriptions.close(publisher, apiId, sub.id);
        expect(await refusal(s.keys.renew(consumer, sub.id))).toMatchObject({ message: KEY_NEEDS_ACCEPTED });
        expect(await keysOf(sub.id)).toHaveLength(1);
      });
    });

    describe('revoke', () => {
      it('revokes a key at once and tells the owner', async () => {
        const sub = await accepted();
        const [key] = await keysOf(sub.id);
        const revoked = await s.keys.revoke(publisher, sub.id, key!.key);
        expect(revoked).toMatchObject({ revoked: 1 });
        expect(revoked.revoked_at).toBe(revoked.updated_at);
        const notified = await findNotificationsOfUser(t.db, consumer.id, { offset: 0, limit: 200 });
        expect(
          notified.rows.some((n) => n.title === 'API key revoked' && !n.message.includes(key!.key)),
        ).toBe(true);
      });

      it('refuses a key already revoked, a key of another subscription, and a subscription not accepted', async () => {
        const sub = await accepted();
        const [key] = await keysOf(sub.id);
        await s.keys.revoke(publisher, sub.id, key!.key);
        expect(await refusal(s.keys.revoke(publisher, sub.id, key!.key))).toMatchObject({
          message: KEY_ALREADY_REVOKED,
        });
        const other = await accepted();
        expect((await refusal(s.keys.revoke(publisher, other.id, key!.key))).status).toBe(404);
        await s.subscriptions.pause(publisher, apiId, other.id);
        const [otherKey] = await keysOf(other.id);
        expect(await refusal(s.keys.revoke(publisher, other.id, otherKey!.key))).toMatchObject({
          message: KEY_NEEDS_ACCEPTED,
        });
        expect((await findApiKey(t.db, otherKey!.key))!.revoked).toBe(0);
      });
    });

    describe('expiry date', () => {
      it('sets an expiry from now up to the subscription end, and tells the owner at once', async () => {
        const end = t.clock.peek() + 10 * DAY;
        const sub = await accepted(end);
        const [key] = await keysOf(sub.id);
        const at = t.clock.peek() + 5 * DAY;
        expect((await s.keys.setExpiry(publisher, apiId, key!.key, at)).expire_at).toBe(at);
        expect((await s.keys.setExpiry(publisher, apiId, key!.key, end)).expire_at).toBe(end);
        const notified = await findNotificationsOfUser(t.db, consumer.id, { offset: 0, limit: 200 });
        expect(notified.rows.some((n) => n.title === 'API key expiring')).toBe(true);
      });

      it('refuses a date in the past, after the subscription end, or after 2099 without an end', async () => {
        const end = t.clock.peek() + 10 * DAY;
        const sub = await accepted(end);
        const [key] = await keysOf(sub.id);
        expect(await refusal(s.keys.setExpiry(publisher, apiId, key!.key, t.clock.peek() - 1000))).toEqual({
          status: 400,
          message: KEY_EXPIRY_IN_PAST,
          field: 'expire_at',
        });
        expect(await refusal(s.keys.setExpiry(publisher, apiId, key!.key, end + 1))).toEqual({
          status: 400,
          message: KEY_EXPIRY_AFTER(end),
          field: 'expire_at',
        });
        const open = await accepted();
        const [openKey] = await keysOf(open.id);
        expect(
          await refusal(s.keys.setExpiry(publisher, apiId, openKey!.key, API_KEY_MAX_EXPIRY + 1)),
        ).toMatchObject({
          field: 'expire_at',
        });
        expect((await s.keys.setExpiry(publisher, apiId, openKey!.key, API_KEY_MAX_EXPIRY)).expire_at).toBe(
          API_KEY_MAX_EXPIRY,
        );
        expect((await findApiKey(t.db, key!.key))!.expire_at).toBe(end);
      });

      it('refuses a revoked key and a key of another API', async () => {
        const sub = await accepted();
        const [key] = await keysOf(sub.id);
        const other = await newApi(s, publisher, 'Other');
        expect(
          (await refusal(s.keys.setExpiry(publisher, other.id, key!.key, t.clock.peek() + DAY))).status,
        ).toBe(404);
        await s.keys.revoke(publisher, sub.id, key!.key);
        expect(
          await refusal(s.keys.setExpiry(publisher, apiId, key!.key, t.clock.peek() + DAY)),
        ).toMatchObject({
          message: KEY_ALREADY_REVOKED,
        });
      });

      it('tells the owners of keys expiring within 7 days once, not the keys replaced by a renewal', async () => {
        const sub = await accepted(t.clock.peek() + 3 * DAY);
        const far = await accepted(t.clock.peek() + KEY_EXPIRY_NOTICE_MS + 10 * DAY);
        const renewed = await accepted();
        await s.keys.renew(consumer, renewed.id);
        const count = async () =>
          (await findNotificationsOfUser(t.db, consumer.id, { offset: 0, limit: 500 })).rows.filter(
            (n) => n.title === 'API key expiring',
          ).length;
        const before = await count();
        const announced = await s.keys.notifyExpiringKeys();
        expect(announced).toBeGreaterThanOrEqual(1);
        expect(await count()).toBe(before + announced);
        const [key] = await keysOf(sub.id);
        expect(key!.expiry_notified_at).not.toBeNull();
        expect((await keysOf(far.id))[0]!.expiry_notified_at).toBeNull();
        expect(await s.keys.notifyExpiringKeys()).toBe(0);
      });
    });

    it('audits renewals, revocations and expiry dates on both sides, without the whole key', async () => {
      const sub = await accepted();
      const [first] = await keysOf(sub.id);
      await s.keys.setExpiry(publisher, apiId, first!.key, t.clock.peek() + DAY);
      const renewed = await s.keys.renew(consumer, sub.id);
      await s.keys.revoke(publisher, sub.id, renewed.key);
      for (const [type, id] of [
        ['API', apiId],
        ['APPLICATION', sub.application_id],
      ] as const) {
        const { rows } = await searchAudits(t.db, {
          references: [{ type, ids: [id] }],
          offset: 0,
          limit: 500,
        });
        const mine = rows.filter((r) => JSON.parse(r.properties).SUBSCRIPTION === sub.id);
        expect(mine.map((r) => r.event)).toEqual(
          expect.arrayContaining(['APIKEY_EXPIRED', 'APIKEY_RENEWED', 'APIKEY_REVOKED']),
        );
        expect(JSON.stringify(mine)).not.toContain(renewed.key);
      }
    });
  });
}
