import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRow } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { call } from '../../test-support/index.js';
import type { KnownTraffic } from './test-support/known-traffic.js';
import { driveKnownTraffic } from './test-support/known-traffic.js';

interface LogItem {
  id: string;
  timestamp: number;
  status: number;
  responseTime: number;
  method: string;
  application: string;
  plan: string;
  api: string;
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: request logs of known traffic through a real gateway`, () => {
    let k: KnownTraffic;
    let rows: RequestRow[];
    beforeAll(async () => {
      k = await driveKnownTraffic(dialect);
      rows = await k.t.db.selectFrom('requests').selectAll().execute();
    });
    afterAll(() => k?.close());

    const get = (url: string) => call(k.t.app, k.admin.session, { method: 'GET', url });
    const logsOf = async (scope: string, params: string) => {
      const res = await get(`/${scope}/logs?from=${k.from}&to=${k.to}&${params}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ logs: LogItem[]; total: number; metadata: Record<string, Record<string, string>> }>();
    };
    /** The ids of the API's rows, sorted as the API should sort them (ties by id, same direction). */
    const expectedOrder = (apiId: string, key: (r: RequestRow) => number, ascending: boolean) =>
      rows
        .filter((r) => r.api_id === apiId)
        .sort((a, b) => {
          const d = key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
          return ascending ? d : -d;
        })
        .map((r) => r.id);

    it('pages the newest first by default, with the total and the names of applications and plans', async () => {
      const all = expectedOrder(k.pets.id, (r) => Number(r.timestamp), false);
      const first = await logsOf(`apis/${k.pets.id}`, 'page=1&size=5');
      expect(first.total).toBe(7);
      expect(first.logs.map((l) => l.id)).toEqual(all.slice(0, 5));
      const second = await logsOf(`apis/${k.pets.id}`, 'page=2&size=5');
      expect(second.logs.map((l) => l.id)).toEqual(all.slice(5));
      expect(first.metadata[k.gold.id]).toEqual({ name: 'Gold' });
      expect(first.metadata[k.alpha.id] ?? first.metadata[k.beta.id]).toBeDefined();
      const failure = [...first.logs, ...second.logs].find((l) => l.id === k.ids.betaFailure)!;
      expect(failure).toMatchObject({ status: 503, method: 'GET', application: k.beta.id, plan: k.gold.id });
    });

    it('sorts on a field, ascending with order=true and descending with a leading minus', async () => {
      const asc = await logsOf(`apis/${k.pets.id}`, 'size=100&field=response-time&order=true');
      expect(asc.logs.map((l) => l.id)).toEqual(
        expectedOrder(k.pets.id, (r) => Number(r.response_time), true),
      );
      const desc = await logsOf(`apis/${k.pets.id}`, 'size=100&field=-response-time');
      expect(desc.logs.map((l) => l.id)).toEqual(
        expectedOrder(k.pets.id, (r) => Number(r.response_time), false),
      );
      const times = rows.filter((r) => r.api_id === k.pets.id).map((r) => Number(r.response_time));
      expect(desc.logs[0]!.responseTime).toBe(Math.max(...times));
    });

    it('lists the logs of an application, named by API, and filters them with query', async () => {
      const beta = await logsOf(`applications/${k.beta.id}`, 'size=100&query=method:POST');
      expect(beta.logs.map((l) => l.id).sort()).toEqual([...k.ids.betaPosts].sort());
      expect(beta.metadata[k.pets.id]).toEqual({ name: 'Pets', version: '1.0' });
    });

    it('shows a log with the consumer-side and gateway-side request and response', async () => {
      const [id] = k.ids.betaPosts;
      const res = await get(`/apis/${k.pets.id}/logs/${id}?timestamp=${k.from}`);
      expect(res.statusCode).toBe(200);
      const log = res.json();
      expect(log).toMatchObject({
        id,
        status: 201,
        method: 'POST',
        api: k.pets.id,
        application: k.beta.id,
        plan: k.gold.id,
        apiKey: expect.stringMatching(/^beta-/),
        clientRequest: { method: 'POST', body: 'x' },
        proxyRequest: { method: 'POST', body: 'x' },
        clientResponse: { status: 201 },
        proxyResponse: { status: 201 },
      });
      expect(log.proxyRequest.uri).toMatch(/\/status\/201$/);
      expect(log.metadata[k.beta.id]).toEqual({ name: 'Beta' });
      expect(Object.values(log.metadata)).toContainEqual(expect.objectContaining({ ip: expect.any(String) }));
      // A request of an API without logging: the summary, and no sides.
      const plain = await get(`/apis/${k.orders.id}/logs/${k.ids.ordersMissing}`);
      expect(plain.json()).toMatchObject({ status: 404, clientRequest: null, proxyResponse: null });
      // Another API's log is not found here.
      expect((await get(`/apis/${k.orders.id}/logs/${id}`)).statusCode).toBe(404);
    });

    it('exports the page as CSV named after the API, with names for plans and applications', async () => {
      const res = await get(
        `/apis/${k.pets.id}/logs/export?from=${k.from}&to=${k.to}&size=100&query=status:503`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="logs-Pets-\d+\.csv"$/);
      const failure = rows.find((r) => r.id === k.ids.betaFailure)!;
      expect(res.body).toBe(
        'Date;Request Id;Transaction Id;Method;Path;Status;Response Time;Plan;Application\n' +
          `${new Date(Number(failure.timestamp)).toISOString()};${failure.id};${failure.transaction_id};GET;` +
          `${failure.path};503;${failure.response_time};Gold;Beta\n`,
      );
      const none = await get(
        `/applications/${k.alpha.id}/logs/export?from=${k.from}&to=${k.to}&query=status:404`,
      );
      expect(none.statusCode).toBe(200);
      expect(none.body).toBe('');
    });

    it('filters on the trace id (trace or trace-id) and shows it in the detail', async () => {
      const [id] = k.ids.betaPosts;
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      await k.t.db.updateTable('requests').set({ trace_id: traceId }).where('id', '=', id!).execute();
      for (const field of ['trace', 'trace-id']) {
        const found = await logsOf(`apis/${k.pets.id}`, `size=100&query=${field}:${traceId}`);
        expect(found.logs.map((l) => l.id)).toEqual([id]);
      }
      const detail = await get(`/apis/${k.pets.id}/logs/${id}?timestamp=${k.from}`);
      expect(detail.json<{ traceId: string }>().traceId).toBe(traceId);
      const other = await get(`/apis/${k.pets.id}/logs/${k.ids.betaFailure}?timestamp=${k.from}`);
      expect(other.json<{ traceId: string | null }>().traceId).toBeNull();
    });
  });
}
