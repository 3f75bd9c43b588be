import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewRequestRow } from '@portico/storage';
import { insertRequestBatch, insertTenant } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, signInNewUser, startTestApp } from '../../test-support/index.js';

const T = 1_700_000_000_000;
const row = (id: string, tenant: string | null): NewRequestRow => ({
  ...{
    id,
    transaction_id: id,
    timestamp: T,
    gateway: 'gw',
    api_id: 'a',
    application_id: null,
    plan_id: null,
  },
  ...{ subscription_id: null, api_key: null, user: null, tenant, method: 'GET', path: '/', uri: '/' },
  ...{ mapped_path: null, host: null, status: 200, request_content_length: 0, response_content_length: 0 },
  ...{ response_time: 5, api_response_time: 4, latency: 1, endpoint: null, remote_address: null },
  ...{ user_agent: null, security_type: null, error_key: null, message: null, has_log: 0 },
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: analytics metadata of tenants`, () => {
    let t: TestApp;
    let admin: SignedInUser;
    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await signInNewUser(t.app, t.db, { management: 'ADMIN' });
      await insertTenant(t.db, { id: 'eu', name: 'Europe', description: null });
      await insertRequestBatch(
        t.db,
        [row('r1', 'eu'), row('r2', 'eu'), row('r3', 'gone'), row('r4', null)],
        [],
      );
    });
    afterAll(() => t.close());

    it('names the tenants of a group_by on tenant, a removed one as deleted', async () => {
      const res = await call(t.app, admin.session, {
        method: 'GET',
        url: `/platform/analytics?type=group_by&field=tenant&from=${T - 1000}&to=${T + 1000}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        values: { eu: 2, gone: 1 },
        metadata: {
          eu: { name: 'Europe', order: '0' },
          gone: { name: 'Deleted tenant', deleted: 'true', order: '1' },
        },
      });
    });
  });
}
