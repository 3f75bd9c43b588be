import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousA11yViolations, settle } from './support/app';
import { screenshot } from './support/browser';
import { testGeoDatabase } from '../../packages/storage/src/requests/test-mmdb';
import { consoleSuite } from './support/console-suite';

/** A backend: 200 by default, 404 under /missing, 503 after 120 ms under /fail. */
async function statusBackend(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const answer = (status: number) => {
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ path: req.url }));
    };
    if (req.url?.includes('/fail')) setTimeout(() => answer(503), 120);
    else answer(req.url?.includes('/missing') ? 404 : 200);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/**
 * The analytics dashboards (console-apis.md 2.10, console-applications-and-settings.md 2.1 and 2.2)
 * against `portico start` with known traffic through its gateway: 6 calls answered 200, 1 answered
 * 404 and 2 answered 503 by the backend, all by one application. Each dashboard shows these figures;
 * clicking a widget filters (a removable chip); the timeframe switches; an old window is empty.
 */
describe('analytics dashboards', () => {
  // A GeoIP database placing the loopback addresses (where the test's calls come from) in São Paulo.
  const { api, world, adminOn, main, inLanguage } = consoleSuite({
    env: { PORTICO_ANALYTICS_GEOIP_DATABASE: testGeoDatabase() },
  });
  let backend: { server: Server; url: string };
  let apiId = '';
  let appId = '';
  let apiKey = '';
  /** Statuses of the calls refused while the gateway was not yet serving the API (reported too). */
  const probes: number[] = [];
  /** Refused by the API itself (its key not yet known): these count in the API's figures. */
  const apiProbes = () => probes.filter((s) => s === 401).length;
  const pie = (extra: number[]) => {
    const classes = [0, 6, 0, 1, 2];
    for (const s of extra) classes[Math.floor(s / 100) - 1]! += 1;
    return classes.map((n, i) => `${i + 1}xx ${n}`).join(', ');
  };

  beforeAll(async () => {
    backend = await statusBackend();
    ({ id: apiId } = await api<{ id: string }>('POST', 'apis', {
      name: 'Dash Pets',
      version: '1.0',
      description: 'Pets behind the dashboard',
      context_path: '/dash-pets',
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
      name: 'Dash app',
      description: 'Calls the pets',
    }));
    const subscription = await api<{ id: string }>(
      'POST',
      `applications/${appId}/subscriptions?plan=${plan.id}`,
    );
    apiKey = (await api<{ key: string }[]>('GET', `apis/${apiId}/subscriptions/${subscription.id}/keys`))[0]!
      .key;
    await api('POST', `apis/${apiId}/deploy`);
    await api('POST', `apis/${apiId}?action=START`);

    // Node's fetch says `node` (Node.js, no system); two calls come from Firefox on Linux, one from curl.
    const call = (path: string, method = 'GET', userAgent?: string) =>
      fetch(`${world.portico.gatewayUrl}/dash-pets${path}`, {
        method,
        headers: { 'x-api-key': apiKey, ...(userAgent ? { 'user-agent': userAgent } : {}) },
      });
    // The gateway serves the API once it has synchronised it.
    let first = 0;
    for (let i = 0; i < 100 && first !== 200; i++) {
      first = (await call('/pets')).status;
      if (first !== 200) {
        probes.push(first);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(first).toBe(200);
    const statuses = [
      ...(await Promise.all(['/pets', '/pets', '/pets/1'].map((p) => call(p)))),
      await call('/pets', 'POST', FIREFOX),
      await call('/pets', 'POST', FIREFOX),
      await call('/missing', 'GET', 'curl/8.5.0'),
      await call('/fail'),
      await call('/fail'),
    ].map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 200, 200, 200, 200, 404, 503, 503]);
    // Every call is reported, the refused probes included.
    const hits = async () =>
      (
        await api<{ hits: number }>(
          'GET',
          `platform/analytics?type=count&from=${Date.now() - 3_600_000}&to=${Date.now() + 60_000}`,
        )
      ).hits;
    const all = 9 + probes.length;
    for (let i = 0; i < 100 && (await hits()) < all; i++) await new Promise((r) => setTimeout(r, 200));
    expect(await hits()).toBe(all);
  }, 60_000);

  afterAll(() => backend?.server.close());

  /** Widgets ask again after the timeframe update delay; a busy machine answers slowly. */
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
  const widget = (page: Page, title: string) => main(page).getByRole('region', { name: title, exact: true });
  const stat = (page: Page, name: string) =>
    widget(page, 'Response time statistics').locator(`[data-stat="${name}"]`);
  const chart = (page: Page, title: string) => widget(page, title).getByRole('img');
  /** The rows of a top table as [name, value]. */
  const tableRows = async (page: Page, title: string) =>
    (await widget(page, title).locator('tbody tr').allInnerTexts()).map((row) =>
      row
        .split('\t')
        .map((cell) => cell.trim())
        .filter(Boolean),
    );
  const waitText = async (locator: ReturnType<Page['locator']>, text: RegExp | string) => {
    for (let i = 0; i < 100; i++) {
      const value = (await locator.getAttribute('aria-label').catch(() => null)) ?? '';
      if (typeof text === 'string' ? value.includes(text) : text.test(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    return (await locator.getAttribute('aria-label')) ?? '';
  };

  it('shows the API dashboard with the figures of the traffic, from the API menu', async () => {
    const page = await adminOn(`/management/apis/${apiId}/portal`);
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL(/\/analytics$/);
    await eventually(() => stat(page, 'Hits').innerText()).toBe(String(9 + apiProbes()));
    const max = Number((await stat(page, 'Maximum').innerText()).replace(/\D/g, ''));
    expect(max).toBeGreaterThanOrEqual(120);
    const apiPie = pie(probes.filter((s) => s === 401));
    expect(await waitText(chart(page, 'Status'), apiPie)).toContain(apiPie);
    await eventually(async () => (await tableRows(page, 'Top applications'))[0]).toEqual(['Dash app', '9']);
    expect((await tableRows(page, 'Top plans'))[0]).toEqual(['Gold', '9']);
    const paths = await tableRows(page, 'Top paths');
    expect(paths.map(([, hits]) => Number(hits)).reduce((a, b) => a + b, 0)).toBe(9 + apiProbes());
    // Hits by status over time: the stacked series add up to the traffic.
    expect(await waitText(chart(page, 'Response status'), '503 2')).toMatch(
      /200 6, (401 \d+, )?404 1, 503 2/,
    );
    await settle(page);
    await screenshot(page, 'analytics-api-en');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Clicking a row filters: only the failing path's calls remain, shown as a removable chip.
    const failing = paths.find(([path]) => path!.includes('fail'))![0]!;
    await widget(page, 'Top paths')
      .getByRole('button', { name: `Filter by ${failing}` })
      .click();
    await page.waitForURL(/q=path/);
    const chip = main(page).getByRole('group', { name: 'Filters' });
    await chip.getByText(`Path: ${failing}`).waitFor();
    await eventually(() => stat(page, 'Hits').innerText()).toBe('2');
    expect(await waitText(chart(page, 'Status'), '5xx 2, ')).toContain('2xx 0, 3xx 0, 4xx 0, 5xx 2');
    await settle(page);
    await screenshot(page, 'analytics-api-filtered-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await chip.getByRole('button', { name: `Remove the filter Path: ${failing}` }).click();
    await eventually(() => stat(page, 'Hits').innerText()).toBe(String(9 + apiProbes()));
    expect(new URL(page.url()).searchParams.get('q')).toBeNull();

    // The status filter select narrows the same way (4xx: the missing path).
    await main(page).getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: '4xx' }).click();
    await page.keyboard.press('Escape');
    await eventually(() => stat(page, 'Hits').innerText()).toBe(String(1 + apiProbes()));
    expect(new URL(page.url()).searchParams.get('q')).toBe('status:[400 TO 499]');
    await main(page).getByRole('button', { name: 'Clear filters' }).click();
    await eventually(() => stat(page, 'Hits').innerText()).toBe(String(9 + apiProbes()));
  }, 90_000);

  it('switches the timeframe, and says there is no data in an empty window', async () => {
    const page = await adminOn(`/management/apis/${apiId}/analytics`);
    await eventually(() => stat(page, 'Hits').innerText()).toBe(String(9 + apiProbes()));
    await main(page).getByRole('combobox', { name: 'Timeframe' }).click();
    await page.getByRole('option', { name: 'Last 5 minutes' }).click();
    await page.waitForURL(/from=\d+&to=\d+/);
    const url = new URL(page.url());
    expect(Number(url.searchParams.get('to')) - Number(url.searchParams.get('from'))).toBe(300_000);
    await eventually(() => stat(page, 'Hits').innerText()).toBe(String(9 + apiProbes()));
    expect(await waitText(chart(page, 'Response status'), '503 2')).toMatch(
      /200 6, (401 \d+, )?404 1, 503 2/,
    );
    await settle(page);
    await screenshot(page, 'analytics-api-5m-en');

    // A day a week ago: every widget says there is nothing.
    const to = Date.now() - 7 * 86_400_000;
    await page.goto(
      `${world.portico.webUrl}/management/apis/${apiId}/analytics?from=${to - 86_400_000}&to=${to}`,
    );
    await widget(page, 'Top applications').getByText('No data to display').waitFor();
    await widget(page, 'Status').getByText('No data to display').waitFor();
    await widget(page, 'Response status').getByText('No data to display').waitFor();
    // The window is a day long but ended a week ago: custom dates.
    expect(await main(page).getByRole('combobox', { name: 'Timeframe' }).inputValue()).toBe('Custom');
    await main(page).getByRole('button', { name: 'From' }).waitFor();
    await settle(page);
    await screenshot(page, 'analytics-api-empty-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows the application dashboard with its APIs and failures, and View logs', async () => {
    const page = await adminOn(`/management/applications/${appId}/subscriptions`);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL(/\/analytics$/);
    await eventually(() => tableRows(page, 'Top APIs')).toEqual([['Dash Pets (1.0)', '9']]);
    await eventually(() => tableRows(page, 'Top failed APIs')).toEqual([['Dash Pets (1.0)', '2']]);
    expect(await waitText(chart(page, 'Status'), pie([]))).toContain(pie([]));
    expect(await waitText(chart(page, 'Hits by API'), 'Dash Pets 9')).toContain('Dash Pets 9');
    const logs = main(page).getByRole('link', { name: 'View logs' });
    expect(await logs.getAttribute('href')).toBe(`/management/applications/${appId}/logs`);
    await settle(page);
    await screenshot(page, 'analytics-application-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows the platform dashboard with its tops, status and events, from the Dashboard menu', async () => {
    const page = await adminOn('/management/apis');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(/\/management\/platform/);
    await eventually(() => stat(page, 'Hits').innerText()).toBe(String(9 + probes.length));
    await eventually(async () => (await tableRows(page, 'Top APIs'))[0]).toEqual([
      'Dash Pets (1.0)',
      String(9 + apiProbes()),
    ]);
    expect((await tableRows(page, 'Top applications'))[0]).toEqual(['Dash app', '9']);
    expect(await tableRows(page, 'Top failed APIs')).toEqual([['Dash Pets (1.0)', '2']]);
    expect(await waitText(chart(page, 'Status'), pie(probes))).toContain(pie(probes));
    // The optional widgets of the configuration (all by default): clients and systems of the User-Agent.
    expect(await tableRows(page, 'Hits by browser')).toEqual([
      ['Node.js', String(6 + probes.length)],
      ['Firefox', '2'],
      ['curl', '1'],
    ]);
    expect(await tableRows(page, 'Hits by operating system')).toEqual([
      ['Other', String(7 + probes.length)],
      ['Linux', '2'],
    ]);
    expect(await tableRows(page, 'Hits by host')).toHaveLength(1);
    // With a GeoIP database configured, the geo widgets too: every call came from the loopback address.
    expect(await tableRows(page, 'Hits by country')).toEqual([['Brazil', String(9 + probes.length)]]);
    expect(await tableRows(page, 'Hits by city')).toEqual([['São Paulo', String(9 + probes.length)]]);
    const events = main(page).getByRole('table', { name: 'Events' });
    await events.getByText('API started').waitFor();
    await events.getByText('API deployed').waitFor();
    expect(await events.getByRole('cell', { name: 'Dash Pets (1.0)' }).count()).toBe(2);
    await settle(page);
    await screenshot(page, 'analytics-platform-en');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The API's row links to its own dashboard; filtering by the application keeps its 9 calls.
    await widget(page, 'Top applications').getByRole('button', { name: 'Filter by Dash app' }).click();
    await main(page).getByRole('group', { name: 'Filters' }).getByText('Application: Dash app').waitFor();
    await eventually(() => stat(page, 'Hits').innerText()).toBe('9');
    expect(new URL(page.url()).searchParams.get('q')).toBe(`application:${appId.replace(/-/g, '\\-')}`);
    await widget(page, 'Top APIs').getByRole('link', { name: 'Dash Pets (1.0)' }).click();
    await page.waitForURL(new RegExp(`/management/apis/${apiId}/analytics`));
    await eventually(() => stat(page, 'Hits').innerText()).toBe(String(9 + apiProbes()));
  });

  it('says there is no data on the application and platform dashboards of an empty window', async () => {
    const to = Date.now() - 7 * 86_400_000;
    const window = `from=${to - 86_400_000}&to=${to}`;
    const page = await adminOn(`/management/applications/${appId}/analytics?${window}`);
    for (const title of ['Top APIs', 'Top failed APIs', 'Status', 'Hits by API'])
      await widget(page, title).getByText('No data to display').waitFor();
    await settle(page);
    await screenshot(page, 'analytics-application-empty-en');
    await page.goto(`${world.portico.webUrl}/management/platform?${window}`);
    for (const title of ['Top APIs', 'Top applications', 'Status', 'Response status'])
      await widget(page, title).getByText('No data to display').waitFor();
    await main(page).getByText('No event in this period').waitFor();
    await settle(page);
    await screenshot(page, 'analytics-platform-empty-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('reads in French', async () => {
    const page = await adminOn('/management/platform');
    await inLanguage(page, 'fr');
    await main(page).getByRole('heading', { name: 'Tableau de bord' }).waitFor();
    await eventually(() => widget(page, 'Top des API').locator('tbody tr').count()).toBe(1);
    // Countries are named in the reader's language.
    await eventually(async () => (await tableRows(page, 'Appels par pays'))[0]?.[0]).toBe('Brésil');
    await settle(page);
    await screenshot(page, 'analytics-platform-fr');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await inLanguage(page, 'en');
  });
});
