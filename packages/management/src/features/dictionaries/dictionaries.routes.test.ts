import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertRole } from '@portico/storage';
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

const manual = {
  name: 'Backend hosts',
  description: 'Where backends live',
  type: 'MANUAL',
  properties: { eu: 'eu.example' },
};
const dynamic = {
  name: 'Remote',
  type: 'DYNAMIC',
  provider: { type: 'HTTP', configuration: { url: 'https://config.example/props', specification: '$' } },
  trigger: { rate: 30, unit: 'SECONDS' },
};

for (const dialect of await testDialects()) {
  describe(`${dialect}: configuration/dictionaries`, () => {
    let t: TestApp;
    let admin: TestSession;
    let reader: SignedInUser;
    let nobody: SignedInUser;

    beforeAll(async () => {
      t = await startTestApp(dialect, { options: { schedulerTickMs: 0 } });
      admin = await login(t.app, 'admin', 'admin');
      await insertRole(t.db, {
        scope: 'MANAGEMENT',
        name: 'DICTIONARY_READER',
        description: 'Reads dictionaries',
        is_default: 0,
        is_system: 0,
        permissions: JSON.stringify({ DICTIONARY: ['R'] }),
        created_at: 0,
        updated_at: 0,
      });
      reader = await signInNewUser(t.app, t.db, { management: 'DICTIONARY_READER' });
      nobody = await signInNewUser(t.app, t.db);
    });
    afterAll(() => t?.close());
    beforeEach(async () => {
      await t.db.deleteFrom('dictionaries').execute();
    });

    const create = (payload: object, session: TestSession = admin) =>
      call(t.app, session, { method: 'POST', url: '/configuration/dictionaries', payload });
    const stored = () => t.db.selectFrom('dictionaries').selectAll().execute();
    const events = (type: string) => t.db.selectFrom('events').selectAll().where('type', '=', type).execute();

    describe('create and read', () => {
      it('creates a manual dictionary, stopped, with an id made from its name', async () => {
        const res = await create(manual);
        expect(res.statusCode).toBe(201);
        expect(res.headers.location).toBe('/configuration/dictionaries/backend-hosts');
        expect(res.json()).toMatchObject({
          id: 'backend-hosts',
          name: 'Backend hosts',
          type: 'MANUAL',
          state: 'STOPPED',
          deployed_at: null,
          properties: { eu: 'eu.example' },
        });
        const list = await call(t.app, admin, { method: 'GET', url: '/configuration/dictionaries' });
        expect(list.json()).toEqual([
          expect.objectContaining({ id: 'backend-hosts', type: 'MANUAL', properties: 1, provider: null }),
        ]);
        const audits = await t.db
          .selectFrom('audits')
          .selectAll()
          .where('event', '=', 'DICTIONARY_CREATED')
          .execute();
        expect(audits.map((a) => JSON.parse(a.properties))).toContainEqual({ DICTIONARY: 'backend-hosts' });
      });

      it('accepts types and units in lower case, as the console spells them', async () => {
        const res = await create({ ...dynamic, type: 'dynamic', trigger: { rate: 5, unit: 'minutes' } });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          type: 'DYNAMIC',
          trigger: { rate: 5, unit: 'MINUTES' },
          properties: {},
        });
      });

      it('refuses a second dictionary with the same name', async () => {
        await create(manual);
        const res = await create({ ...manual, description: 'again' });
        expect(res.statusCode).toBe(400);
        expect((await stored()).map((d) => d.description)).toEqual(['Where backends live']);
      });

      it('shows the provider only to users who may change dictionaries', async () => {
        await create(dynamic);
        const asReader = await call(t.app, reader.session, {
          method: 'GET',
          url: '/configuration/dictionaries/remote',
        });
        expect(asReader.statusCode).toBe(200);
        expect(asReader.json().provider).toBeUndefined();
        const asAdmin = await call(t.app, admin, {
          method: 'GET',
          url: '/configuration/dictionaries/remote',
        });
        expect(asAdmin.json().provider.configuration.url).toBe('https://config.example/props');
      });

      it('answers 404 for an unknown dictionary', async () => {
        const res = await call(t.app, admin, { method: 'GET', url: '/configuration/dictionaries/none' });
        expect(res.statusCode).toBe(404);
      });
    });

    describe('bad input: 400 naming the field, nothing stored', () => {
      const cases: [string, object, string, RegExp?][] = [
        ['no name', { type: 'MANUAL' }, 'name', /dictionary name is required/],
        ['an empty name', { name: '  ', type: 'MANUAL' }, 'name', /dictionary name is required/],
        ['a name over 50 characters', { name: 'n'.repeat(51), type: 'MANUAL' }, 'name'],
        ['no type', { name: 'x' }, 'type'],
        ['an unknown type', { name: 'x', type: 'STATIC' }, 'type'],
        ['a value over 160 characters', { ...manual, properties: { k: 'v'.repeat(161) } }, 'properties.k'],
        ['a dynamic one without provider', { ...dynamic, provider: undefined }, 'provider'],
        ['a dynamic one without trigger', { ...dynamic, trigger: undefined }, 'trigger'],
        ['a trigger rate of 0', { ...dynamic, trigger: { rate: 0, unit: 'SECONDS' } }, 'trigger.rate'],
        ['a trigger in days', { ...dynamic, trigger: { rate: 1, unit: 'DAYS' } }, 'trigger.unit'],
        [
          'a provider that is not HTTP',
          { ...dynamic, provider: { ...dynamic.provider, type: 'FILE' } },
          'provider.type',
        ],
        [
          'a provider URL that is not http(s)',
          {
            ...dynamic,
            provider: { type: 'HTTP', configuration: { url: 'file:///etc/passwd', specification: '$' } },
          },
          'provider.configuration.url',
        ],
        [
          'a provider without specification',
          { ...dynamic, provider: { type: 'HTTP', configuration: { url: 'https://a.example' } } },
          'provider.configuration.specification',
        ],
        [
          'a specification that is not JSONata',
          {
            ...dynamic,
            provider: { type: 'HTTP', configuration: { url: 'https://a.example', specification: '$map(' } },
          },
          'provider.configuration.specification',
          /not a JSONata expression/,
        ],
      ];
      for (const [what, body, field, reason] of cases) {
        it(`refuses ${what}`, async () => {
          const res = await create(body);
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody(field, reason));
          expect(await stored()).toEqual([]);
        });
      }

      it('refuses to change the type of a dictionary', async () => {
        await create(manual);
        const res = await call(t.app, admin, {
          method: 'PUT',
          url: '/configuration/dictionaries/backend-hosts',
          payload: { ...dynamic, name: manual.name },
        });
        expect(res.json()).toEqual(invalidFieldBody('type', 'the type of a dictionary cannot change'));
        expect((await stored())[0]).toMatchObject({ type: 'MANUAL', provider: null });
      });
    });

    describe('update, deploy, undeploy, start, stop, delete', () => {
      it('updates the properties; deploying serves them and writes a PUBLISH_DICTIONARY event', async () => {
        await create(manual);
        const put = await call(t.app, admin, {
          method: 'PUT',
          url: '/configuration/dictionaries/backend-hosts',
          payload: { ...manual, properties: { eu: 'eu2.example', us: 'us.example' } },
        });
        expect(put.statusCode).toBe(200);
        expect(put.json().properties).toEqual({ eu: 'eu2.example', us: 'us.example' });

        const deploy = await call(t.app, admin, {
          method: 'POST',
          url: '/configuration/dictionaries/backend-hosts/_deploy',
        });
        expect(deploy.statusCode).toBe(200);
        expect(deploy.json().deployed_at).toEqual(expect.any(Number));
        const [row] = await stored();
        expect(JSON.parse(row!.deployed_properties!)).toEqual({ eu: 'eu2.example', us: 'us.example' });
        const [event] = await events('PUBLISH_DICTIONARY');
        expect(JSON.parse(event!.payload!)).toMatchObject({
          id: 'backend-hosts',
          properties: { us: 'us.example' },
        });
        expect(row!.deploy_seq).toBe(event!.seq);

        const undeploy = await call(t.app, admin, {
          method: 'POST',
          url: '/configuration/dictionaries/backend-hosts/_undeploy',
        });
        expect(undeploy.statusCode).toBe(200);
        expect((await stored())[0]!.deployed_properties).toBeNull();
        expect(await events('UNPUBLISH_DICTIONARY')).toHaveLength(1);
      });

      it('refuses to deploy a dynamic dictionary and to start a manual one', async () => {
        await create(manual);
        await create(dynamic);
        const deploy = await call(t.app, admin, {
          method: 'POST',
          url: '/configuration/dictionaries/remote/_deploy',
        });
        expect(deploy.json()).toEqual(errorBody(400, 'An automatic dictionary can not be deployed manually'));
        const start = await call(t.app, admin, {
          method: 'POST',
          url: '/configuration/dictionaries/backend-hosts?action=START',
        });
        expect(start.json()).toEqual(
          errorBody(400, 'A manual dictionary can not be started/stopped manually'),
        );
        expect((await stored()).map((d) => [d.id, d.state, d.deployed_at])).toEqual(
          expect.arrayContaining([
            ['remote', 'STOPPED', null],
            ['backend-hosts', 'STOPPED', null],
          ]),
        );
      });

      it('starts and stops a dynamic dictionary, refusing a start when started', async () => {
        await create(dynamic);
        const action = (a: string) =>
          call(t.app, admin, { method: 'POST', url: `/configuration/dictionaries/remote?action=${a}` });
        expect((await action('START')).json().state).toBe('STARTED');
        expect((await action('START')).json()).toEqual(errorBody(400, 'Dictionary is already started'));
        expect((await action('STOP')).json().state).toBe('STOPPED');
        expect((await action('STOP')).json()).toEqual(errorBody(400, 'Dictionary is already stopped'));
        expect((await action('PAUSE')).json()).toEqual(invalidFieldBody('action'));
      });

      it('deletes a deployed dictionary: undeployed first, then gone', async () => {
        await create(manual);
        await call(t.app, admin, {
          method: 'POST',
          url: '/configuration/dictionaries/backend-hosts/_deploy',
        });
        const before = (await events('UNPUBLISH_DICTIONARY')).length;
        const res = await call(t.app, admin, {
          method: 'DELETE',
          url: '/configuration/dictionaries/backend-hosts',
        });
        expect(res.statusCode).toBe(204);
        expect(await stored()).toEqual([]);
        expect(await events('UNPUBLISH_DICTIONARY')).toHaveLength(before + 1);
      });
    });

    describe('permissions', () => {
      const calls: [string, string, string, object?][] = [
        ['management-dictionary-r', 'GET', '/configuration/dictionaries'],
        ['management-dictionary-r', 'GET', '/configuration/dictionaries/backend-hosts'],
        ['management-dictionary-c', 'POST', '/configuration/dictionaries', { name: 'other', type: 'MANUAL' }],
        [
          'management-dictionary-u',
          'PUT',
          '/configuration/dictionaries/backend-hosts',
          { ...manual, properties: {} },
        ],
        ['management-dictionary-u', 'POST', '/configuration/dictionaries/backend-hosts/_deploy'],
        ['management-dictionary-u', 'POST', '/configuration/dictionaries/backend-hosts/_undeploy'],
        ['management-dictionary-u', 'POST', '/configuration/dictionaries/backend-hosts?action=START'],
        ['management-dictionary-d', 'DELETE', '/configuration/dictionaries/backend-hosts'],
      ];
      for (const [permission, method, url, payload] of calls) {
        it(`${method} ${url} needs ${permission}`, async () => {
          await create(manual);
          const session = permission.endsWith('-r') ? nobody.session : reader.session;
          const res = await call(t.app, session, {
            method: method as 'GET',
            url,
            ...(payload ? { payload } : {}),
          });
          expect(res.statusCode).toBe(403);
          const rows = await stored();
          expect(rows.map((d) => [d.id, d.properties, d.deployed_at, d.state])).toEqual([
            ['backend-hosts', JSON.stringify(manual.properties), null, 'STOPPED'],
          ]);
        });
      }
    });
  });
}
