import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNotificationSettingsOf, insertRole } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  grantRoleOn,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: notification settings of APIs, applications and the platform`, () => {
    let t: TestApp;
    let admin: TestSession;
    let apiId: string;
    let appId: string;

    beforeAll(async () => {
      t = await startTestApp(dialect, { options: { schedulerTickMs: 0 } });
      admin = await login(t.app, 'admin', 'admin');
      apiId = (await createApi(t.db)).id;
      appId = (await createApplication(t.db)).id;
    });
    afterAll(() => t?.close());

    const bases = () => [
      { type: 'API', base: `/apis/${apiId}`, hooks: '/apis/hooks', id: () => apiId, hook: 'API_STARTED' },
      {
        type: 'APPLICATION',
        base: `/applications/${appId}`,
        hooks: '/applications/hooks',
        id: () => appId,
        hook: 'SUBSCRIPTION_NEW',
      },
      {
        type: 'PORTAL',
        base: '/configuration',
        hooks: '/configuration/hooks',
        id: () => 'DEFAULT',
        hook: 'USER_REGISTERED',
      },
    ];

    it('lists the hooks of each scope and the EMAIL and WEBHOOK notifiers', async () => {
      const api = await call(t.app, admin, { method: 'GET', url: '/apis/hooks' });
      expect(api.json()).toEqual(
        expect.arrayContaining([
          {
            id: 'SUBSCRIPTION_NEW',
            label: 'New Subscription',
            description: expect.any(String),
            category: 'SUBSCRIPTION',
          },
          expect.objectContaining({ id: 'API_DEPRECATED', category: 'LIFECYCLE' }),
          expect.objectContaining({ id: 'APIKEY_EXPIRED' }),
        ]),
      );
      const app = await call(t.app, admin, { method: 'GET', url: '/applications/hooks' });
      expect(app.json().map((h: { id: string }) => h.id)).not.toContain('API_STARTED');
      const portal = await call(t.app, admin, { method: 'GET', url: '/configuration/hooks' });
      expect(portal.json().map((h: { id: string }) => h.id)).toContain('USER_REGISTERED');
      const notifiers = await call(t.app, admin, { method: 'GET', url: `/apis/${apiId}/notifiers` });
      expect(notifiers.json()).toEqual([
        { id: 'default-email', name: 'Default Email Notifier', type: 'EMAIL' },
        { id: 'default-webhook', name: 'Default Webhook Notifier', type: 'WEBHOOK' },
      ]);
    });

    for (const scope of bases())
      it(`${scope.type}: creates, changes and deletes a GENERIC setting; the user's PORTAL one`, async () => {
        const { base } = bases().find((b) => b.type === scope.type)!;
        const created = await call(t.app, admin, {
          method: 'POST',
          url: `${base}/notificationsettings`,
          payload: { name: 'Ops', config_type: 'GENERIC', notifier: 'default-webhook', hooks: [scope.hook] },
        });
        expect(created.statusCode).toBe(200);
        const setting = created.json();
        expect(setting).toMatchObject({
          name: 'Ops',
          config_type: 'GENERIC',
          referenceType: scope.type,
          referenceId: scope.id(),
          notifier: 'default-webhook',
          config: null,
          useSystemProxy: false,
          hooks: [scope.hook],
        });
        // A setting needs a non-empty config unless it is of portal type.
        const noConfig = await call(t.app, admin, {
          method: 'PUT',
          url: `${base}/notificationsettings/${setting.id}`,
          payload: { ...setting, config: '' },
        });
        expect(noConfig.statusCode).toBe(400);
        expect(noConfig.json()).toEqual(invalidFieldBody('config'));
        const updated = await call(t.app, admin, {
          method: 'PUT',
          url: `${base}/notificationsettings/${setting.id}`,
          payload: { ...setting, config: 'https://hooks.example.com/in', useSystemProxy: true },
        });
        expect(updated.json()).toMatchObject({
          config: 'https://hooks.example.com/in',
          useSystemProxy: true,
        });
        const portal = await call(t.app, admin, {
          method: 'POST',
          url: `${base}/notificationsettings`,
          payload: {
            config_type: 'PORTAL',
            referenceType: scope.type,
            referenceId: scope.id(),
            hooks: [scope.hook],
          },
        });
        expect(portal.json()).toMatchObject({
          config_type: 'PORTAL',
          user: expect.any(String),
          hooks: [scope.hook],
        });
        const list = await call(t.app, admin, { method: 'GET', url: `${base}/notificationsettings` });
        expect(list.json()).toEqual([
          expect.objectContaining({ config_type: 'PORTAL', hooks: [scope.hook] }),
          expect.objectContaining({ id: setting.id, config: 'https://hooks.example.com/in' }),
        ]);
        const deleted = await call(t.app, admin, {
          method: 'DELETE',
          url: `${base}/notificationsettings/${setting.id}`,
        });
        expect(deleted.statusCode).toBe(204);
        const rows = await findNotificationSettingsOf(t.db, scope.type, scope.id());
        expect(rows.map((r) => r.config_type)).toEqual(['PORTAL']);
        await t.db.deleteFrom('notification_settings').execute();
      });

    const bad: [string, Record<string, unknown>][] = [
      ['name', { config_type: 'GENERIC', notifier: 'default-email', hooks: [] }],
      ['notifier', { name: 'n', config_type: 'GENERIC', hooks: [] }],
      ['notifier', { name: 'n', config_type: 'GENERIC', notifier: 'pigeon', hooks: [] }],
      ['hooks', { name: 'n', config_type: 'GENERIC', notifier: 'default-email', hooks: ['USER_REGISTERED'] }],
      [
        'referenceType',
        { name: 'n', config_type: 'GENERIC', notifier: 'default-email', referenceType: 'PORTAL' },
      ],
      ['config', { name: 'n', config_type: 'GENERIC', notifier: 'default-email', config: 'not a mail' }],
      ['config', { name: 'n', config_type: 'GENERIC', notifier: 'default-webhook', config: 'ftp://x' }],
      ['config_type', { name: 'n', config_type: 'OTHER', notifier: 'default-email' }],
    ];
    for (const [field, payload] of bad)
      it(`400 naming ${field} for ${JSON.stringify(payload)}; nothing stored`, async () => {
        const res = await call(t.app, admin, {
          method: 'POST',
          url: `/apis/${apiId}/notificationsettings`,
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ http_status: 400, message: expect.stringContaining(field) });
        expect(await findNotificationSettingsOf(t.db, 'API', apiId)).toEqual([]);
      });

    it('403 without the permissions; a reader may keep only their own PORTAL setting', async () => {
      const stranger = await signInNewUser(t.app, t.db);
      for (const url of [
        `/apis/${apiId}/notificationsettings`,
        `/applications/${appId}/notificationsettings`,
        '/configuration/notificationsettings',
      ])
        expect((await call(t.app, stranger.session, { method: 'GET', url })).statusCode).toBe(403);
      const reader = await signInNewUser(t.app, t.db);
      await insertRole(t.db, {
        ...{ scope: 'API', name: 'NOTIFIED', description: null, is_default: 0, is_system: 0 },
        ...{ permissions: JSON.stringify({ NOTIFICATION: ['R'] }), created_at: 0, updated_at: 0 },
      });
      await grantRoleOn(t.db, reader.user.id, 'API', apiId, 'NOTIFIED');
      expect(
        (await call(t.app, reader.session, { method: 'GET', url: `/apis/${apiId}/notificationsettings` }))
          .statusCode,
      ).toBe(200);
      const generic = await call(t.app, reader.session, {
        method: 'POST',
        url: `/apis/${apiId}/notificationsettings`,
        payload: { name: 'Mine', config_type: 'GENERIC', notifier: 'default-email', hooks: [] },
      });
      expect(generic.statusCode).toBe(403);
      const portal = await call(t.app, reader.session, {
        method: 'PUT',
        url: `/apis/${apiId}/notificationsettings`,
        payload: { config_type: 'PORTAL', hooks: ['API_STARTED'] },
      });
      expect(portal.statusCode).toBe(200);
      const rows = await findNotificationSettingsOf(t.db, 'API', apiId);
      expect(rows).toEqual([expect.objectContaining({ config_type: 'PORTAL', user_id: reader.user.id })]);
      await t.db.deleteFrom('notification_settings').execute();
    });
  });
}
