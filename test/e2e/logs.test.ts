import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousA11yViolations } from './support/app';
import { screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';

/** A backend that answers the body it received as JSON (404 under /missing). */
async function echoBackend(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.statusCode = req.url?.includes('/missing') ? 404 : 200;
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('X-Backend', 'echo');
      res.end(JSON.stringify({ received: body, path: req.url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const TRACEPARENT = '00-7d3ef2a1c0b94e15a6f2d8c4b1e09a37-5f1c2a9d3e4b6c78-01';
const PAYLOAD = '{"order":"<b>bold</b><script>window.hacked=1</script>"}';

/**
 * The request logs (console-apis.md 2.10, console-applications-and-settings.md 2.1) against `portico
 * start` with real traffic through its gateway: the logging configured on its screen with the condition
 * builder, the API's log list with filters and error rows, the log detail with the bodies of both sides,
 * the CSV export, and the application's logs.
 */
describe('request logs', () => {
  // Tracing on (sampled out, nothing exported): the gateway keeps each call's trace id with its log.
  const suite = consoleSuite({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_SAMPLER: 'always_off' },
  });
  const { api, world, adminOn, main, dialog, toast, inLanguage } = suite;
  let backend: { server: Server; url: string };
  let apiId = '';
  let appId = '';
  let apiKey = '';
  let loggedId = '';
  const DAY = 86_400_000;

  beforeAll(async () => {
    backend = await echoBackend();
    ({ id: apiId } = await api<{ id: string }>('POST', 'apis', {
      name: 'Echo',
      version: '1.0',
      description: 'Answers what it gets',
      context_path: '/echo',
      endpoint: backend.url,
    }));
    const plan = await api<{ id: string }>('POST', `apis/${apiId}/plans`, {
      name: 'Gold',
      description: 'Keys for partners',
      security: 'API_KEY',
      validation: 'AUTO',
      status: 'PUBLISHED',
    });
    ({ id: appId } = await api<{ id: string }>('POST', 'applications', {
      name: 'Mobile app',
      description: 'The phone app',
    }));
    const subscription = await api<{ id: string }>(
      'POST',
      `applications/${appId}/subscriptions?plan=${plan.id}`,
    );
    const keys = await api<{ key: string }[]>('GET', `apis/${apiId}/subscriptions/${subscription.id}/keys`);
    apiKey = keys[0]!.key;
    await api('POST', `apis/${apiId}/deploy`);
    await api('POST', `apis/${apiId}?action=START`);
  });

  afterAll(() => backend?.server.close());

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${world.portico.gatewayUrl}${path}`, {
      ...init,
      headers: { 'x-api-key': apiKey, ...(init.headers as Record<string, string>) },
    });
  const rows = (page: Page) => main(page).locator('table tbody tr[data-log-id]');

  it('configures the logging on its screen with the condition builder', async () => {
    const page = await adminOn(`/management/apis/${apiId}/logs/configure`);
    await main(page).getByRole('heading', { name: 'Logging configuration' }).waitFor();
    await main(page).getByText('Logging has a cost').waitFor();
    const save = main(page).getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    // Mode None disables the condition.
    expect(await main(page).getByRole('button', { name: 'Condition builder' }).isDisabled()).toBe(true);
    await main(page).getByRole('radio', { name: 'Client and proxy' }).check();
    await main(page).getByRole('button', { name: 'Condition builder' }).click();

    const builder = dialog(page);
    await builder.getByRole('heading', { name: 'Logging condition' }).waitFor();
    await builder.getByLabel('Method', { exact: true }).first().click();
    await page.getByRole('option', { name: 'POST', exact: true }).click();
    await builder.getByRole('button', { name: 'Add a condition' }).click();
    const builderSave = builder.getByRole('button', { name: 'Save', exact: true });
    // The new header condition has no name and value yet: Save waits.
    expect(await builderSave.isDisabled()).toBe(true);
    await builder.getByRole('textbox', { name: 'Header name' }).fill('X-Debug');
    await builder.getByRole('textbox', { name: 'Header value' }).fill('on');
    await builder.getByText("#request.method == 'POST' && #request.headers['x-debug'] == 'on'").waitFor();
    await screenshot(page, 'logs-condition-builder');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await builderSave.click();
    await builder.waitFor({ state: 'hidden' });

    const condition = main(page).getByRole('textbox', { name: 'Condition' });
    expect(await condition.inputValue()).toBe(
      "#request.method == 'POST' && #request.headers['x-debug'] == 'on'",
    );
    await save.click();
    await toast(page, 'Logging configuration has been updated').waitFor();
    const stored = await api<{ proxy: { logging: unknown } }>('GET', `apis/${apiId}`);
    expect(stored.proxy.logging).toEqual({
      mode: 'CLIENT_PROXY',
      condition: "#request.method == 'POST' && #request.headers['x-debug'] == 'on'",
    });
    await screenshot(page, 'logs-configuration');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A condition the gateway cannot read is refused by the server, naming the field.
    await condition.fill("#request.method == 'POST' &&");
    await save.click();
    await toast(page, /proxy\.logging\.condition/).waitFor();
    expect(
      (await api<{ proxy: { logging: { condition: string } } }>('GET', `apis/${apiId}`)).proxy.logging
        .condition,
    ).toBe("#request.method == 'POST' && #request.headers['x-debug'] == 'on'");
    await api('POST', `apis/${apiId}/deploy`);
  });

  it('lists the requests of the API, flags errors, filters, and opens a log with its bodies', async () => {
    // The gateway serves the deployed logging: a matching POST is logged with its bodies.
    let logged: Response | undefined;
    for (let i = 0; i < 100 && !logged; i++) {
      const res = await call('/echo/orders', {
        method: 'POST',
        headers: { 'x-debug': 'on', 'content-type': 'application/json', traceparent: TRACEPARENT },
        body: PAYLOAD,
      });
      if (res.status === 200) logged = res;
      else await new Promise((r) => setTimeout(r, 200));
    }
    loggedId = logged!.headers.get('x-request-id')!;
    expect((await call('/echo/orders')).status).toBe(200);
    expect((await call('/echo/missing', { method: 'POST', body: 'nope' })).status).toBe(404);
    await expect
      .poll(
        async () =>
          (
            await api<{ total: number }>(
              'GET',
              `apis/${apiId}/logs?from=${Date.now() - DAY}&to=${Date.now() + 1000}`,
            )
          ).total,
        { timeout: 20_000 },
      )
      .toBeGreaterThanOrEqual(3);

    const page = await adminOn(`/management/apis/${apiId}/portal`);
    await page.locator(`a[href$="/apis/${apiId}/logs"]`).click();
    await page.waitForURL(/\/logs$/);
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const errorRow = rows(page).filter({ hasText: '/echo/missing' });
    expect(await errorRow.getAttribute('data-error')).toBe('true');
    await expect(errorRow.innerText()).resolves.toMatch(/404[\s\S]*Mobile app[\s\S]*Gold[\s\S]*POST/);
    expect(await rows(page).first().innerText()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}/);
    await screenshot(page, 'logs-api-list');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Only the errors: status 4xx.
    await main(page).getByRole('combobox', { name: 'Status' }).click({ force: true });
    await page.getByRole('option', { name: '4xx Client error' }).click();
    await main(page).getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=4/);
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(1);
    await main(page).getByRole('button', { name: 'Clear the filters' }).click();
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);

    await main(page).locator(`tr[data-log-id="${loggedId}"] a`).click();
    await page.waitForURL(new RegExp(`/logs/${loggedId}\\?timestamp=\\d+`));
    const consumerRequest = main(page).getByRole('region', { name: 'Consumer request' });
    await expect(consumerRequest.getByLabel('Consumer request – Body').innerText()).resolves.toBe(PAYLOAD);
    // The body is text: its markup neither renders nor runs.
    expect(await consumerRequest.locator('b, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
    const gatewayRequest = main(page).getByRole('region', { name: 'Gateway request (to the backend)' });
    await expect(gatewayRequest.innerText()).resolves.toContain('x-debug');
    const backendResponse = main(page).getByRole('region', { name: 'Backend response (to the gateway)' });
    await expect(backendResponse.innerText()).resolves.toContain('x-backend');
    await expect(backendResponse.innerText()).resolves.toContain('"received"');
    await expect(main(page).innerText()).resolves.toContain('Mobile app');
    await expect(main(page).innerText()).resolves.toContain(apiKey);
    // The caller's trace goes on through the gateway: its trace id is shown with the log.
    await expect(main(page).innerText()).resolves.toMatch(
      new RegExp(`Trace ID\\s+${TRACEPARENT.split('-')[1]}`),
    );
    await screenshot(page, 'logs-api-detail');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await main(page).getByRole('button', { name: 'Hide the context' }).click();
    await main(page).getByText('Subscription', { exact: true }).waitFor({ state: 'detached' });
    await main(page).getByRole('button', { name: 'Show the context' }).waitFor();

    // A request the condition did not log says so, with the link to configure the logging.
    const unlogged = (
      await api<{ logs: { id: string; method: string; path: string }[] }>(
        'GET',
        `apis/${apiId}/logs?from=${Date.now() - DAY}&to=${Date.now() + 1000}&query=method:GET`,
      )
    ).logs[0]!;
    await page.goto(`${world.portico.webUrl}/management/apis/${apiId}/logs/${unlogged.id}`);
    await main(page).getByText('No log for this request/response').waitFor();
    await main(page).getByRole('link', { name: 'Configure the logging' }).waitFor();

    await main(page).getByRole('link', { name: 'Back to logs' }).click();
    await page.waitForURL(new RegExp(`/apis/${apiId}/logs$`));
  });

  it('exports the logs as CSV', async () => {
    const page = await adminOn(`/management/apis/${apiId}/logs`);
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main(page).getByRole('button', { name: 'Export as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^logs-Echo-\d+\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('Date;Request Id;Transaction Id;Method;Path;Status;Response Time;Plan;Application');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const line = lines.find((l) => l.includes(loggedId))!;
    expect(line.split(';')).toEqual(
      expect.arrayContaining([loggedId, 'POST', '/echo/orders', '200', 'Gold', 'Mobile app']),
    );
  });

  it("lists the application's requests and opens one", async () => {
    const page = await adminOn(`/management/applications/${appId}`);
    await page.locator(`a[href$="/applications/${appId}/logs"]`).click();
    await page.waitForURL(/\/logs$/);
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await expect(main(page).getByRole('columnheader', { name: 'API' }).count()).resolves.toBe(1);
    await expect(rows(page).first().innerText()).resolves.toContain('Echo');
    await screenshot(page, 'logs-application-list');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await main(page).locator(`tr[data-log-id="${loggedId}"] a`).click();
    await main(page).getByRole('region', { name: 'Consumer request' }).waitFor();
    await expect(main(page).innerText()).resolves.toContain('Echo');
    await screenshot(page, 'logs-application-detail');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await main(page).getByRole('link', { name: 'Back to logs' }).click();
    await page.waitForURL(new RegExp(`/applications/${appId}/logs$`));
  });

  it('shows the User column while the platform displays users (logging.user.displayed)', async () => {
    await api('POST', 'portal', { logging: { user: { displayed: true } } });
    try {
      const page = await adminOn(`/management/apis/${apiId}/logs`);
      await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
      const headers = await main(page).getByRole('columnheader').allInnerTexts();
      expect(headers.map((h) => h.trim())).toEqual([
        'Date',
        'Status',
        'Application',
        'User',
        'Plan',
        'Method',
        'Path',
        'Response time',
      ]);
      // Sorting by a column keeps the choice in the URL.
      await main(page).getByRole('columnheader', { name: 'Status' }).getByRole('button').click();
      await page.waitForURL(/field=status/);
      await expect
        .poll(() => main(page).getByRole('columnheader', { name: 'Status' }).getAttribute('aria-sort'), {
          timeout: 15_000,
        })
        .toBe('ascending');
    } finally {
      await api('POST', 'portal', { logging: { user: { displayed: false } } });
    }
  });

  it('reads in French, and says No log for an empty timeframe', async () => {
    const page = await adminOn(`/management/apis/${apiId}/logs?from=1000&to=2000`);
    await main(page).getByText('No log', { exact: true }).waitFor();
    expect(await main(page).getByRole('button', { name: 'Export as CSV' }).isDisabled()).toBe(true);
    await inLanguage(page, 'fr');
    await main(page).getByText('Aucun journal').waitFor();
    await page.goto(`${world.portico.webUrl}/management/apis/${apiId}/logs`);
    await main(page).getByRole('heading', { name: 'Journaux' }).waitFor();
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'logs-api-list-fr');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
