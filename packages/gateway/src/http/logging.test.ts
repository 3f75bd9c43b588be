import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeployedApi } from '@portico/model';
import { boundLoggingCondition } from '@portico/model';
import { deadUrl } from '../test-support/backends.js';
import { deployedApi } from '../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';
import { indexRequestSegments } from '@portico/storage';

/** Largest body kept in a log (the handler's MAX_LOGGED_BODY). */
const MAX_LOGGED_BODY = 64 * 1024;

interface LoggedSide {
  method?: string;
  uri?: string;
  status?: number;
  headers: Record<string, string>;
  body?: string;
}

describe('request logging: modes and condition', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness({ name: 'logged', headers: () => ({ 'x-from-backend': 'yes' }) });
  });
  afterAll(() => h.close());

  async function deployLogged(contextPath: string, mode: string, condition?: string): Promise<DeployedApi> {
    const api = deployedApi(contextPath, [`${h.backend.url}/base`], {
      definition: {
        proxy: {
          context_path: contextPath,
          logging: { mode, ...(condition ? { condition } : {}) },
          groups: [{ name: 'default', endpoints: [{ name: 'e0', target: `${h.backend.url}/base` }] }],
        } as never,
      },
    });
    await h.deploy(api);
    return api;
  }

  /** The request row and its log (undefined when none) of a response, by its X-Request-Id. */
  async function reportOf(res: Response) {
    const id = res.headers.get('x-request-id')!;
    await h.gateway.reporter.flush();
    await indexRequestSegments(h.t.storage.db);
    const [request, log] = await Promise.all([
      h.t.storage.db.selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      h.t.storage.db.selectFrom('request_logs').selectAll().where('id', '=', id).executeTakeFirst(),
    ]);
    const side = (text: string | null | undefined) => (text ? (JSON.parse(text) as LoggedSide) : undefined);
    return {
      request,
      log: log && {
        row: log,
        clientRequest: side(log.client_request),
        clientResponse: side(log.client_response),
        proxyRequest: side(log.proxy_request),
        proxyResponse: side(log.proxy_response),
      },
    };
  }

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${h.gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-client': 'c1', ...headers },
      body,
    });

  it('NONE: writes no log and leaves has_log at 0', async () => {
    await deployLogged('/log-none', 'NONE');
    const res = await post('/log-none/items', 'hello');
    expect(res.status).toBe(200);
    const { request, log } = await reportOf(res);
    expect(request.has_log).toBe(0);
    expect(log).toBeUndefined();
  });

  it('CLIENT: logs the request as the client sent it and the response as the client got it', async () => {
    const api = await deployLogged('/log-client', 'CLIENT');
    const res = await post('/log-client/items?q=1', 'hello client');
    expect(res.status).toBe(200);
    const answered = await res.text();
    const { request, log } = await reportOf(res);
    expect(request.has_log).toBe(1);
    expect(log!.row.api_id).toBe(api.id);
    expect(log!.clientRequest).toMatchObject({
      method: 'POST',
      uri: '/log-client/items?q=1',
      body: 'hello client',
      headers: { 'x-client': 'c1', 'content-type': 'text/plain' },
    });
    expect(log!.clientResponse).toMatchObject({
      status: 200,
      body: answered,
      headers: { 'x-from-backend': 'yes', 'x-request-id': request.id },
    });
    expect(log!.proxyRequest).toBeUndefined();
    expect(log!.proxyResponse).toBeUndefined();
  });

  it('PROXY: logs the request sent to the backend and its answer, not the client side', async () => {
    await deployLogged('/log-proxy', 'PROXY');
    const res = await post('/log-proxy/items?q=2', 'hello proxy');
    expect(res.status).toBe(200);
    const echo = (await res.json()) as Echo;
    const { request, log } = await reportOf(res);
    expect(request.has_log).toBe(1);
    expect(log!.clientRequest).toBeUndefined();
    expect(log!.clientResponse).toBeUndefined();
    expect(log!.proxyRequest).toMatchObject({
      method: 'POST',
      uri: `${h.backend.url}/base/items?q=2`,
      body: 'hello proxy',
      headers: { 'x-client': 'c1', 'x-forwarded-prefix': '/log-proxy', 'x-request-id': request.id },
    });
    expect(echo.url).toBe('/base/items?q=2');
    expect(log!.proxyResponse).toMatchObject({
      status: 200,
      headers: { 'x-from-backend': 'yes' },
      body: JSON.stringify(echo),
    });
  });

  it('CLIENT_PROXY: logs both sides; large bodies are cut in the log but reach the backend and the client whole', async () => {
    await deployLogged('/log-both', 'CLIENT_PROXY');
    // Multi-byte characters, so that a cut or a re-encoding would show.
    const payload = 'é€'.repeat(40_000);
    const res = await post('/log-both/upload', payload, { 'content-type': 'text/plain; charset=utf-8' });
    expect(res.status).toBe(200);
    const text = await res.text();
    const echo = JSON.parse(text) as Echo;
    expect(echo.body).toBe(payload);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));

    const { request, log } = await reportOf(res);
    expect(request.has_log).toBe(1);
    expect(request.request_content_length).toBe(Buffer.byteLength(payload));
    for (const side of [log!.clientRequest, log!.proxyRequest, log!.clientResponse, log!.proxyResponse]) {
      expect(side).toBeDefined();
      expect(Buffer.byteLength(side!.body!)).toBeLessThanOrEqual(MAX_LOGGED_BODY);
      expect(side!.body!.length).toBeGreaterThan(1000);
    }
    expect(payload.startsWith(log!.clientRequest!.body!)).toBe(true);
    expect(payload.startsWith(log!.proxyRequest!.body!)).toBe(true);
    expect(text.startsWith(log!.clientResponse!.body!)).toBe(true);
  });

  it('logs only the requests matching the condition', async () => {
    await deployLogged(
      '/log-condition',
      'CLIENT_PROXY',
      "request.headers['x-debug'] == 'on' && request.method == 'POST'",
    );
    const matching = await post('/log-condition', 'debug me', { 'x-debug': 'on' });
    const wrongMethod = await fetch(`${h.gateway.url}/log-condition`, { headers: { 'x-debug': 'on' } });
    const noHeader = await post('/log-condition', 'not me');
    const otherValue = await post('/log-condition', 'not me either', { 'x-debug': 'off' });
    for (const res of [matching, wrongMethod, noHeader, otherValue]) expect(res.status).toBe(200);

    const logged = await reportOf(matching);
    expect(logged.request.has_log).toBe(1);
    expect(logged.log!.clientRequest!.body).toBe('debug me');
    for (const res of [wrongMethod, noHeader, otherValue]) {
      const { request, log } = await reportOf(res);
      expect(request.has_log).toBe(0);
      expect(log).toBeUndefined();
    }
    // Requests that were not logged still carried their bodies through.
    expect(((await noHeader.json()) as Echo).body).toBe('not me');
  });

  it('accepts the console condition forms: # variables, plan and end date', async () => {
    const until = Date.now() + 3_600_000;
    const api = await deployLogged(
      '/log-console',
      'CLIENT',
      `#request.timestamp <= ${until} && #context.plan != '' && #request.headers['x-debug'] == 'on'`,
    );
    const res = await fetch(`${h.gateway.url}/log-console`, { headers: { 'x-debug': 'on' } });
    const { request, log } = await reportOf(res);
    expect(request.plan_id).toBe(api.plans[0]!.id);
    expect(request.has_log).toBe(1);
    expect(log!.clientRequest!.method).toBe('GET');
    const expired = await deployLogged(
      '/log-expired',
      'CLIENT',
      `#request.timestamp <= ${Date.now() - 1000}`,
    );
    const late = await fetch(`${h.gateway.url}/log-expired`);
    expect((await reportOf(late)).request.has_log).toBe(0);
    expect(expired.id).toBeTruthy();
  });

  describe('maximum logging duration (the end time the management API writes into the condition)', () => {
    it('logs until the end time, then stops, whatever the rest of the condition says', async () => {
      const end = Date.now() + 1500;
      await deployLogged('/log-bounded', 'CLIENT', boundLoggingCondition('true', end));
      const early = await post('/log-bounded', 'within the duration');
      expect((await reportOf(early)).request.has_log).toBe(1);
      await new Promise((r) => setTimeout(r, Math.max(0, end - Date.now()) + 50));
      const late = await post('/log-bounded', 'after the duration');
      expect(late.status).toBe(200);
      const { request, log } = await reportOf(late);
      expect(request.has_log).toBe(0);
      expect(log).toBeUndefined();
    });

    it("reads Gravitee's long suffix: `#request.timestamp <= 123l` is an end time, not a broken API", async () => {
      await deployLogged('/log-long-future', 'CLIENT', `#request.timestamp <= ${Date.now() + 3_600_000}l`);
      await deployLogged('/log-long-past', 'CLIENT', `#request.timestamp <= ${Date.now() - 1000}l && true`);
      const future = await post('/log-long-future', 'logged');
      const past = await post('/log-long-past', 'not logged');
      expect([future.status, past.status]).toEqual([200, 200]);
      expect((await reportOf(future)).request.has_log).toBe(1);
      expect((await reportOf(past)).request.has_log).toBe(0);
    });

    it('an end under an || is not an end: the other side still logs', async () => {
      await deployLogged(
        '/log-either',
        'CLIENT',
        `#request.timestamp <= ${Date.now() - 1000} || #request.headers['x-debug'] == 'on'`,
      );
      const res = await post('/log-either', 'logged', { 'x-debug': 'on' });
      expect((await reportOf(res)).request.has_log).toBe(1);
    });
  });

  it('logs a request whose backend cannot be reached, with the error the client got', async () => {
    const dead = await deadUrl();
    const api = deployedApi('/log-dead', [dead], {
      definition: {
        proxy: {
          context_path: '/log-dead',
          logging: { mode: 'CLIENT_PROXY' },
          groups: [{ name: 'default', endpoints: [{ name: 'e0', target: dead }] }],
        } as never,
      },
    });
    await h.deploy(api);
    const res = await post('/log-dead/x', 'lost');
    expect(res.status).toBe(502);
    const answered = await res.text();
    const { request, log } = await reportOf(res);
    expect(request.has_log).toBe(1);
    expect(log!.clientRequest).toMatchObject({ method: 'POST', uri: '/log-dead/x', body: 'lost' });
    expect(log!.clientResponse).toMatchObject({ status: 502, body: answered });
    expect(log!.proxyRequest).toMatchObject({ method: 'POST', uri: `${dead}/x`, body: 'lost' });
    expect(log!.proxyResponse).toBeUndefined();
  });
});
