import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { call, grantRoleOn, signInNewUser, startTestApp } from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, createApiAs } from './test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: who sees the members in an API export`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
    });
    afterAll(() => t?.close());

    it('leaves the members out for a member who may read the API but not manage its members', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const user = await signInNewUser(t.app, t.db);
      await grantRoleOn(t.db, user.user.id, 'API', api.id, 'USER');

      const res = await call(t.app, user.session, { method: 'GET', url: `/apis/${api.id}/export` });

      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty('members');
      expect(res.body).not.toContain(u.publisher.user.source_id);
    });

    it('writes the members for the owner and for an administrator (api-member-u)', async () => {
      const api = await createApiAs(t, u.publisher.session);
      for (const session of [u.publisher.session, u.admin]) {
        const res = await call(t.app, session, { method: 'GET', url: `/apis/${api.id}/export` });
        expect(res.json().members).toEqual([
          { source: 'portico', sourceId: u.publisher.user.source_id, role: 'PRIMARY_OWNER' },
        ]);
      }
    });
  });
}
