import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findApiById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { call, startTestApp } from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, createApiAs, getApi } from './test-support/index.js';

const HOUR = 3_600_000;
const PLAN = "#context.plan == 'p1'";

for (const dialect of await testDialects()) {
  describe(`${dialect}: maximum logging duration on saving an API (logging.maxDurationMillis)`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
    });
    afterAll(() => t?.close());

    const setMaxDuration = async (maxDurationMillis: number | null) => {
      const res = await call(t.app, u.admin, {
        method: 'POST',
        url: '/portal',
        payload: { logging: { maxDurationMillis } },
      });
      expect(res.statusCode, res.body).toBe(200);
    };

    /** Saves the API's logging and answers the condition stored in its definition. */
    async function saveLogging(logging: { mode: string; condition?: string }): Promise<string | undefined> {
      const api = await createApiAs(t, u.publisher.session);
      const { etag, body } = await getApi(t, u.publisher.session, api.id);
      const proxy = (body as { proxy: Record<string, unknown> }).proxy;
      const res = await call(t.app, u.publisher.session, {
        method: 'PUT',
        url: `/apis/${api.id}`,
        headers: { 'if-match': etag },
        payload: { ...body, proxy: { ...proxy, logging } },
      });
      expect(res.statusCode, res.body).toBe(200);
      const stored = JSON.parse((await findApiById(t.db, api.id))!.definition) as {
        proxy: { logging?: { condition?: string } };
      };
      expect(res.json<{ proxy: { logging?: { condition?: string } } }>().proxy.logging?.condition).toBe(
        stored.proxy.logging?.condition,
      );
      return stored.proxy.logging?.condition;
    }

    const endOf = (condition: string | undefined) =>
      Number(/^#request\.timestamp <= (\d+)/.exec(condition ?? '')?.[1]);

    it('leaves the condition alone while the maximum is 0 (none)', async () => {
      await setMaxDuration(0);
      expect(await saveLogging({ mode: 'CLIENT', condition: PLAN })).toBe(PLAN);
      expect(await saveLogging({ mode: 'CLIENT' })).toBeUndefined();
    });

    it('adds an end time at most the maximum away to a logging without condition', async () => {
      await setMaxDuration(HOUR);
      const before = t.clock.peek();
      const condition = await saveLogging({ mode: 'CLIENT_PROXY' });
      expect(condition).toMatch(/^#request\.timestamp <= \d+$/);
      expect(endOf(condition) - before).toBeGreaterThanOrEqual(HOUR);
      expect(endOf(condition) - t.clock.peek()).toBeLessThanOrEqual(HOUR);
    });

    it('clips a later end date and keeps the rest of the condition', async () => {
      await setMaxDuration(HOUR);
      const condition = await saveLogging({
        mode: 'CLIENT',
        condition: `#request.timestamp <= ${t.clock.peek() + 10 * HOUR}l && ${PLAN}`,
      });
      expect(condition).toMatch(
        new RegExp(`^#request\\.timestamp <= \\d+ && \\(${PLAN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`),
      );
      expect(endOf(condition) - t.clock.peek()).toBeLessThanOrEqual(HOUR);
    });

    it('keeps an earlier end date', async () => {
      await setMaxDuration(HOUR);
      const soon = t.clock.peek() + 60_000;
      expect(await saveLogging({ mode: 'CLIENT', condition: `#request.timestamp <= ${soon}` })).toBe(
        `#request.timestamp <= ${soon}`,
      );
    });

    it('does not touch a logging that is off (NONE)', async () => {
      await setMaxDuration(HOUR);
      expect(await saveLogging({ mode: 'NONE', condition: PLAN })).toBe(PLAN);
    });
  });
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: logging configuration saved on an API`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
    });
    afterAll(() => t?.close());

    async function putLogging(apiId: string, logging: { mode: string; condition?: string } | undefined) {
      const { etag, body } = await getApi(t, u.publisher.session, apiId);
      const proxy = (body as { proxy: Record<string, unknown> }).proxy;
      return call(t.app, u.publisher.session, {
        method: 'PUT',
        url: `/apis/${apiId}`,
        headers: { 'if-match': etag },
        payload: { ...body, proxy: { ...proxy, logging } },
      });
    }

    const loggingEvents = async (apiId: string) => {
      const res = await call(t.app, u.admin, { method: 'GET', url: `/apis/${apiId}/audit?size=100` });
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json<{ content: { event: string; patch: string }[] }>()
        .content.filter((e) => e.event.startsWith('API_LOGGING_'))
        .reverse();
    };

    it('refuses a condition the gateway cannot evaluate with a 400 naming the field, keeping the API', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const res = await putLogging(api.id, { mode: 'CLIENT', condition: "#request.headers['x' == " });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('proxy.logging.condition');
      const stored = JSON.parse((await findApiById(t.db, api.id))!.definition) as {
        proxy: { logging?: { mode: string } };
      };
      expect(stored.proxy.logging ?? { mode: 'NONE' }).toEqual({ mode: 'NONE' });
      const tooLong = await putLogging(api.id, { mode: 'CLIENT', condition: `'${'a'.repeat(4100)}' == 'a'` });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json<{ message: string }>().message).toContain('proxy.logging.condition');
    });

    it('accepts the conditions of the console builder', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const condition =
        `#request.timestamp <= ${t.clock.peek() + 60_000}l && #context.plan == 'p' && ` +
        `#request.headers['x-debug'] != null && #request.headers['x-debug'][0] == 'on' && ` +
        `#request.method == 'POST' && #request.remoteAddress == '127.0.0.1'`;
      const res = await putLogging(api.id, { mode: 'CLIENT_PROXY', condition });
      expect(res.statusCode, res.body).toBe(200);
    });

    const setAuditTrail = async (enabled: boolean) => {
      const res = await call(t.app, u.admin, {
        method: 'POST',
        url: '/portal',
        payload: { logging: { audit: { enabled: true, trail: { enabled } } } },
      });
      expect(res.statusCode, res.body).toBe(200);
    };

    it('records no logging audit event while the audit trail of the logging is off (the default)', async () => {
      const api = await createApiAs(t, u.publisher.session);
      expect((await putLogging(api.id, { mode: 'CLIENT' })).statusCode).toBe(200);
      expect((await putLogging(api.id, { mode: 'NONE' })).statusCode).toBe(200);
      expect(await loggingEvents(api.id)).toEqual([]);
    });

    it('audits enabling, updating and disabling the logging with the audit trail on, nothing when it stays the same', async () => {
      await setAuditTrail(true);
      const api = await createApiAs(t, u.publisher.session);
      expect((await putLogging(api.id, { mode: 'CLIENT' })).statusCode).toBe(200);
      expect((await putLogging(api.id, { mode: 'CLIENT' })).statusCode).toBe(200);
      expect((await putLogging(api.id, { mode: 'CLIENT_PROXY', condition: PLAN })).statusCode).toBe(200);
      expect((await putLogging(api.id, { mode: 'NONE', condition: PLAN })).statusCode).toBe(200);
      const events = await loggingEvents(api.id);
      expect(events.map((e) => e.event)).toEqual([
        'API_LOGGING_ENABLED',
        'API_LOGGING_UPDATED',
        'API_LOGGING_DISABLED',
      ]);
      const updated = JSON.parse(events[1]!.patch) as { op: string; path: string; value?: unknown }[];
      expect(updated).toEqual(
        expect.arrayContaining([
          { op: 'replace', path: '/mode', value: 'CLIENT_PROXY' },
          { op: 'add', path: '/condition', value: PLAN },
        ]),
      );
    });
  });
}
