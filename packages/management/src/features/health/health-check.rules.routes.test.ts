import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  errorBody,
  grantRoleOn,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import { createApiAs, getApi } from '../apis/test-support/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit the definition as JSON */

/** A valid enabled check: every 10 seconds, GET /health, status 200. */
const goodCheck = () => ({
  enabled: true,
  trigger: { rate: 10, unit: 'SECONDS' },
  steps: [
    {
      request: {
        method: 'POST',
        path: '/health',
        fromRoot: false,
        body: '{"ping":1}',
        headers: [{ name: 'X-Check', value: '1' }],
      },
      response: {
        assertions: ['#response.status == 200', "#jsonPath(#response.content, '$.status') == 'UP'"],
      },
    },
  ],
});

const API_CHECK = 'services.health-check';
const OWN_CHECK = 'proxy.groups.0.endpoints.0.healthcheck';

/** Section 5 rules of a health check: each bad check, where it is put, the field named, the reason. */
const BAD: [string, (check: any) => void, string, string | RegExp | undefined][] = [
  ['an interval of 0', (c) => (c.trigger.rate = 0), 'trigger.rate', undefined],
  ['an interval that is not a number', (c) => (c.trigger.rate = 'ten'), 'trigger.rate', undefined],
  [
    'a unit outside SECONDS to DAYS',
    (c) => (c.trigger.unit = 'MILLISECONDS'),
    'trigger.unit',
    /SECONDS, MINUTES, HOURS, DAYS/,
  ],
  ['no trigger', (c) => delete c.trigger, 'trigger', 'An interval and a time unit are required.'],
  ['no path', (c) => (c.steps[0].request.path = ' '), 'steps.0.request.path', 'The path is required.'],
  ['a DELETE method', (c) => (c.steps[0].request.method = 'DELETE'), 'steps.0.request.method', undefined],
  [
    'a body over 1000',
    (c) => (c.steps[0].request.body = 'x'.repeat(1001)),
    'steps.0.request.body',
    undefined,
  ],
  [
    'a header without value',
    (c) => (c.steps[0].request.headers[0].value = ''),
    'steps.0.request.headers.0.value',
    undefined,
  ],
  [
    'an empty assertion',
    (c) => (c.steps[0].response.assertions[1] = ''),
    'steps.0.response.assertions.1',
    undefined,
  ],
  [
    'no assertion',
    (c) => (c.steps[0].response.assertions = []),
    'steps.0.response.assertions',
    'At least one assertion is required.',
  ],
  [
    'an assertion that is not CEL',
    (c) => (c.steps[0].response.assertions[0] = '#response.status =='),
    'steps.0.response.assertions.0',
    /Invalid assertion/,
  ],
];

