import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRow } from '@portico/storage';
import { insertEvent } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, createApi, signInNewUser, startTestApp } from '../../test-support/index.js';

const T = Date.UTC(2026, 2, 1);

for (const dialect of await testDialects()) {
  describe(`${dialect}: platform events`, () => {
    let t: TestApp;
    let admin: SignedInUser;
    let pets: ApiRow;
    let orders: ApiRow;
    /** Event ids by API and type. */
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await signInNewUser(t.app, t.db, { management: 'ADMIN' });
      pets = await createApi(t.db, { name: 'Pets', version: '2.0' });
      orders = await createApi(t.db, { name: 'Orders' });
      const events: [ApiRow, string, number][] = [
        [pets, 'PUBLISH_API', T],
        [pets, 'START_API', T + 1000],
        [orders, 'START_API', T + 2000],
        [orders, 'STOP_API', T + 3000],
      ];
      for (const [api, type, at] of events) {
        const id = randomUUID();
        ids[`${api.name} ${type}`] = id;
        await insertEvent(t.db, {
          ...{ id, type, payload: type === 'PUBLISH_API' ? '{"secret":"definition"}' : null },
          ...{ properties: JSON.stringify({ api_id: api.id }), api_id: api.id, user_id: null },
          ...{ created_at: at, updated_at: at },
        });
      }
    });
    afterAll(() => t.close());

    const events = async (query: string, who = admin) => {
      const res = await call(t.app, who.session, { method: 'GET', url: `/platform/events?${query}` });
      return { status: res.statusCode, body: res.json() };
    };

    it('lists the events newest first, without payload, with the API name and version', async () => {
      const { status, body } = await events(`from=${T}&to=${T + 10_000}`);
      expect(status).toBe(200);
      expect(body.totalElements).toBe(4);
      expect(body.content.map((e: { id: string }) => e.id)).toEqual([
        ids['Orders STOP_API'],
        ids['Orders START_API'],
        ids['Pets START_API'],
        ids['Pets PUBLISH_API'],
      ]);
      expect(body.content[3]).toMatchObject({
        type: 'PUBLISH_API',
        created_at: T,
        payload: null,
        properties: { api_id: pets.id, api_name: 'Pets', api_version: '2.0' },
      });
    });

    it('filters by type, by API and by period, and pages', async () => {
      const byType = await events(`type=START_API,STOP_API&from=${T}&to=${T + 10_000}`);
      expect(byType.body.totalElements).toBe(3);
      const byApi = await events(`api_ids=${pets.id}&type=start_api`);
      expect(byApi.body.content.map((e: { id: string }) => e.id)).toEqual([ids['Pets START_API']]);
      const period = await events(`from=${T + 1000}&to=${T + 2000}`);
      expect(period.body.content.map((e: { id: string }) => e.id)).toEqual([
        ids['Orders START_API'],
        ids['Pets START_API'],
      ]);
      const page = await events('page=1&size=3');
      expect(page.body).toMatchObject({ pageNumber: 1, pageElements: 1, totalElements: 4 });
      expect(page.body.content[0].id).toBe(ids['Pets PUBLISH_API']);
    });

    it('answers 400 on a period that ends before it starts, 403 without management-platform-r', async () => {
      expect((await events(`from=${T + 1}&to=${T}`)).status).toBe(400);
      const user = await signInNewUser(t.app, t.db, { management: 'USER' });
      expect((await events('', user)).status).toBe(403);
    });
  });
}
