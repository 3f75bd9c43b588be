import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousA11yViolations, setSwitch } from './support/app';
import { launchChromium, policyViolations, screenshot } from './support/browser';
import { adminConsolePage, startedKeylessApi } from './support/keyless-api';
import type { Portico } from './support/portico';
import { adminToken, startPortico } from './support/portico';

/** A backend whose /health answers 200 {"status":"UP"} while healthy, 500 {"status":"DOWN"} after. */
async function backend() {
  const state = { healthy: true };
  const server: Server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url?.endsWith('/health')) {
      res.statusCode = state.healthy ? 200 : 500;
      return res.end(JSON.stringify({ status: state.healthy ? 'UP' : 'DOWN' }));
    }
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Health checks end to end (console-apis.md 2.5): a check configured through the screen with a CEL
 * assertion, deployed; the gateway checks a real backend; the backend fails and the dashboard shows the
 * endpoint's availability falling and the transition down, with the failed check's request and response.
 */
describe('console: API health-check', () => {
  let portico: Portico;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let api: Awaited<ReturnType<typeof backend>>;
  let apiId: string;

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${portico.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const main = () => page.getByRole('main');
  const base = () => `${portico.webUrl}/management/apis/${apiId}`;
  /** Reloads the dashboard until `locator` shows (the screen also refreshes itself every 10 s). */
  const dashboardShows = async (find: () => ReturnType<Page['getByText']>, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await find().count()) > 0) return;
      if (Date.now() > deadline) throw new Error('the dashboard did not show it');
      await page.waitForTimeout(1000);
      await page.reload();
      await main().getByRole('heading', { name: 'Health-check', exact: true }).waitFor();
    }
  };

  beforeAll(async () => {
    [portico, browser, api] = await Promise.all([startPortico(), launchChromium(), backend()]);
    token = await adminToken(portico);
    apiId = await startedKeylessApi(call, {
      name: 'Stock',
      description: 'The stock',
      contextPath: '/stock',
      endpoint: api.url,
    });
    ({ context, page } = await adminConsolePage(browser, portico));
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await portico?.stop();
    api?.server.close();
  });

  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    console.error(portico.output().slice(-2000));
    await screenshot(page, `failed-api-health-${test.task.name.slice(0, 40)}`).catch(() => undefined);
  });

  it('configures the check on the screen, deploys, and the dashboard shows the endpoint going down', async () => {
    await page.goto(`${base()}/portal`);
    await page
      .getByRole('navigation', { name: 'API menu' })
      .getByRole('link', { name: 'Health-check' })
      .click();
    await page.waitForURL(`${base()}/proxy/healthcheck`);
    await main().getByText('No health-check is enabled on this API').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-health-dashboard-empty');

    await main().getByRole('link', { name: 'Configure' }).click();
    await page.waitForURL(`${base()}/proxy/healthcheck/configure`);
    await setSwitch(main().getByRole('switch', { name: 'Enable health-check' }), true);
    const interval = main().getByRole('textbox', { name: 'Interval' });
    const save = main().getByRole('button', { name: 'Save' });
    // Section 5: an interval of at least 1, a path, each assertion.
    await interval.fill('0');
    await main().getByText('A number of at least 1').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await interval.fill('1');
    await main().getByRole('textbox', { name: 'Path' }).fill('');
    await main().getByText('Required').first().waitFor();
    expect(await save.isDisabled()).toBe(true);
    await main().getByRole('textbox', { name: 'Path' }).fill('/health');
    await main().getByRole('button', { name: 'Add an assertion' }).click();
    expect(await save.isDisabled()).toBe(true);
    await main()
      .getByRole('textbox', { name: 'Assertion 2' })
      .fill("#jsonPath(#response.content, '$.status') == 'UP'");
    expect(await save.isDisabled()).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-health-configure');
    await save.click();
    await page.getByText('Global health-check configuration updated').waitFor();
    const stored = await call<{ services: Record<string, unknown> }>('GET', `apis/${apiId}`);
    expect(stored.services['health-check']).toEqual({
      enabled: true,
      trigger: { rate: 1, unit: 'SECONDS' },
      steps: [
        {
          request: { method: 'GET', path: '/health', fromRoot: false, headers: [] },
          response: {
            assertions: ['#response.status == 200', "#jsonPath(#response.content, '$.status') == 'UP'"],
          },
        },
      ],
    });

    // Deployed: the gateway checks the backend every second.
    await page.getByRole('button', { name: 'Deploy your API' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
    await page.getByText('API Stock deployed').waitFor();
    await page.goto(`${base()}/proxy/healthcheck`);
    await dashboardShows(() => main().getByRole('cell', { name: 'Up' }));
    await dashboardShows(() => main().getByText('100 %'));

    // The backend fails its health: two failed checks take the endpoint down.
    api.state.healthy = false;
    await dashboardShows(() => main().getByRole('cell', { name: 'Down', exact: true }));
    // By keyboard: a forced click on the switch's input, which covers its label, missed once in CI.
    const onlyTransitions = main().getByRole('switch', { name: 'Only transitions' });
    await onlyTransitions.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => onlyTransitions.isChecked()).toBe(true);
    await main().getByRole('heading', { name: 'Transitions' }).waitFor();
    await main().getByRole('cell', { name: 'Transitionally down' }).first().waitFor();
    const states = await main()
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'View' }) })
      .allInnerTexts();
    expect(states.some((row) => /transitionally down/i.test(row))).toBe(true);
    expect(states.some((row) => /\bdown\b/i.test(row.replace(/transitionally down/gi, '')))).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-health-dashboard-down');

    // The check that took it down: its request and the 500 answer.
    await main()
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Down', exact: true }) })
      .first()
      .getByRole('link', { name: 'View' })
      .click();
    await page.waitForURL(new RegExp(`${base()}/proxy/healthcheck/logs/`));
    await main().getByText('Status 500').waitFor();
    await main().getByText(`GET ${api.url}/health`).waitFor();
    await main().getByText('{"status":"DOWN"}').waitFor();
    await main().getByText('Assertion not validated: #response.status == 200').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-health-log');
    await main().getByRole('link', { name: 'Back to the health-check' }).click();
    await page.waitForURL(`${base()}/proxy/healthcheck`);
  }, 120_000);

  it('an endpoint runs its own check instead of the inherited one (in French)', async () => {
    await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('fr')));
    await page.goto(`${base()}/proxy/groups/default-group/endpoints/default/healthcheck`);
    await main().getByRole('heading', { name: 'Health-check du endpoint default' }).waitFor();
    await setSwitch(
      main().getByRole('switch', { name: 'Hériter de la configuration globale du health-check' }),
      false,
    );
    await main().getByRole('textbox', { name: 'Chemin' }).fill('/status');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-health-endpoint-fr');
    await main().getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Configuration du health-check du endpoint mise à jour').waitFor();
    const stored = await call<{
      proxy: { groups: { endpoints: { healthcheck?: Record<string, unknown> }[] }[] };
    }>('GET', `apis/${apiId}`);
    expect(stored.proxy.groups[0]!.endpoints[0]!.healthcheck).toMatchObject({
      enabled: true,
      inherit: false,
      steps: [{ request: { path: '/status' } }],
    });
    await page.goto(`${base()}/proxy/healthcheck`);
    await main().getByRole('heading', { name: 'Health-check', exact: true }).waitFor();
    await main().getByRole('switch', { name: 'Transitions uniquement' }).waitFor();
    await screenshot(page, 'api-health-dashboard-fr');
    await page.goto(`${base()}/proxy/healthcheck/configure`);
    await main().getByRole('heading', { name: 'Configuration du health-check' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-health-configure-fr');
    await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('en')));
  }, 60_000);
});
