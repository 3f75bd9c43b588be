import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAllParameters, findParameter, insertRole } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  errorBody,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

type Tree = Record<string, Record<string, unknown>>;

for (const dialect of await testDialects()) {
  describe(`${dialect}: portal settings (GET/POST portal)`, () => {
    let t: TestApp;
    let admin: TestSession;
    let plainUser: SignedInUser;
    let settingsReader: SignedInUser;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      plainUser = await signInNewUser(t.app, t.db);
      await insertRole(t.db, {
        scope: 'PORTAL',
        name: 'SETTINGS_READER',
        description: 'Reads the settings',
        is_default: 0,
        is_system: 0,
        permissions: JSON.stringify({ SETTINGS: ['R'] }),
        created_at: 0,
        updated_at: 0,
      });
      settingsReader = await signInNewUser(t.app, t.db, { portal: 'SETTINGS_READER' });
    });
    afterAll(() => t?.close());

    const getPortal = (session?: TestSession) => call(t.app, session, { method: 'GET', url: '/portal' });
    const postPortal = (
      payload: unknown,
      session: TestSession = admin,
      headers: Record<string, string> = {},
    ) => call(t.app, session, { method: 'POST', url: '/portal', payload: payload as object, headers });
    const storedSettings = async () =>
      Object.fromEntries(
        (await findAllParameters(t.db))
          .filter((p) => !p.key.startsWith('portico.internal.'))
          .map((p) => [p.key, p.value]),
      );
    const settingsAudits = () =>
      t.db
        .selectFrom('audits')
        .selectAll()
        .where('event', '=', 'SETTINGS_UPDATED')
        .orderBy('created_at')
        .execute();

    describe('GET portal', () => {
      it('serves the public settings to anybody, with their defaults and an ETag', async () => {
        const res = await getPortal();
        expect(res.statusCode).toBe(200);
        const tree = res.json<Tree>();
        expect(tree.company).toEqual({ name: 'Portico' });
        expect(tree.portal).toMatchObject({ userCreation: { enabled: true }, apikeyHeader: 'X-Api-Key' });
        expect(tree.authentication).toEqual({
          forceLogin: { enabled: false },
          localLogin: { enabled: true },
        });
        expect(tree).not.toHaveProperty('email');
        expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
      });

      it('keeps the private groups from a user without portal-settings-r', async () => {
        const tree = (await getPortal(plainUser.session)).json<Tree>();
        expect(tree).toHaveProperty('company');
        expect(tree).not.toHaveProperty('email');
      });

      it('adds the private groups for portal-settings-r holders, never the secrets', async () => {
        expect(
          (await postPortal({ email: { password: 'smtp-pa55word', host: 'smtp.example.test' } })).statusCode,
        ).toBe(200);
        for (const session of [settingsReader.session, admin]) {
          const res = await getPortal(session);
          const tree = res.json<Tree>();
          expect(tree.email).toMatchObject({ host: 'smtp.example.test', port: 587, protocol: 'smtp' });
          expect(tree.email).not.toHaveProperty('password');
          expect(res.body).not.toContain('smtp-pa55word');
        }
      });

      it('never serves the internal session secret', async () => {
        const secret = await findParameter(t.db, 'portico.internal.jwtSecret');
        expect(secret?.value).toEqual(expect.any(String));
        expect((await getPortal(admin)).body).not.toContain(secret!.value);
      });
    });

    describe('POST portal', () => {
      it('saves a partial payload, answers the whole tree, and leaves the other settings alone', async () => {
        const before = await storedSettings();
        const res = await postPortal({ authentication: { forceLogin: { enabled: true } } });
        expect(res.statusCode).toBe(200);
        const tree = res.json<Tree>();
        expect(tree.authentication).toEqual({ forceLogin: { enabled: true }, localLogin: { enabled: true } });
        expect(tree.company).toEqual({ name: 'Portico' });
        expect(await storedSettings()).toEqual({ ...before, 'authentication.forceLogin.enabled': 'true' });
        expect((await getPortal()).json<Tree>().authentication).toMatchObject({
          forceLogin: { enabled: true },
        });
      });

      it('audits what changed, with its JSON patch', async () => {
        const res = await postPortal({ company: { name: 'ACME APIs' }, scheduler: { tasks: 30 } });
        expect(res.statusCode).toBe(200);
        const audit = (await settingsAudits()).at(-1)!;
        expect(audit).toMatchObject({ reference_type: 'ENVIRONMENT', reference_id: 'DEFAULT' });
        expect(JSON.parse(audit.properties)).toEqual({
          'company.name': 'ACME APIs',
          'scheduler.tasks': '30',
        });
        expect(JSON.parse(audit.patch!)).toEqual(
          expect.arrayContaining([
            { op: 'replace', path: '/company.name', value: 'ACME APIs' },
            { op: 'replace', path: '/scheduler.tasks', value: 30 },
          ]),
        );
        expect(JSON.parse(audit.patch!)).toHaveLength(2);
      });

      it('takes a null number for unset: back to its default, the stored value removed', async () => {
        expect((await postPortal({ portal: { uploadMedia: { maxSizeInOctet: 5000 } } })).statusCode).toBe(
          200,
        );
        const res = await postPortal({
          portal: { uploadMedia: { maxSizeInOctet: null } },
          scheduler: { tasks: null },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<Tree>().portal).toMatchObject({ uploadMedia: { maxSizeInOctet: 1_000_000 } });
        expect(await findParameter(t.db, 'portal.uploadMedia.maxSizeInOctet')).toBeUndefined();
        expect(await findParameter(t.db, 'scheduler.tasks')).toBeUndefined();
        expect(JSON.parse((await settingsAudits()).at(-1)!.properties)).toMatchObject({
          'portal.uploadMedia.maxSizeInOctet': '1000000',
        });
        const unsetAgain = await postPortal({ portal: { uploadMedia: { maxSizeInOctet: null } } });
        expect(unsetAgain.statusCode).toBe(200);
      });

      it('writes no audit entry when nothing changes', async () => {
        await postPortal({ portal: { rating: { enabled: false } } });
        const count = (await settingsAudits()).length;
        const res = await postPortal({ portal: { rating: { enabled: false } } });
        expect(res.statusCode).toBe(200);
        expect(await settingsAudits()).toHaveLength(count);
      });

      it('masks a secret in the audit trail', async () => {
        await postPortal({ email: { password: 'another-secret-pass' } });
        const audit = (await settingsAudits()).at(-1)!;
        expect(JSON.parse(audit.properties)).toEqual({ 'email.password': '********' });
        expect(audit.patch).not.toContain('another-secret-pass');
        expect(await findParameter(t.db, 'email.password')).toMatchObject({ value: 'another-secret-pass' });
      });

      describe('refuses with 400 naming the field, storing nothing', () => {
        it.each([
          ['an unknown top-level key', { colour: 'blue' }, 'colour', 'unknown field'],
          [
            'an unknown nested key',
            { portal: { apis: { tilesMode: { enable: true } } } },
            'portal.apis.tilesMode.enable',
            'unknown field',
          ],
          [
            'a string for a boolean',
            { portal: { userCreation: { enabled: 'yes' } } },
            'portal.userCreation.enabled',
            /expected boolean/,
          ],
          ['a string for a number', { scheduler: { tasks: '10' } }, 'scheduler.tasks', /expected number/],
          ['a number below its minimum', { scheduler: { tasks: 0 } }, 'scheduler.tasks', /./],
          ['a value outside its list', { email: { protocol: 'ftp' } }, 'email.protocol', /./],
          [
            'a label with a comma',
            { api: { labelsDictionary: ['a,b'] } },
            'api.labelsDictionary.0',
            /must not contain a comma/,
          ],
          ['a value where a group is expected', { portal: true }, 'portal', /./],
        ])('%s', async (_name, payload, field, reason) => {
          const before = await storedSettings();
          const audits = (await settingsAudits()).length;
          // A valid change alongside: the whole payload is refused.
          const res = await postPortal({ company: { name: 'Should not be saved' }, ...payload });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody(field, reason));
          expect(await storedSettings()).toEqual(before);
          expect(await settingsAudits()).toHaveLength(audits);
        });
      });

      it('honours If-Match: the current ETag saves, a stale one is refused with 412', async () => {
        const etag = (await getPortal()).headers.etag as string;
        const saved = await postPortal({ portal: { title: 'First title' } }, admin, { 'if-match': etag });
        expect(saved.statusCode).toBe(200);
        expect(saved.headers.etag).not.toBe(etag);

        const stale = await postPortal({ portal: { title: 'Second title' } }, admin, { 'if-match': etag });
        expect(stale.statusCode).toBe(412);
        expect(stale.json()).toEqual(
          errorBody(412, 'The resource was modified by someone else: reload it before saving'),
        );
        expect((await findParameter(t.db, 'portal.title'))?.value).toBe('First title');
      });

      it('is refused to a user without portal-settings-u or -c (PORTAL scope), even a settings reader', async () => {
        const before = await storedSettings();
        for (const session of [plainUser.session, settingsReader.session]) {
          const res = await postPortal({ company: { name: 'Hijacked' } }, session);
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual(
            errorBody(403, 'You do not have the permission portal-settings-u or portal-settings-c'),
          );
        }
        expect(await storedSettings()).toEqual(before);
      });

      it('is refused without a session', async () => {
        const res = await call(t.app, undefined, { method: 'POST', url: '/portal', payload: {} });
        expect(res.statusCode).toBe(401);
      });
    });
  });
}
