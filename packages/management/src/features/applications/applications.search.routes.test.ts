import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, signInNewUser, startTestApp } from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { apiUsers, createApiAs } from '../apis/test-support/index.js';

/** `applications?query=`: names found case-insensitively, as the subscription dialog of Gravitee 1.x. */
for (const dialect of await testDialects()) {
  describe(`${dialect}: GET applications?query=`, () => {
    let t: TestApp;
    let u: ApiUsers;
    let consumer: SignedInUser;
    let consumerApp: string;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
      consumer = await signInNewUser(t.app, t.db, {}, { firstname: 'Connie' });
      await createApiAs(t, u.publisher.session);
      const res = await call(t.app, consumer.session, {
        method: 'POST',
        url: '/applications',
        payload: {
          name: 'Weather Station',
          description: 'Forecasts on a wall',
          settings: { app: { client_id: 'weather-station-secret-ish' } },
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      consumerApp = res.json<{ id: string }>().id;
    });
    afterAll(() => t?.close());

    const search = (session: SignedInUser['session'], query: string) =>
      call(t.app, session, { method: 'GET', url: `/applications?query=${encodeURIComponent(query)}` });

    it('finds its own application by any case of a part of its name', async () => {
      for (const query of ['weather', 'WEATHER STATION', 'ther sta']) {
        const res = await search(consumer.session, query);
        expect(res.json().map((a: { id: string }) => a.id)).toEqual([consumerApp]);
      }
    });

    it("finds another user's application by name for an API publisher, without its settings nor owner email", async () => {
      const res = await search(u.publisher.session, 'Ther Station');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([
        expect.objectContaining({
          id: consumerApp,
          name: 'Weather Station',
          owner: { id: consumer.user.id, displayName: expect.stringContaining('Connie') },
        }),
      ]);
      expect(res.json()[0]).not.toHaveProperty('settings');
      expect(JSON.stringify(res.json())).not.toContain('weather-station-secret-ish');
      expect(JSON.stringify(res.json())).not.toContain(String(consumer.user.email));
      // Words of the description are not a name.
      expect((await search(u.publisher.session, 'forecasts')).json()).toEqual([]);
      // Without a query, only the publisher's own applications.
      const all = await call(t.app, u.publisher.session, { method: 'GET', url: '/applications' });
      expect(all.json().map((a: { id: string }) => a.id)).not.toContain(consumerApp);
    });

    it('finds nothing of others for a user who subscribes no application to any API', async () => {
      expect((await search(u.outsider.session, 'weather')).json()).toEqual([]);
    });
  });
}