for (const dialect of await testDialects()) {
  describe(`${dialect}: health-check configuration through PUT apis/{id}`, () => {
    let t: TestApp;
    let admin: TestSession;
    let stamp = 0;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());

    const put = (session: TestSession, id: string, etag: string, payload: Record<string, unknown>) =>
      call(t.app, session, { method: 'PUT', url: `/apis/${id}`, headers: { 'if-match': etag }, payload });

    /** The API's check (`services`) or the first endpoint's own check (`proxy`), set to `check`. */
    const withCheck = (api: any, where: 'api' | 'endpoint', check: any) => {
      if (where === 'api') return { services: { ...api.services, 'health-check': check } };
      const proxy = structuredClone(api.proxy);
      proxy.groups[0].endpoints[0].healthcheck = { ...check, inherit: false };
      return { proxy };
    };

    for (const where of ['api', 'endpoint'] as const) {
      for (const [what, change, field, reason] of BAD) {
        const prefix = where === 'api' ? API_CHECK : OWN_CHECK;
        it(`refuses ${what} in the ${where} check, naming ${prefix}.${field}, and stores nothing`, async () => {
          const { id } = await createApiAs(t, admin);
          const before = await getApi(t, admin, id);
          const check = goodCheck();
          change(check);

          const res = await put(admin, id, before.etag, withCheck(before.body, where, check));

          expect(res.json()).toEqual(invalidFieldBody(`${prefix}.${field}`, reason));
          const after = await getApi(t, admin, id);
          expect(after.etag).toBe(before.etag);
          expect(after.body).toEqual(before.body);
        });
      }
    }

    it('stores a valid check; a disabled API check keeps no trigger nor steps; an inheriting endpoint is not checked', async () => {
      const { id } = await createApiAs(t, admin);
      const { body, etag: first } = await getApi(t, admin, id);
      const proxy = structuredClone((body as any).proxy);
      // Inherits: its own settings are not validated (the API's check runs).
      proxy.groups[0].endpoints[0].healthcheck = { enabled: true, inherit: true };
      const saved = await put(admin, id, first, { proxy, services: { 'health-check': goodCheck() } });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().services['health-check']).toEqual(goodCheck());
      expect(saved.json().proxy.groups[0].endpoints[0].healthcheck).toEqual({ enabled: true, inherit: true });

      const { etag } = await getApi(t, admin, id);
      const disabled = await put(admin, id, etag, {
        services: { 'health-check': { ...goodCheck(), enabled: false } },
      });
      expect(disabled.statusCode, disabled.body).toBe(200);
      expect(disabled.json().services['health-check']).toEqual({ enabled: false });
      // Saved with its etag: an old one is refused.
      const stale = await put(admin, id, etag, { services: { 'health-check': goodCheck() } });
      expect(stale.statusCode).toBe(412);
    });

    /** A user holding an API role made of `permissions` on the API. */
    const holder = async (id: string, permissions: Record<string, string[]>) => {
      const role = await call(t.app, admin, {
        method: 'POST',
        url: '/configuration/rolescopes/API/roles',
        payload: { name: `health role ${dialect} ${++stamp}`, permissions },
      });
      expect(role.statusCode, role.body).toBe(201);
      const user = await signInNewUser(t.app, t.db);
      await grantRoleOn(t.db, user.user.id, 'API', id, role.json<{ name: string }>().name);
      return user.session;
    };

    it('needs api-health-c or api-health-u besides api-definition-u to change a check', async () => {
      const { id } = await createApiAs(t, admin);
      const definitionOnly = await holder(id, { DEFINITION: ['R', 'U'] });
      const healthU = await holder(id, { DEFINITION: ['R', 'U'], HEALTH: ['R', 'U'] });
      const healthC = await holder(id, { DEFINITION: ['R', 'U'], HEALTH: ['C'] });
      const before = await getApi(t, admin, id);

      const refused = await put(definitionOnly, id, before.etag, withCheck(before.body, 'api', goodCheck()));
      expect(refused.json()).toEqual(errorBody(403, 'You do not have the permission api-health-u'));
      const ownRefused = await put(
        definitionOnly,
        id,
        before.etag,
        withCheck(before.body, 'endpoint', goodCheck()),
      );
      expect(ownRefused.statusCode).toBe(403);
      expect((await getApi(t, admin, id)).etag).toBe(before.etag);
      // Other changes stay open to api-definition-u.
      const renamed = await put(definitionOnly, id, before.etag, { name: 'Renamed' });
      expect(renamed.statusCode, renamed.body).toBe(200);

      const byU = await put(
        healthU,
        id,
        String(renamed.headers.etag),
        withCheck(renamed.json(), 'api', goodCheck()),
      );
      expect(byU.statusCode, byU.body).toBe(200);
      const byC = await put(
        healthC,
        id,
        String(byU.headers.etag),
        withCheck(byU.json(), 'endpoint', goodCheck()),
      );
      expect(byC.statusCode, byC.body).toBe(200);
      expect(byC.json().proxy.groups[0].endpoints[0].healthcheck.inherit).toBe(false);
    });
  });
}
