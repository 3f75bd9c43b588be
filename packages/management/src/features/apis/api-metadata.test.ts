import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMetadataOfReference, insertMetadata } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { METADATA_MESSAGES } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { call, errorBody, grantRoleOn, startTestApp } from '../../test-support/index.js';
import { METADATA_EXISTS } from './apis.errors.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, createApiAs } from './test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API metadata`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
      await insertMetadata(t.db, {
        reference_type: 'DEFAULT',
        reference_id: 'DEFAULT',
        key: 'support-email',
        name: 'Support email',
        format: 'MAIL',
        value: 'support@example.com',
        created_at: 1,
        updated_at: 1,
      });
    });
    afterAll(() => t?.close());

    const stored = async (apiId: string) =>
      (await findMetadataOfReference(t.db, 'API', apiId)).map((m) => [m.key, m.format, m.value]);

    it('adds a metadata with a key made from its name, reads it, changes it and deletes it', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const url = `/apis/${api.id}/metadata`;

      const created = await call(t.app, u.publisher.session, {
        method: 'POST',
        url,
        payload: { name: 'Rate Card', format: 'url', value: 'https://example.com/rates' },
      });
      const one = await call(t.app, u.publisher.session, { method: 'GET', url: `${url}/rate-card` });
      const changed = await call(t.app, u.publisher.session, {
        method: 'PUT',
        url: `${url}/rate-card`,
        payload: { name: 'Rate card', format: 'URL', value: '${api.properties.rates}' },
      });
      const list = await call(t.app, u.publisher.session, { method: 'GET', url });

      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({
        key: 'rate-card',
        name: 'Rate Card',
        format: 'URL',
        value: 'https://example.com/rates',
        defaultValue: null,
        apiId: api.id,
      });
      expect(one.json()).toMatchObject({ key: 'rate-card', value: 'https://example.com/rates' });
      expect(changed.json()).toMatchObject({ name: 'Rate card', value: '${api.properties.rates}' });
      expect(list.json()).toEqual([
        expect.objectContaining({ key: 'rate-card' }),
        {
          key: 'support-email',
          name: 'Support email',
          format: 'MAIL',
          value: null,
          defaultValue: 'support@example.com',
          apiId: api.id,
        },
      ]);

      const deleted = await call(t.app, u.publisher.session, { method: 'DELETE', url: `${url}/rate-card` });
      expect(deleted.statusCode).toBe(204);
      expect(await stored(api.id)).toEqual([]);
      const events = await t.db
        .selectFrom('audits')
        .select('event')
        .where('reference_id', '=', api.id)
        .where('event', 'like', 'METADATA_%')
        .orderBy('created_at')
        .execute();
      expect(events.map((e) => e.event)).toEqual([
        'METADATA_CREATED',
        'METADATA_UPDATED',
        'METADATA_DELETED',
      ]);
    });

    it('overrides a default with the API value, and brings the default back when deleted', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const url = `/apis/${api.id}/metadata/support-email`;

      const override = await call(t.app, u.publisher.session, {
        method: 'PUT',
        url,
        payload: { name: 'Support email', format: 'MAIL', value: 'team@example.com' },
      });
      await call(t.app, u.publisher.session, { method: 'DELETE', url });
      const back = await call(t.app, u.publisher.session, { method: 'GET', url });

      expect(override.json()).toMatchObject({
        value: 'team@example.com',
        defaultValue: 'support@example.com',
      });
      expect(back.json()).toMatchObject({ value: null, defaultValue: 'support@example.com' });
    });

    const formats: [string, string, string][] = [
      ['NUMERIC', '12.345', METADATA_MESSAGES.NUMERIC],
      ['BOOLEAN', 'yes', METADATA_MESSAGES.BOOLEAN],
      ['DATE', '31/12/2026', METADATA_MESSAGES.DATE],
      ['MAIL', 'not-a-mail', METADATA_MESSAGES.MAIL],
      ['URL', 'ftp://files example', METADATA_MESSAGES.URL],
    ];
    for (const [format, value, message] of formats) {
      it(`refuses a ${format} value that does not fit (400 naming the field), and stores nothing`, async () => {
        const api = await createApiAs(t, u.publisher.session);

        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/metadata`,
          payload: { name: 'Check', format, value },
        });

        expect(res.json()).toEqual({
          http_status: 400,
          message: `Invalid value for field 'value': ${message}`,
          field: 'value',
        });
        expect(await stored(api.id)).toEqual([]);
      });
    }

    it('accepts values that fit each format, and expressions in any format', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const good: [string, string][] = [
        ['NUMERIC', '12.34'],
        ['NUMERIC', '${api.price}'],
        ['BOOLEAN', 'true'],
        ['DATE', '2026-12-31'],
        ['MAIL', 'ops@example.com'],
        ['URL', 'www.example.com/docs'],
        ['STRING', 'anything at all'],
      ];
      for (const [i, [format, value]] of good.entries()) {
        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/metadata`,
          payload: { name: `m${i}`, format, value },
        });
        expect(res.statusCode, `${format} ${value}: ${res.body}`).toBe(201);
      }
      expect(await stored(api.id)).toHaveLength(good.length);
    });

    it('refuses a missing name, a key used twice and an unknown key', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const url = `/apis/${api.id}/metadata`;
      await call(t.app, u.publisher.session, { method: 'POST', url, payload: { name: 'Team', value: 'a' } });

      const noName = await call(t.app, u.publisher.session, { method: 'POST', url, payload: { value: 'x' } });
      const twice = await call(t.app, u.publisher.session, {
        method: 'POST',
        url,
        payload: { name: 'team' },
      });
      const unknown = await call(t.app, u.publisher.session, {
        method: 'PUT',
        url: `${url}/nope`,
        payload: { name: 'Nope' },
      });

      expect(noName.json()).toEqual({
        http_status: 400,
        message: "Invalid value for field 'name': Name is required.",
        field: 'name',
      });
      expect(twice.json()).toEqual({ http_status: 400, message: METADATA_EXISTS('team'), field: 'key' });
      expect(unknown.statusCode).toBe(404);
      expect(await stored(api.id)).toEqual([['team', 'STRING', 'a']]);
    });

    it('needs api-metadata-r to read and api-metadata-c/u/d to write', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const url = `/apis/${api.id}/metadata`;
      await call(t.app, u.publisher.session, { method: 'POST', url, payload: { name: 'Team', value: 'a' } });

      const read = await call(t.app, u.outsider.session, { method: 'GET', url });
      await grantRoleOn(t.db, u.outsider.user.id, 'API', api.id, 'USER');
      const readAsUser = await call(t.app, u.outsider.session, { method: 'GET', url });
      const create = await call(t.app, u.outsider.session, {
        method: 'POST',
        url,
        payload: { name: 'Mine' },
      });
      const update = await call(t.app, u.outsider.session, {
        method: 'PUT',
        url: `${url}/team`,
        payload: { name: 'X' },
      });
      const remove = await call(t.app, u.outsider.session, { method: 'DELETE', url: `${url}/team` });

      expect(read.json()).toEqual(errorBody(403, 'You do not have the permission api-metadata-r'));
      expect(readAsUser.statusCode).toBe(200);
      expect(create.json()).toEqual(errorBody(403, 'You do not have the permission api-metadata-c'));
      expect(update.json()).toEqual(errorBody(403, 'You do not have the permission api-metadata-u'));
      expect(remove.json()).toEqual(errorBody(403, 'You do not have the permission api-metadata-d'));
      expect(await stored(api.id)).toEqual([['team', 'STRING', 'a']]);
    });
  });
}
