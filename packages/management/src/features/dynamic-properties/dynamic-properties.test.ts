import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import type { TestClock } from '../../test-support/index.js';
import { call, memoryLog } from '../../test-support/index.js';
import type { TwoProcesses } from '../../test-support/polled-provider.js';
import { startTwoProcesses, usePolledProvider } from '../../test-support/polled-provider.js';
import { createApiAs } from '../apis/test-support/index.js';

/** The provider: a real local HTTP server whose answer each test sets. */
const provider = usePolledProvider('/props');

const SPEC = '$map(items, function($i) { {"key": $i.name, "value": $i.host} })';
const allowLocal = { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] }, schedulerTickMs: 0 };
const hosts = (...pairs: [string, string][]) =>
  JSON.stringify({ items: pairs.map(([name, host]) => ({ name, host })) });

for (const dialect of await testDialects()) {
  describe(`${dialect}: an API's dynamic properties poll their provider`, () => {
    let processes: TwoProcesses;
    let clock: TestClock;
    let one: TestApp;
    let two: TestApp;
    let admin: TestSession;
    const log = memoryLog();

    beforeAll(async () => {
      processes = await startTwoProcesses(dialect, {
        options: allowLocal,
        logger: { level: 'warn', stream: log.stream },
      });
      ({ clock, one, two, admin } = processes);
    });
    afterAll(() => processes?.close());
    beforeEach(() => {
      provider.hits = 0;
      provider.answer = { status: 200, body: hosts(['eu', 'eu.example']) };
    });

    const tickBoth = async () => {
      await Promise.all([one.services.scheduler.tick(), two.services.scheduler.tick()]);
    };
    const getApi = async (id: string) => {
      const res = await call(one.app, admin, { method: 'GET', url: `/apis/${id}` });
      return { body: res.json<Record<string, unknown>>(), etag: String(res.headers.etag) };
    };
    const deployedProperties = async (id: string) => {
      const events = await one.db
        .selectFrom('events')
        .selectAll()
        .where('api_id', '=', id)
        .where('type', '=', 'PUBLISH_API')
        .orderBy('seq', 'desc')
        .execute();
      return {
        count: events.length,
        properties: (JSON.parse(events[0]!.payload!) as { definition: { properties: unknown } }).definition
          .properties,
      };
    };
    const isSynchronized = async (id: string) =>
      (await call(one.app, admin, { method: 'GET', url: `/apis/${id}/state` })).json<{
        is_synchronized: boolean;
      }>().is_synchronized;

    /** An API with a user property and the service as given, saved; started and deployed if asked. */
    async function apiWithService(service: Record<string, unknown>, deploy = true) {
      const { id } = await createApiAs(one, admin);
      const { etag } = await getApi(id);
      const saved = await call(one.app, admin, {
        method: 'PUT',
        url: `/apis/${id}`,
        headers: { 'if-match': etag },
        payload: {
          properties: [{ key: 'owner', value: 'team-a' }],
          services: { 'dynamic-property': service },
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      if (deploy) {
        expect((await call(one.app, admin, { method: 'POST', url: `/apis/${id}/deploy` })).statusCode).toBe(
          200,
        );
        const { etag: now } = await getApi(id);
        const started = await call(one.app, admin, {
          method: 'POST',
          url: `/apis/${id}?action=START`,
          headers: { 'if-match': now },
        });
        expect(started.statusCode, started.body).toBeLessThan(300);
      }
      return id;
    }
    const enabled = (url = provider.url, specification = SPEC) => ({
      enabled: true,
      trigger: { rate: 30, unit: 'SECONDS' },
      provider: 'HTTP',
      configuration: { url, specification },
    });

    it('transforms the answer, updates the dynamic properties, audits and deploys, once for two processes', async () => {
      const id = await apiWithService(enabled());
      const before = await deployedProperties(id);
      await tickBoth();
      expect(provider.hits).toBe(1);
      expect((await getApi(id)).body.properties).toEqual([
        { key: 'eu', value: 'eu.example', dynamic: true },
        { key: 'owner', value: 'team-a', dynamic: false },
      ]);
      const after = await deployedProperties(id);
      expect(after.count).toBe(before.count + 1);
      expect(after.properties).toEqual((await getApi(id)).body.properties);
      expect(await isSynchronized(id)).toBe(true);
      const audits = await one.db
        .selectFrom('audits')
        .selectAll()
        .where('reference_id', '=', id)
        .where('event', '=', 'API_UPDATED')
        .execute();
      expect(audits.some((a) => (a.properties ?? '').includes('DYNAMIC_PROPERTIES'))).toBe(true);

      // Not due before its trigger; then polled again: a change is deployed, a vanished key goes.
      await tickBoth();
      expect(provider.hits).toBe(1);
      clock.advance(30_000);
      provider.answer.body = hosts(['us', 'us.example'], ['owner', 'ignored']);
      await tickBoth();
      expect(provider.hits).toBe(2);
      expect((await deployedProperties(id)).properties).toEqual([
        { key: 'owner', value: 'team-a', dynamic: false },
        { key: 'us', value: 'us.example', dynamic: true },
      ]);

      // The same answer again: no update, no deployment.
      const count = (await deployedProperties(id)).count;
      clock.advance(30_000);
      await tickBoth();
      expect(provider.hits).toBe(3);
      expect((await deployedProperties(id)).count).toBe(count);
    });

    it('keeps the properties when the fetch or the transformation fails, and logs it', async () => {
      const id = await apiWithService(enabled());
      provider.answer = { status: 500, body: '{}' };
      await tickBoth();
      expect(provider.hits).toBe(1);
      expect((await getApi(id)).body.properties).toEqual([{ key: 'owner', value: 'team-a', dynamic: false }]);
      expect(log.text()).toContain('dynamic properties poll failed');
      const other = await apiWithService(enabled(provider.url, '$$.items[0].name.(('));
      provider.answer = { status: 200, body: hosts(['eu', 'eu.example']) };
      await tickBoth();
      expect((await getApi(other)).body.properties).toEqual([
        { key: 'owner', value: 'team-a', dynamic: false },
      ]);
    });

    it('reads no URL the outbound guard refuses', async () => {
      const id = await apiWithService(enabled('http://10.0.0.1:9/props'));
      await tickBoth();
      expect(provider.hits).toBe(0);
      expect((await getApi(id)).body.properties).toEqual([{ key: 'owner', value: 'team-a', dynamic: false }]);
    });

    it('does nothing until enabling is deployed; an API with undeployed changes is updated, not deployed', async () => {
      const id = await apiWithService(enabled(), false);
      await tickBoth();
      expect(provider.hits).toBe(0);
      expect(await isSynchronized(id)).toBe(false);
      // Deployed and started, then changed by hand: the poll updates without deploying.
      await call(one.app, admin, { method: 'POST', url: `/apis/${id}/deploy` });
      const started = await call(one.app, admin, {
        method: 'POST',
        url: `/apis/${id}?action=START`,
        headers: { 'if-match': (await getApi(id)).etag },
      });
      expect(started.statusCode).toBeLessThan(300);
      const edited = await call(one.app, admin, {
        method: 'PUT',
        url: `/apis/${id}`,
        headers: { 'if-match': (await getApi(id)).etag },
        payload: { description: 'changed by hand' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const count = (await deployedProperties(id)).count;
      await tickBoth();
      expect(provider.hits).toBe(1);
      expect((await getApi(id)).body.properties).toContainEqual({
        key: 'eu',
        value: 'eu.example',
        dynamic: true,
      });
      expect((await deployedProperties(id)).count).toBe(count);
    });
  });
}
