import { describe, expect, it } from 'vitest';
import { findApiKey, findApiKeysOfSubscription } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { call, errorBody } from '../../test-support/index.js';
import { DAY, useCallsWorld } from './test-support/subscription-calls.js';
import { KEY_ALREADY_REVOKED, KEY_NEEDS_ACCEPTED } from './subscriptions.errors.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API subscription calls: API keys`, () => {
    const { w, accepted, sub } = useCallsWorld(dialect);

    describe('API keys', () => {
      it('lists, renews (old key kept 2 hours), revokes and sets the expiry of keys', async () => {
        const s = await accepted(w.autoPlan);
        const [first] = await findApiKeysOfSubscription(w.t.db, s.id);
        const renewed = await call(w.t.app, w.validator.session, { method: 'POST', url: sub(s.id) });
        expect(renewed.statusCode).toBe(201);
        const newKey = renewed.json<{ key: string }>().key;
        expect(newKey).not.toBe(first!.key);
        const list = await call(w.t.app, w.reviewer.session, { method: 'GET', url: sub(s.id, '/keys') });
        expect(list.json().map((k: { key: string }) => k.key)).toEqual([newKey, first!.key]);
        expect(list.json()[1].expire_at).toBeGreaterThan(w.t.clock.peek() + 3_500_000);

        const expiry = w.t.clock.peek() + 5 * DAY;
        const put = await call(w.t.app, w.validator.session, {
          method: 'PUT',
          url: `/apis/${w.apiId}/keys/${newKey}`,
          payload: { expire_at: expiry },
        });
        expect(put.statusCode, put.body).toBe(200);
        expect(put.json()).toMatchObject({ key: newKey, expire_at: expiry, expired: false });

        const revoked = await call(w.t.app, w.validator.session, {
          method: 'DELETE',
          url: sub(s.id, `/keys/${first!.key}`),
        });
        expect(revoked.statusCode).toBe(204);
        expect((await findApiKey(w.t.db, first!.key))?.revoked).toBe(1);
        const viaKeyPath = await call(w.t.app, w.validator.session, {
          method: 'DELETE',
          url: `/apis/${w.apiId}/keys/${newKey}`,
        });
        expect(viaKeyPath.statusCode).toBe(204);
        expect((await findApiKey(w.t.db, newKey))?.revoked).toBe(1);
      });

      it('refuses an expiry that is not a date or after 2099, naming the field, and changes nothing', async () => {
        const s = await accepted(w.autoPlan);
        const [key] = await findApiKeysOfSubscription(w.t.db, s.id);
        for (const expire_at of ['soon', Date.UTC(2100, 0, 1)]) {
          const res = await call(w.t.app, w.validator.session, {
            method: 'PUT',
            url: `/apis/${w.apiId}/keys/${key!.key}`,
            payload: { expire_at },
          });
          expect(res.statusCode).toBe(400);
          expect(res.json().field).toBe('expire_at');
        }
        expect((await findApiKey(w.t.db, key!.key))?.expire_at).toBeNull();
      });

      it('refuses to renew the key of a paused subscription and to revoke a revoked key, and changes nothing', async () => {
        const s = await accepted(w.autoPlan);
        const [key] = await findApiKeysOfSubscription(w.t.db, s.id);
        await call(w.t.app, w.validator.session, { method: 'POST', url: sub(s.id, '/status?status=PAUSED') });
        const renew = await call(w.t.app, w.validator.session, { method: 'POST', url: sub(s.id) });
        expect(renew.json()).toEqual(errorBody(400, KEY_NEEDS_ACCEPTED));
        await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(s.id, '/status?status=RESUMED'),
        });
        await call(w.t.app, w.validator.session, { method: 'DELETE', url: sub(s.id, `/keys/${key!.key}`) });
        const again = await call(w.t.app, w.validator.session, {
          method: 'DELETE',
          url: sub(s.id, `/keys/${key!.key}`),
        });
        expect(again.json()).toEqual(errorBody(400, KEY_ALREADY_REVOKED));
        expect(await findApiKeysOfSubscription(w.t.db, s.id)).toHaveLength(1);
      });

      it('refuses users without the permissions (403), and keeps the keys as they are', async () => {
        const s = await accepted(w.autoPlan);
        const [key] = await findApiKeysOfSubscription(w.t.db, s.id);
        expect(
          (await call(w.t.app, w.u.outsider.session, { method: 'GET', url: sub(s.id, '/keys') })).statusCode,
        ).toBe(403);
        for (const request of [
          { method: 'POST' as const, url: sub(s.id) },
          { method: 'DELETE' as const, url: sub(s.id, `/keys/${key!.key}`) },
          { method: 'DELETE' as const, url: `/apis/${w.apiId}/keys/${key!.key}` },
          {
            method: 'PUT' as const,
            url: `/apis/${w.apiId}/keys/${key!.key}`,
            payload: { expire_at: w.t.clock.peek() + DAY },
          },
        ]) {
          const res = await call(w.t.app, w.reviewer.session, request);
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-u'));
        }
        expect(await findApiKeysOfSubscription(w.t.db, s.id)).toEqual([key]);
      });
    });
  });
}
