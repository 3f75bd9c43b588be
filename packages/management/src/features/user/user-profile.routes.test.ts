import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById, findUserBySource } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import { call, invalidFieldBody, signInNewUser } from '../../test-support/index.js';
import type { UserWorld } from './test-support/user-calls.js';
import { auditsOfUser, dataUrl, png, startUserWorld } from './test-support/user-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: the current user (user/*): profile`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      ({ t, admin } = await startUserWorld(dialect));
    });
    afterAll(() => t?.close());

    const auditsOf = auditsOfUser((): UserWorld => ({ t, admin }));

    describe('PUT user', () => {
      let me: SignedInUser;
      beforeAll(async () => {
        me = await signInNewUser(t.app, t.db, {}, { firstname: 'Grace', lastname: 'Hopper' });
      });
      const put = (payload: unknown, headers: Record<string, string> = {}) =>
        call(t.app, me.session, { method: 'PUT', url: '/user', payload: payload as object, headers });
      const stored = async () => (await findUserById(t.db, me.user.id))!;

      it('updates names and email with the current ETag, answers a new ETag, and audits the patch', async () => {
        const etag = (await call(t.app, me.session, { method: 'GET', url: '/user' })).headers.etag as string;
        const res = await put(
          { firstname: 'Amazing', lastname: 'Grace', email: 'grace@navy.test' },
          { 'if-match': etag },
        );
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          firstname: 'Amazing',
          lastname: 'Grace',
          email: 'grace@navy.test',
          displayName: 'Amazing Grace',
        });
        expect(res.headers.etag).not.toBe(etag);
        expect(await stored()).toMatchObject({
          firstname: 'Amazing',
          lastname: 'Grace',
          email: 'grace@navy.test',
        });

        const [audit] = await auditsOf(me.user.id, 'USER_UPDATED');
        expect(audit).toMatchObject({ reference_type: 'ENVIRONMENT', reference_id: 'DEFAULT' });
        expect(JSON.parse(audit!.patch!)).toEqual(
          expect.arrayContaining([
            { op: 'replace', path: '/firstname', value: 'Amazing' },
            { op: 'replace', path: '/lastname', value: 'Grace' },
          ]),
        );
        expect(audit!.patch).not.toContain('$2'); // no bcrypt hash in the trail

        const stale = await put({ firstname: 'Again' }, { 'if-match': etag });
        expect(stale.statusCode).toBe(412);
        expect((await stored()).firstname).toBe('Amazing');
      });

      it('stores a PNG picture, served back by user/avatar', async () => {
        const bytes = png();
        const res = await put({ picture: dataUrl('image/png', bytes) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ hasPicture: true });
        const avatar = await call(t.app, me.session, { method: 'GET', url: '/user/avatar' });
        expect(avatar.statusCode).toBe(200);
        expect(avatar.headers['content-type']).toBe('image/png');
        expect(avatar.rawPayload.equals(bytes)).toBe(true);
      });

      it('removes the picture with null; the avatar becomes the initials', async () => {
        await put({ picture: dataUrl('image/png', png()) });
        const res = await put({ picture: null });
        expect(res.json()).toMatchObject({ hasPicture: false });
        expect((await stored()).picture).toBeNull();
        const avatar = await call(t.app, me.session, { method: 'GET', url: '/user/avatar' });
        expect(avatar.headers['content-type']).toBe('image/svg+xml');
        expect(avatar.body).toContain('>AG</text>');
      });

      describe('refuses, naming the field and changing nothing', () => {
        it.each([
          [
            'a picture larger than 1 MB',
            dataUrl('image/png', png(1024 * 1024 + 1)),
            /image is larger than 1 MB/,
          ],
          [
            'a picture beyond the size limit of the body schema',
            `data:image/png;base64,${'A'.repeat(1_500_004)}`,
            /./,
          ],
          ['a text file', dataUrl('text/plain', Buffer.from('hello')), /must be a base64 image data URL/],
          [
            'an SVG image',
            dataUrl('image/svg+xml', Buffer.from('<svg/>')),
            /must be a PNG, JPEG, GIF or WebP image/,
          ],
          [
            'bytes that are not the declared type',
            dataUrl('image/png', Buffer.from('GIF89a....')),
            /content is not the declared image type/,
          ],
          ['a URL instead of a data URL', 'https://example.test/me.png', /must be a base64 image data URL/],
        ])('%s', async (_name, picture, reason) => {
          const before = await stored();
          const res = await put({ picture, firstname: 'Ignored' });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody('picture', reason));
          expect(await stored()).toEqual(before);
        });

        it('a change of username', async () => {
          const before = await stored();
          const res = await put({ username: 'someone-else', firstname: 'Ignored' });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody('username', 'the username can not be changed'));
          expect(await stored()).toEqual(before);
          expect(await findUserBySource(t.db, 'portico', 'someone-else')).toBeUndefined();
        });

        it('an invalid email', async () => {
          const before = await stored();
          const res = await put({ email: 'grace at navy' });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody('email'));
          expect(await stored()).toEqual(before);
        });
      });

      it('accepts the unchanged username', async () => {
        const res = await put({ username: me.user.source_id, lastname: 'Hopper' });
        expect(res.statusCode).toBe(200);
        expect((await stored()).lastname).toBe('Hopper');
      });
    });
  });
}
