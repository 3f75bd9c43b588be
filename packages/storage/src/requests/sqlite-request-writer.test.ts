import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing.js';
import { countRequests, requestStats } from '../analytics/analytics.repository.js';
import { findRequestById, findRequestLogById, findRequests } from './requests.repository.js';
import { requestLogValues, requestValues } from './request-values.js';
import { SqliteRequestWriter } from './sqlite-request-writer.js';
import { testGeoDatabase } from './test-mmdb.js';

const NOW = 1_790_000_000_000;

describe('sqlite: request writer of the gateway reporter', () => {
  let t: TestDatabase;
  let writer: SqliteRequestWriter;
  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    writer = new SqliteRequestWriter(t.storage.sqlitePath!);
  });
  afterAll(async () => {
    writer.close();
    await t.destroy();
  });

  it('writes every column of the records and their logs, in one transaction per batch', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      id: `w${i}`,
      transaction_id: `t${i}`,
      timestamp: NOW + i,
      gateway: 'gw',
      api_id: 'a',
      application_id: i % 2 ? 'app' : null,
      plan_id: 'p',
      subscription_id: 's',
      api_key: 'k',
      user: 'u',
      tenant: 'eu',
      method: 'POST',
      path: '/x',
      uri: '/x?y=1',
      mapped_path: '/x/:id',
      host: 'localhost',
      status: 201,
      request_content_length: 12,
      response_content_length: 34,
      response_time: 5,
      api_response_time: 4,
      latency: 1,
      endpoint: 'http://backend/',
      remote_address: '127.0.0.1',
      user_agent: i === 3 ? 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' : 'test',
      security_type: 'API_KEY',
      error_key: 'E',
      message: 'm',
      has_log: i === 3 ? 1 : 0,
      trace_id: i === 3 ? '4bf92f3577b34da6a3ce929d0e0e4736' : null,
    }));
    const log = {
      id: 'w3',
      timestamp: NOW + 3,
      api_id: 'a',
      application_id: 'app',
      client_request: '{"method":"POST"}',
      proxy_request: null,
      client_response: '{"status":201}',
      proxy_response: null,
    };
    writer.write(rows.map(requestValues), [requestLogValues(log)]);

    expect((await findRequests(t.storage.db, { from: NOW, to: NOW + 5000, offset: 0, limit: 1 })).total).toBe(
      1200,
    );
    // The writer names the client of each User-Agent.
    expect(await findRequestById(t.storage.db, 'w3')).toEqual({
      ...rows[3],
      user_agent_name: 'Firefox',
      os_name: 'Linux',
      geo_country: null,
      geo_city: null,
    });
    expect(await findRequestById(t.storage.db, 'w4')).toEqual({
      ...rows[4],
      user_agent_name: 'Other',
      os_name: 'Other',
      geo_country: null,
      geo_city: null,
    });
    expect(await findRequestLogById(t.storage.db, 'w3')).toEqual(log);
    // The same transaction added them to the rollups: both sources answer alike.
    const window = { from: NOW - 60_000, to: NOW + 120_000 };
    expect(await countRequests(t.storage.db, window)).toBe(1200);
    expect(await countRequests(t.storage.db, { ...window, filter: 'application:app' })).toBe(600);
    expect(await requestStats(t.storage.db, window, 'response-time')).toEqual(
      await requestStats(t.storage.db, { ...window, raw: true }, 'response-time'),
    );
  });

  it('places the client addresses with a GeoIP database', async () => {
    const placing = new SqliteRequestWriter(t.storage.sqlitePath!, { geoipDatabase: testGeoDatabase() });
    const base = (await findRequestById(t.storage.db, 'w4'))!;
    // Outside the window that the other tests count.
    const at = (id: string, remote_address: string | null) => ({
      ...base,
      id,
      remote_address,
      timestamp: NOW - 10_000_000,
    });
    placing.write([at('g1', '81.2.69.160'), at('g2', '10.1.2.3'), at('g3', null)].map(requestValues), []);
    placing.close();
    expect(await findRequestById(t.storage.db, 'g1')).toMatchObject({
      geo_country: 'GB',
      geo_city: 'London',
    });
    expect(await findRequestById(t.storage.db, 'g2')).toMatchObject({ geo_country: null, geo_city: null });
    expect(await findRequestById(t.storage.db, 'g3')).toMatchObject({ geo_country: null, geo_city: null });
    // Without a database nothing is placed.
    expect(await findRequestById(t.storage.db, 'w4')).toMatchObject({ geo_country: null, geo_city: null });
  });

  it('refuses a GeoIP database that is missing, naming it', () => {
    expect(
      () => new SqliteRequestWriter(t.storage.sqlitePath!, { geoipDatabase: '/nowhere/geo.mmdb' }),
    ).toThrow('GeoIP database /nowhere/geo.mmdb: ');
  });

  it('writes nothing of a batch that fails', async () => {
    const row = (id: string) => requestValues({ ...baseRow, id });
    // The second record repeats an id: the whole batch is refused.
    expect(() => writer.write([row('x1'), row('x1')], [])).toThrow();
    expect(await findRequestById(t.storage.db, 'x1')).toBeUndefined();
    const window = { from: NOW - 60_000, to: NOW + 120_000 };
    expect(await countRequests(t.storage.db, window)).toBe(1200);
  });
});

const baseRow = {
  id: '',
  transaction_id: 't',
  timestamp: NOW,
  gateway: 'gw',
  api_id: null,
  application_id: null,
  plan_id: null,
  subscription_id: null,
  api_key: null,
  user: null,
  tenant: null,
  method: 'GET',
  path: '/',
  uri: '/',
  mapped_path: null,
  host: null,
  status: 404,
  request_content_length: 0,
  response_content_length: 0,
  response_time: 1,
  api_response_time: -1,
  latency: 1,
  endpoint: null,
  remote_address: null,
  user_agent: null,
  security_type: null,
  error_key: 'GATEWAY_NO_API',
  message: null,
  has_log: 0,
  trace_id: null,
};
