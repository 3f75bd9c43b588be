import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import type { TestClock } from '../../test-support/index.js';
import { call, memoryLog } from '../../test-support/index.js';
import type { TwoProcesses } from '../../test-support/polled-provider.js';
import { startTwoProcesses, usePolledProvider } from '../../test-support/polled-provider.js';

/** The provider: a real local HTTP server whose answer each test sets. */
const provider = usePolledProvider('/config');

const SPEC = '$map(items, function($i) { {"key": $i.name, "value": $i.host} })';
const allowLocal = { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] }, schedulerTickMs: 0 };

for (const dialect of await testDialects()) {
  describe(`${dialect}: dynamic dictionaries poll their provider`, () => {
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
    beforeEach(async () => {
      await one.db.deleteFrom('dictionaries').execute();
      provider.hits = 0;
      provider.answer = {
        status: 200,
        body: JSON.stringify({ items: [{ name: 'eu', host: 'eu.example' }] }),
      };
    });

    async function startDynamic(specification = SPEC, url = provider.url) {
      const created = await call(one.app, admin, {
        method: 'POST',
        url: '/configuration/dictionaries',
        payload: {
          name: 'Hosts',
          type: 'DYNAMIC',
          provider: { type: 'HTTP', configuration: { url, specification } },
          trigger: { rate: 30, unit: 'SECONDS' },
        },
      });
      expect(created.statusCode).toBe(201);
      const started = await call(one.app, admin, {
        method: 'POST',
        url: '/configuration/dictionaries/hosts?action=START',
      });
      expect(started.json().state).toBe('STARTED');
    }
    const tickBoth = () => Promise.all([one.services.scheduler.tick(), two.services.scheduler.tick()]);
    const dictionary = async () =>
      (await call(one.app, admin, { method: 'GET', url: '/configuration/dictionaries/hosts' })).json();
    const served = async () => {
      const row = await one.db.selectFrom('dictionaries').selectAll().executeTakeFirstOrThrow();
      return row.deployed_properties === null ? null : (JSON.parse(row.deployed_properties) as object);
    };

    it('transforms the answer with the JSONata specification and deploys it, once for two processes', async () => {
      await startDynamic();
      await tickBoth();
      expect(provider.hits).toBe(1);
      expect((await dictionary()).properties).toEqual({ eu: 'eu.example' });
      expect(await served()).toEqual({ eu: 'eu.example' });
      expect((await dictionary()).deployed_at).toEqual(expect.any(Number));

      // Not due again before its trigger; then polled once more, and a change is deployed.
      await tickBoth();
      expect(provider.hits).toBe(1);
      clock.advance(30_000);
      provider.answer.body = JSON.stringify({
        items: [
          { name: 'eu', host: 'eu2.example' },
          { name: 'us', host: 'us.example' },
        ],
      });
      await tickBoth();
      expect(provider.hits).toBe(2);
      expect(await served()).toEqual({ eu: 'eu2.example', us: 'us.example' });
      const publishes = await one.db
        .selectFrom('events')
        .selectAll()
        .where('type', '=', 'PUBLISH_DICTIONARY')
        .execute();
      expect(publishes).toHaveLength(2);
    });

    it('keeps the previous properties when the provider fails or the transformation does', async () => {
      await startDynamic();
      await tickBoth();
      expect(await served()).toEqual({ eu: 'eu.example' });

      provider.answer = { status: 500, body: 'down' };
      clock.advance(30_000);
      await tickBoth();
      provider.answer = { status: 200, body: 'not json' };
      clock.advance(30_000);
      await tickBoth();
      // A property name that is not a string.
      provider.answer = { status: 200, body: JSON.stringify({ items: [{ name: 5, host: 'x' }] }) };
      clock.advance(30_000);
      await tickBoth();
      expect(provider.hits).toBe(4);
      expect((await dictionary()).properties).toEqual({ eu: 'eu.example' });
      expect(await served()).toEqual({ eu: 'eu.example' });
      expect(log.text()).toContain('the provider answered with status 500');
      expect(log.text()).toContain('the provider did not answer JSON');
      expect(log.text()).toContain('a property name that is not a string');
    });

    it('does not poll a stopped dictionary', async () => {
      await startDynamic();
      await call(one.app, admin, { method: 'POST', url: '/configuration/dictionaries/hosts?action=STOP' });
      clock.advance(60_000);
      await tickBoth();
      expect(provider.hits).toBe(0);
      expect(await served()).toBeNull();
    });

    it('goes through the outbound-URL guard: a loopback address that is not allowed is never called', async () => {
      // The server listens on every address; only 127.0.0.1 is allowed, 127.0.0.2 is refused.
      const port = new URL(provider.url).port;
      await startDynamic(SPEC, `http://127.0.0.2:${port}/config`);
      await tickBoth();
      expect(provider.hits).toBe(0);
      expect((await dictionary()).properties).toEqual({});
      expect(log.text()).toMatch(
        /"dictionary":"hosts","failure":"ADDRESS_REFUSED".*dictionary provider poll failed/,
      );
    });
  });
}
