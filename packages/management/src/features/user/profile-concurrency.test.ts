import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { call, errorBody, signInNewUser, startTestApp } from '../../test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: PUT user keeps concurrent updates`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp(dialect);
    });
    afterAll(() => t?.close());

    const profileOf = async (session: Parameters<typeof call>[1]) => {
      const res = await call(t.app, session, { method: 'GET', url: '/user' });
      const { firstname, lastname, email } = res.json<Record<string, string>>();
      return { etag: String(res.headers.etag), body: { firstname, lastname, email } };
    };

    // Each save sends the field it changes: the server writes only what is given, never the rest of the
    // row as the request read it. (Full payloads from one read are what If-Match is for: see below.)
    it('keeps both changes of two saves sent at the same time', async () => {
      const { user, session } = await signInNewUser(t.app, t.db, {}, { firstname: 'Bob', lastname: 'Old' });

      const answers = await Promise.all([
        call(t.app, session, { method: 'PUT', url: '/user', payload: { firstname: 'Robert' } }),
        call(t.app, session, { method: 'PUT', url: '/user', payload: { lastname: 'New' } }),
      ]);

      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      expect(await findUserById(t.db, user.id)).toMatchObject({ firstname: 'Robert', lastname: 'New' });
    });

    it('answers 412 to the second of two saves carrying the If-Match of the same read, and keeps the first', async () => {
      const { user, session } = await signInNewUser(t.app, t.db, {}, { firstname: 'Cy', lastname: 'Old' });
      const read = await profileOf(session);

      const answers = await Promise.all([
        call(t.app, session, {
          method: 'PUT',
          url: '/user',
          headers: { 'if-match': read.etag },
          payload: { ...read.body, firstname: 'Cyrus' },
        }),
        call(t.app, session, {
          method: 'PUT',
          url: '/user',
          headers: { 'if-match': read.etag },
          payload: { ...read.body, firstname: 'Cyril' },
        }),
      ]);

      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 412]);
      const refused = answers.find((a) => a.statusCode === 412)!;
      expect(refused.json()).toEqual(
        errorBody(412, 'The resource was modified by someone else: reload it before saving'),
      );
      const winner = answers.find((a) => a.statusCode === 200)!.json<{ firstname: string }>().firstname;
      expect((await findUserById(t.db, user.id))?.firstname).toBe(winner);

      const fresh = await profileOf(session);
      const retried = await call(t.app, session, {
        method: 'PUT',
        url: '/user',
        headers: { 'if-match': fresh.etag },
        payload: { lastname: 'Later' },
      });
      expect(retried.statusCode).toBe(200);
      expect(retried.headers.etag).not.toBe(fresh.etag);
    });
  });
}
