import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { call, createUser, startTestApp } from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { apiUsers, createApiAs } from '../apis/test-support/index.js';

/** The members calls of APIs and applications as Gravitee 1.x clients use them. */
for (const dialect of await testDialects()) {
  describe(`${dialect}: members as Gravitee 1.x clients add them`, () => {
    let t: TestApp;
    let u: ApiUsers;
    const scopes: { name: string; url: () => string }[] = [];

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
      const api = await createApiAs(t, u.publisher.session);
      const application = await call(t.app, u.publisher.session, {
        method: 'POST',
        url: '/applications',
        payload: { name: 'Members app', description: 'Has members' },
      });
      expect(application.statusCode, application.body).toBe(201);
      const applicationId = application.json<{ id: string }>().id;
      scopes.push(
        { name: 'API', url: () => `/apis/${api.id}/members` },
        { name: 'application', url: () => `/applications/${applicationId}/members` },
      );
    });
    afterAll(() => t?.close());

    const members = async (url: string) =>
      (await call(t.app, u.publisher.session, { method: 'GET', url })).json<{ id: string; role: string }[]>();

    it.each(['API', 'application'])(
      "adds a %s member by the reference search/users gives (the user's id), or by username",
      async (scope) => {
        const url = scopes.find((s) => s.name === scope)!.url();
        const found = await createUser(t.db, { firstname: 'Refka', lastname: `Member ${scope}` });
        const byName = await createUser(t.db);
        const search = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/search/users?q=${encodeURIComponent(`Member ${scope}`)}`,
        });
        const reference = search
          .json<{ id: string; reference: string }[]>()
          .find((s) => s.id === found.id)!.reference;

        const added = await call(t.app, u.publisher.session, {
          method: 'POST',
          url,
          payload: { reference, role: 'USER' },
        });
        const addedByName = await call(t.app, u.publisher.session, {
          method: 'POST',
          url,
          payload: { reference: byName.source_id, role: 'USER' },
        });

        expect(added.statusCode, added.body).toBe(201);
        expect(addedByName.statusCode, addedByName.body).toBe(201);
        expect(await members(url)).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ id: found.id, role: 'USER' }),
            expect.objectContaining({ id: byName.id, role: 'USER' }),
          ]),
        );
      },
    );

    it.each(['API', 'application'])(
      'answers 201 to an addition or a change of a %s member and 200 to a removal, as Gravitee 1.x',
      async (scope) => {
        const url = scopes.find((s) => s.name === scope)!.url();
        const member = await createUser(t.db);
        const add = (role: string) =>
          call(t.app, u.publisher.session, { method: 'POST', url, payload: { id: member.id, role } });
        expect((await add('USER')).statusCode).toBe(201);
        expect((await add('OWNER')).statusCode).toBe(201);
        const removed = await call(t.app, u.publisher.session, {
          method: 'DELETE',
          url: `${url}?user=${member.id}`,
        });
        expect(removed.statusCode).toBe(200);
        expect(removed.body).toBe('');
        expect((await members(url)).map((m) => m.id)).not.toContain(member.id);
      },
    );

    it.each(['API', 'application'])('answers 404 to a reference that names nobody', async (scope) => {
      const url = scopes.find((s) => s.name === scope)!.url();
      const res = await call(t.app, u.publisher.session, {
        method: 'POST',
        url,
        payload: { reference: 'nobody-at-all', role: 'USER' },
      });
      expect(res.statusCode).toBe(404);
    });
  });
}
