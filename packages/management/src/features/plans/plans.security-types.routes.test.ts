import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlanById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { call, startTestApp } from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { apiUsers, createApiAs } from '../apis/test-support/index.js';

/** Security types as Gravitee 1.x clients give them: absent (an API-key plan), upper or lower case. */
for (const dialect of await testDialects()) {
  describe(`${dialect}: plan security types`, () => {
    let t: TestApp;
    let u: ApiUsers;
    let apiId: string;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
      apiId = (await createApiAs(t, u.publisher.session)).id;
    });
    afterAll(() => t?.close());

    const create = (payload: Record<string, unknown>) =>
      call(t.app, u.publisher.session, {
        method: 'POST',
        url: `/apis/${apiId}/plans`,
        payload: { name: 'Partners', description: 'For partners', ...payload },
      });

    it('makes a new plan without security an API-key plan', async () => {
      const res = await create({});
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ security: 'API_KEY' });
      expect((await findPlanById(t.db, res.json<{ id: string }>().id))?.security).toBe('API_KEY');
    });

    it('still refuses a null security naming the field', async () => {
      const res = await create({ security: null });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'security' });
    });

    it.each(['API_KEY', 'api_key', 'apikey', 'Api_Key'])('takes security %s as API_KEY', async (security) => {
      const res = await create({ security });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ security: 'API_KEY' });
    });

    it('filters the plan list by security in either spelling', async () => {
      await create({ security: 'key_less' });
      for (const security of ['API_KEY', 'api_key']) {
        const res = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${apiId}/plans?status=staging&security=${security}`,
        });
        expect(res.statusCode, res.body).toBe(200);
        const types = res.json<{ security: string }[]>().map((p) => p.security);
        expect(types.length).toBeGreaterThan(0);
        expect(new Set(types)).toEqual(new Set(['API_KEY']));
      }
    });
  });
}
