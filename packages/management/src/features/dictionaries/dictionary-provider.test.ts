import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '@portico/storage';
import { openStorage } from '@portico/storage';
import type { TestDatabase } from '@portico/storage/testing';
import { createTestDatabase, testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import { TestClock, call, login, memoryLog, startTestApp } from '../../test-support/index.js';

/** The provider: a real local HTTP server whose answer each test sets. */
let answer: { status: number; body: string } = { status: 200, body: '{}' };
let hits = 0;
const server = http.createServer((_req, res) => {
  hits++;
  res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
});
let providerUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  providerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/config`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const SPEC = '$map(items, function($i) { {"key": $i.name, "value": $i.host} })';
const allowLocal = { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] }, schedulerTickMs: 0 };

for (const dialect of await testDialects()) {
  describe(`${dialect}: dynamic dictionaries poll their provider`, () => {
    let database: TestDatabase;
    let secondStorage: Storage;
    let clock: TestClock;
    let one: TestApp;
    let two: TestApp;
    let admin: TestSession;
    const log = memoryLog();

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      clock = new TestClock();
      one = await startTestApp(dialect, {
        database,
        clock,
        options: allowLocal,
        logger: { level: 'warn', stream: log.stream },
      });
      // A second management process on the same database, with its own connection.
      secondStorage = database.databaseUrl
        ? await openStorage({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, poolSize: 2 })
        : await openStorage({ dataDir: database.dataDir });
      two = await startTestApp(dialect, {
        database: { ...database, storage: secondStorage, destroy: async () => {} },
        clock,
        options: allowLocal,
        logger: { level: 'warn', stream: log.stream },
      });
      admin = await login(one.app, 'admin', 'admin');
    });
    afterAll(async () => {
      await two?.close();
      await one?.close();
      await secondStorage?.close();
      await database?.destroy();
    });
    beforeEach(async () => {
      await one.db.deleteFrom('dictionaries').execute();
      hits = 0;
      answer = { status: 200, body: JSON.stringify({ items: [{ name: 'eu', host: 'eu.example' }] }) };
    });

    async function startDynamic(specification = SPEC, url = providerUrl) {
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
      expect(hits).toBe(1);
      expect((await dictionary()).properties).toEqual({ eu: 'eu.example' });
      expect(await served()).toEqual({ eu: 'eu.example' });
      expect((await dictionary()).deployed_at).toEqual(expect.any(Number));

      // Not due again before its trigger; then polled once more, and a change is deployed.
      await tickBoth();
      expect(hits).toBe(1);
      clock.advance(30_000);
      answer.body = JSON.stringify({
        items: [
          { name: 'eu', host: 'eu2.example' },
          { name: 'us', host: 'us.example' },
        ],
      });
      await tickBoth();
      expect(hits).toBe(2);
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

      answer = { status: 500, body: 'down' };
      clock.advance(30_000);
      await tickBoth();
      answer = { status: 200, body: 'not json' };
      clock.advance(30_000);
      await tickBoth();
      // A property name that is not a string.
      answer = { status: 200, body: JSON.stringify({ items: [{ name: 5, host: 'x' }] }) };
      clock.advance(30_000);
      await tickBoth();
      expect(hits).toBe(4);
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
      expect(hits).toBe(0);
      expect(await served()).toBeNull();
    });

    it('goes through the outbound-URL guard: a loopback address that is not allowed is never called', async () => {
      // The server listens on every address; only 127.0.0.1 is allowed, 127.0.0.2 is refused.
      const port = new URL(providerUrl).port;
      await startDynamic(SPEC, `http://127.0.0.2:${port}/config`);
      await tickBoth();
      expect(hits).toBe(0);
      expect((await dictionary()).properties).toEqual({});
      expect(log.text()).toMatch(
        /"dictionary":"hosts","failure":"ADDRESS_REFUSED".*dictionary provider poll failed/,
      );
    });
  });
}
