import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { MailSink } from '../e2e/support/mail-sink.js';
import { startMailSink } from '../e2e/support/mail-sink.js';
import type { PorticoProcess } from '../support/portico-process.js';
import { startPorticoOn, type StartedPortico } from '../support/started-portico.js';

/**
 * Issue 17's end-to-end check against the real `portico start` process: a new subscription reaches the
 * API's mail and webhook notification settings; 5xx traffic generated through the gateway makes an
 * error-rate alert fire (and tell the same settings) while an alert with a higher threshold stays quiet.
 */

/** A real server: the API's backend (500 on /fail) and the webhook receiver (/hook). */
async function startServer() {
  const hooks: { event: string; message: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/hook') {
        hooks.push(JSON.parse(body) as { event: string; message: string });
        return res.writeHead(204).end();
      }
      res.writeHead(req.url?.startsWith('/fail') ? 500 : 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hooks,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within 20 s (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: notifications and alerts through the real process`, () => {
    let started: StartedPortico;
    let portico: PorticoProcess;
    let server: Awaited<ReturnType<typeof startServer>>;
    let sink: MailSink;

    beforeAll(async () => {
      [server, sink] = await Promise.all([startServer(), startMailSink()]);
      started = await startPorticoOn(dialect, 'portico-alerts-', {
        PORTICO_SMTP_URL: sink.url,
        PORTICO_OUTBOUND_ALLOW_PRIVATE: 'true',
      });
      ({ portico } = started);
    }, 60_000);
    afterAll(async () => {
      await started?.close();
      await Promise.all([server?.close(), sink?.close()]);
    });

    const api = async <T = Record<string, unknown>>(
      method: string,
      url: string,
      body?: unknown,
    ): Promise<T> => {
      const res = await fetch(`${portico.managementUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${started.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      expect(res.status, `${method} ${url}: ${text}`).toBeLessThan(300);
      return (text ? JSON.parse(text) : undefined) as T;
    };
    const plan = async (apiId: string, security: string) => {
      const created = await api<{ id: string }>('POST', `/apis/${apiId}/plans`, {
        name: security,
        description: `The ${security} plan`,
        security,
        validation: 'MANUAL',
      });
      await api('POST', `/apis/${apiId}/plans/${created.id}/_publish`);
      return created.id;
    };

    it('tells a new subscription by mail and webhook, and fires the error-rate alert on 5xx traffic', async () => {
      const { id: apiId } = await api<{ id: string }>('POST', '/apis', {
        name: 'Payments',
        version: '1.0',
        description: 'Pay',
        context_path: `/alerting-${dialect}`,
        endpoint: server.url,
      });
      const owner = `owner-${dialect}@shop.test`;
      const hooks = ['SUBSCRIPTION_NEW', 'ALERT'];
      await api('POST', `/apis/${apiId}/notificationsettings`, {
        ...{ name: 'Mail', config_type: 'GENERIC', notifier: 'default-email', config: owner, hooks },
      });
      await api('POST', `/apis/${apiId}/notificationsettings`, {
        ...{
          name: 'Hook',
          config_type: 'GENERIC',
          notifier: 'default-webhook',
          config: `${server.url}/hook`,
        },
        hooks,
      });
      await plan(apiId, 'KEY_LESS');
      const keyPlan = await plan(apiId, 'API_KEY');
      await api('POST', `/apis/${apiId}/deploy`);
      await api('POST', `/apis/${apiId}?action=START`);

      // A subscription: the owner's mail and webhook.
      const application = await api<{ id: string }>('POST', '/applications', {
        name: 'Shop',
        description: 'Web shop',
      });
      await api('POST', `/applications/${application.id}/subscriptions?plan=${keyPlan}`, {
        request: 'Please',
      });
      await sink.waitForMail(owner, /subscription/i);
      await eventually(
        async () => server.hooks.map((h) => h.event),
        (events) => events.includes('SUBSCRIPTION_NEW'),
        'the SUBSCRIPTION_NEW webhook',
      );

      // 6 errors out of 10 calls through the gateway, all reported.
      const call = (path: string) => fetch(`${portico.gatewayUrl}/alerting-${dialect}${path}`);
      await eventually(
        async () => (await call('/ok')).status,
        (s) => s === 200,
        'the gateway serving the API',
      );
      for (let i = 0; i < 6; i++) expect((await call('/fail')).status).toBe(500);
      for (let i = 0; i < 3; i++) expect((await call('/ok')).status).toBe(200);
      await eventually(
        async () =>
          (
            await started.storage.db
              .selectFrom('requests')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('api_id', '=', apiId)
              .executeTakeFirstOrThrow()
          ).n,
        (n) => Number(n) === 10,
        'the 10 calls reported',
      );

      const rule = { metricType: 'STATUS_5XX', thresholdType: 'percent_rate' };
      const loud = await api<{ id: string }>('POST', `/apis/${apiId}/alerts`, {
        name: 'Errors',
        ...rule,
        threshold: 50,
      });
      const quiet = await api<{ id: string }>('POST', `/apis/${apiId}/alerts`, {
        name: 'Calm',
        ...rule,
        threshold: 70,
      });
      const alerts = await eventually(
        () => api<{ id: string; state: string; evaluated_at?: number }[]>('GET', `/apis/${apiId}/alerts`),
        (list) => list.every((a) => a.evaluated_at !== undefined),
        'both alerts evaluated',
      );
      expect(alerts.find((a) => a.id === loud.id)?.state).toBe('TRIGGERED');
      expect(alerts.find((a) => a.id === quiet.id)?.state).toBe('OK');

      const told = await eventually(
        async () => server.hooks.filter((h) => h.event === 'ALERT'),
        (list) => list.length > 0,
        'the ALERT webhook',
      );
      expect(told).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/^The alert Errors of the API Payments triggered: .* 60%/),
        }),
      ]);
      await sink.waitForMail(owner, /Alert: Errors/);
      const history = await api<{ content: { state: string }[] }>(
        'GET',
        `/apis/${apiId}/alerts/${quiet.id}/events`,
      );
      expect(history.content).toEqual([]);
    });
  });
}
