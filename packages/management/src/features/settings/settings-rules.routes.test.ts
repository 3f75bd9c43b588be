import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAllParameters, insertRole } from '@portico/storage';
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

type Tree = Record<string, unknown>;

/** The value at a dotted path of the settings tree. */
const at = (tree: Tree, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);

/**
 * The settings the spec names (console-applications-and-settings.md section 3, portal-and-platform.md
 * 1, and the analytics and API logging screens of 2.3).
 */
const SPEC_KEYS = [
  'company.name',
  'management.title',
  'plan.security.apikey.enabled',
  'plan.security.keyless.enabled',
  'plan.security.oauth2.enabled',
  'plan.security.jwt.enabled',
  'portal.title',
  'portal.entrypoint',
  'portal.apikeyHeader',
  'portal.devMode.enabled',
  'portal.rating.enabled',
  'portal.rating.comment.mandatory',
  'portal.apis.tilesMode.enabled',
  'portal.apis.viewMode.enabled',
  'portal.apis.apiHeaderShowTags.enabled',
  'portal.apis.apiHeaderShowViews.enabled',
  'portal.analytics.enabled',
  'portal.analytics.trackingId',
  'portal.support.enabled',
  'portal.userCreation.enabled',
  'portal.uploadMedia.enabled',
  'portal.uploadMedia.maxSizeInOctet',
  'theme.name',
  'theme.logo',
  'theme.loader',
  'theme.css',
  'scheduler.tasks',
  'scheduler.notifications',
  'documentation.url',
  'apiQualityMetrics.enabled',
  'apiQualityMetrics.functionalDocumentationWeight',
  'apiQualityMetrics.technicalDocumentationWeight',
  'apiQualityMetrics.healthcheckWeight',
  'apiQualityMetrics.descriptionWeight',
  'apiQualityMetrics.descriptionMinLength',
  'apiQualityMetrics.logoWeight',
  'apiQualityMetrics.viewsWeight',
  'apiQualityMetrics.labelsWeight',
  'logging.maxDurationMillis',
  'logging.user.displayed',
  'analytics.clientTimeout',
  'application.registration.enabled',
  'authentication.forceLogin.enabled',
  'authentication.localLogin.enabled',
];

for (const dialect of await testDialects()) {
  describe(`${dialect}: portal settings rules (keys, creation, features off)`, () => {
    let t: TestApp;
    let admin: TestSession;
    let creator: SignedInUser;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      await insertRole(t.db, {
        scope: 'PORTAL',
        name: 'SETTINGS_CREATOR',
        description: 'Creates settings only',
        is_default: 0,
        is_system: 0,
        permissions: JSON.stringify({ SETTINGS: ['C'] }),
        created_at: 0,
        updated_at: 0,
      });
      creator = await signInNewUser(t.app, t.db, { portal: 'SETTINGS_CREATOR' });
    });
    afterAll(() => t?.close());

    const getPortal = async (session?: TestSession) =>
      (await call(t.app, session, { method: 'GET', url: '/portal' })).json<Tree>();
    const postPortal = (payload: unknown, session: TestSession = admin) =>
      call(t.app, session, { method: 'POST', url: '/portal', payload: payload as object });
    const stored = async () =>
      Object.fromEntries((await findAllParameters(t.db)).map((p) => [p.key, p.value]));

    it('serves every setting the spec names in GET portal', async () => {
      const tree = await getPortal(admin);
      const missing = SPEC_KEYS.filter((key) => at(tree, key) === undefined);
      expect(missing).toEqual([]);
    });

    describe('validation of the analytics and API logging settings', () => {
      it.each([
        [{ logging: { maxDurationMillis: -1 } }, 'logging.maxDurationMillis'],
        [{ logging: { maxDurationMillis: '3600000' } }, 'logging.maxDurationMillis'],
        [{ analytics: { clientTimeout: -5 } }, 'analytics.clientTimeout'],
        [{ logging: { user: { displayed: 1 } } }, 'logging.user.displayed'],
      ])('refuses %j naming the field, storing nothing', async (payload, field) => {
        const before = await stored();
        const res = await postPortal(payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody(field));
        expect(await stored()).toEqual(before);
      });

      it('saves each on its own (partial payloads)', async () => {
        const res = await postPortal({ logging: { maxDurationMillis: 3_600_000 } });
        expect(res.statusCode).toBe(200);
        await postPortal({ analytics: { clientTimeout: 45_000 } });
        const tree = await getPortal(admin);
        expect(at(tree, 'logging.maxDurationMillis')).toBe(3_600_000);
        expect(at(tree, 'analytics.clientTimeout')).toBe(45_000);
        expect(await stored()).toMatchObject({
          'logging.maxDurationMillis': '3600000',
          'analytics.clientTimeout': '45000',
        });
      });
    });

    describe('portal-settings-c alone creates settings (first save), never changes them', () => {
      it('saves a setting nobody stored yet', async () => {
        const res = await postPortal({ portal: { support: { enabled: false } } }, creator.session);
        expect(res.statusCode, res.body).toBe(200);
        expect((await stored())['portal.support.enabled']).toBe('false');
      });

      it('refuses to change or unset a stored setting with 403 naming portal-settings-u, saving nothing', async () => {
        await postPortal({ company: { name: 'Stored by the admin' } });
        const before = await stored();
        for (const payload of [
          { company: { name: 'Changed by a creator' }, documentation: { url: '/first/' } },
          { logging: { maxDurationMillis: null } },
        ]) {
          const res = await postPortal(payload, creator.session);
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission portal-settings-u'));
        }
        expect(await stored()).toEqual(before);
      });

      it('accepts the whole settings sent back unchanged (the form saves everything)', async () => {
        const tree = await getPortal(creator.session);
        const res = await postPortal(
          { company: tree.company, portal: { title: 'A first title' } },
          creator.session,
        );
        expect(res.statusCode, res.body).toBe(200);
        expect((await stored())['portal.title']).toBe('A first title');
      });
    });

    describe('features that are off stay off in GET portal', () => {
      it('serves the options of a disabled feature as off, and as stored once it is on again', async () => {
        await postPortal({
          portal: { rating: { enabled: true, comment: { mandatory: true } } },
          logging: { audit: { enabled: true, trail: { enabled: true } } },
        });
        await postPortal({ portal: { rating: { enabled: false } }, logging: { audit: { enabled: false } } });
        for (const tree of [await getPortal(), await getPortal(admin)]) {
          expect(at(tree, 'portal.rating')).toEqual({ enabled: false, comment: { mandatory: false } });
        }
        expect(at(await getPortal(admin), 'logging.audit')).toEqual({
          enabled: false,
          trail: { enabled: false },
        });

        await postPortal({ portal: { rating: { enabled: true } } });
        expect(at(await getPortal(), 'portal.rating')).toEqual({
          enabled: true,
          comment: { mandatory: true },
        });
      });
    });
  });
}
