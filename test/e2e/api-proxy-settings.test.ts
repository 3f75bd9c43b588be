import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeToast, seriousA11yViolations, setSwitch, signInOnPage } from './support/app';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import { discoveryScreenSteps } from './support/proxy-discovery-steps';
import type { Portico } from './support/portico';
import { adminToken, startPortico } from './support/portico';

/**
 * The proxy settings screens of an API (console-apis.md 2.5) in a real browser against `portico start`:
 * CORS (the gateway then answers preflights with it), response templates (the gateway then answers with
 * the template), details, failover with a stale entity tag, deployments, the group's service discovery
 * and the refused duplicate header, and the service discovery screen of all the groups.
 */
describe('console: API proxy settings', () => {
  let portico: Portico;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let backend: Server;
  let shop: string;
  let orders: string;

  const call = async <T>(method: string, path: string, body?: unknown, etag?: string): Promise<T> => {
    const response = await fetch(`${portico.apiUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        ...(etag ? { 'If-Match': etag } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const main = () => page.getByRole('main');
  const base = (id: string) => `${portico.webUrl}/management/apis/${id}`;
  /** An API at `path` with one published plan, deployed and started. */
  const createApi = async (name: string, path: string, security: 'KEY_LESS' | 'API_KEY') => {
    const address = backend.address() as AddressInfo;
    const api = await call<{ id: string }>('POST', 'apis', {
      name,
      version: '1.0',
      description: name,
      context_path: path,
      endpoint: `http://127.0.0.1:${address.port}`,
    });
    const plan = await call<{ id: string }>('POST', `apis/${api.id}/plans`, {
      name: 'Plan',
      description: 'Plan',
      security,
    });
    await call('POST', `apis/${api.id}/plans/${plan.id}/_publish`);
    await call('POST', `apis/${api.id}/deploy`);
    await call('POST', `apis/${api.id}?action=START`);
    return api.id;
  };
  /** The gateway's answer once `ok` accepts it (the deployment reaches the gateway shortly after). */
  const gatewayAnswer = async (request: () => Promise<Response>, ok: (res: Response) => boolean) => {
    let last: Response | undefined;
    for (let i = 0; i < 100; i++) {
      last = await request();
      if (ok(last)) return last;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the gateway still answers ${last?.status} ${await last?.text()}`);
  };
  const looked = async (name: string) => {
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, name);
  };

  beforeAll(async () => {
    backend = createServer((req, res) => res.end(`backend ${req.method} ${req.url}`));
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    [portico, browser] = await Promise.all([startPortico(), launchChromium()]);
    token = await adminToken(portico);
    shop = await createApi('Shop', '/shop', 'KEY_LESS');
    orders = await createApi('Orders', '/orders', 'API_KEY');
    context = await newContext(browser);
    page = await context.newPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fmanagement`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/management/apis`);
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await portico?.stop();
    backend?.close();
  });

  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    console.error(portico.output().slice(-2000));
    await screenshot(page, `failed-api-proxy-settings-${test.task.name.slice(0, 40)}`).catch(() => undefined);
  });

  it('configures CORS (the * confirmation, a bad origin refused); the gateway answers preflights with it', async () => {
    await page.goto(`${base(shop)}/portal`);
    const menu = page.getByRole('navigation', { name: 'API menu' });
    for (const entry of ['Details', 'CORS', 'Deployments', 'Response templates', 'Endpoints', 'Failover'])
      await menu.getByRole('link', { name: entry, exact: true }).waitFor();
    await menu.getByRole('link', { name: 'CORS', exact: true }).click();
    await page.waitForURL(`${base(shop)}/proxy/cors`);
    await setSwitch(main().getByRole('switch', { name: 'Enable CORS' }), true);
    const origins = main().getByRole('combobox', { name: 'Allowed origins' });
    // The default '*' taken off, then typed again: declining the question removes it.
    await origins.focus();
    await page.keyboard.press('Backspace');
    await origins.fill('*');
    await page.keyboard.press('Enter');
    await page
      .getByRole('dialog')
      .getByText('Are you sure you want to remove all cross-origin restrictions?')
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await main().getByText('This field is required.').first().waitFor();
    await origins.fill('https://a.example.com/(x');
    await page.keyboard.press('Enter');
    await main().getByText('Each origin is a URL (scheme://host[:port]), * or null').waitFor();
    await page.keyboard.press('Backspace');
    await origins.fill('https://shop.example.com');
    await page.keyboard.press('Enter');
    await main().getByRole('combobox', { name: 'Allowed methods' }).click();
    await page.getByRole('option', { name: 'GET', exact: true }).click();
    await page.getByRole('option', { name: 'POST', exact: true }).click();
    await page.keyboard.press('Escape');
    await main().getByRole('combobox', { name: 'Allowed headers' }).fill('X-Trace');
    await page.keyboard.press('Enter');
    await main().getByRole('textbox', { name: 'Max age (seconds)' }).fill('600');
    await looked('api-proxy-cors');
    await main().getByRole('button', { name: 'Save' }).click();
    await closeToast(page, 'Proxy saved');
    const stored = await call<{ proxy: { cors: unknown } }>('GET', `apis/${shop}`);
    expect(stored.proxy.cors).toMatchObject({
      enabled: true,
      allowOrigin: ['https://shop.example.com'],
      allowMethods: ['GET', 'POST'],
      allowHeaders: ['X-Trace'],
      maxAge: 600,
    });

    await call('POST', `apis/${shop}/deploy`);
    const preflight = () =>
      fetch(`${portico.gatewayUrl}/shop/items`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://shop.example.com',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'x-trace',
        },
      });
    const answer = await gatewayAnswer(preflight, (res) => res.headers.has('access-control-allow-origin'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(answer.headers.get('access-control-allow-headers')).toBe('X-Trace');
    expect(answer.headers.get('access-control-max-age')).toBe('600');
    const other = await fetch(`${portico.gatewayUrl}/shop/items`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example.com', 'Access-Control-Request-Method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('creates, edits and deletes a response template; the gateway answers with it', async () => {
    await page.goto(`${base(orders)}/proxy/responsetemplates`);
    await main().getByText('Response templates will appear here').waitFor();
    await looked('api-proxy-templates-empty');
    await main().getByRole('link', { name: 'New template' }).click();
    await page.waitForURL(`${base(orders)}/proxy/responsetemplates/new`);
    await main().getByRole('combobox', { name: 'Key' }).fill('API_KEY_MISSING');
    await main().getByRole('combobox', { name: 'Content type' }).fill('application/json');
    const status = main().getByRole('textbox', { name: 'Status code' });
    expect(await status.inputValue()).toBe('400');
    await status.fill('700');
    await main().getByText('A status code between 100 and 599.').waitFor();
    await status.fill('401');
    await main().getByRole('button', { name: 'Add a header' }).click();
    await main().getByRole('button', { name: 'Add a header' }).click();
    const names = main().getByRole('textbox', { name: 'Name' });
    const values = main().getByRole('textbox', { name: 'Value' });
    await names.nth(0).fill('X-Why');
    await values.nth(0).fill('no key');
    await names.nth(1).fill('x-why');
    await values.nth(1).fill('twice');
    await main().getByText('This header is already set above.').waitFor();
    expect(await main().getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await main().getByRole('button', { name: 'Remove the header' }).nth(1).click();
    await main().getByRole('textbox', { name: 'Body' }).fill('{"error":"a key, please"}');
    await looked('api-proxy-template-new');
    await main().getByRole('button', { name: 'Save' }).click();
    await closeToast(page, 'Proxy saved');
    await page.waitForURL(`${base(orders)}/proxy/responsetemplates`);
    await main().getByRole('cell', { name: 'application/json', exact: true }).waitFor();
    await main().getByRole('button', { name: 'Show the body' }).click();
    await main().getByText('{"error":"a key, please"}').waitFor();
    await looked('api-proxy-templates');

    await page.getByRole('button', { name: 'Deploy your API' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
    await page.getByText('API Orders deployed').waitFor();
    const keyless = () =>
      fetch(`${portico.gatewayUrl}/orders/1`, { headers: { Accept: 'application/json' } });
    const answer = await gatewayAnswer(keyless, (res) => res.headers.has('x-why'));
    expect(answer.status).toBe(401);
    expect(answer.headers.get('x-why')).toBe('no key');
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.text()).toBe('{"error":"a key, please"}');

    // Every template of the key removed: saving deletes the key.
    await main().getByRole('link', { name: 'API_KEY_MISSING' }).click();
    await main().getByRole('button', { name: 'Remove', exact: true }).click();
    await main().getByText('No template left: saving deletes this key.').waitFor();
    await main().getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${base(orders)}/proxy/responsetemplates`);
    await main().getByText('Response templates will appear here').waitFor();
    expect((await call<{ response_templates: object }>('GET', `apis/${orders}`)).response_templates).toEqual(
      {},
    );
  });

  it('changes the context path (rules, a path taken), failover (412 when stale) and the deployments', async () => {
    await page.goto(`${base(orders)}/proxy`);
    const path = main().getByRole('textbox', { name: 'Context path' });
    expect(await path.inputValue()).toBe('/orders');
    await path.fill('/o');
    await main().getByText('Context path has to be more than 3 characters long').waitFor();
    await path.fill('/shop/v2');
    await main()
      .getByText('Another API already uses this context path, a parent or a sub-path of it.')
      .waitFor();
    await path.fill('/orders-v2');
    const save = main().getByRole('button', { name: 'Save' });
    await expect.poll(() => save.isEnabled()).toBe(true);
    await looked('api-proxy-details');
    await save.click();
    await closeToast(page, 'Proxy saved');
    expect(
      (await call<{ proxy: { context_path: string } }>('GET', `apis/${orders}`)).proxy.context_path,
    ).toBe('/orders-v2');
    // Deployed, the gateway serves the API on its new path only (its key plan asks for a key there).
    await page.getByRole('button', { name: 'Deploy your API' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
    await page.getByText('API Orders deployed').waitFor();
    const moved = await gatewayAnswer(
      () => fetch(`${portico.gatewayUrl}/orders-v2/1`),
      (res) => res.status === 401,
    );
    expect(await moved.text()).toMatch(/API Key/i);
    expect((await fetch(`${portico.gatewayUrl}/orders/1`)).status).toBe(404);

    await page.getByRole('navigation', { name: 'API menu' }).getByRole('link', { name: 'Failover' }).click();
    await setSwitch(main().getByRole('switch', { name: 'Enable failover' }), true);
    const attempts = main().getByRole('textbox', { name: 'Max attempts' });
    await attempts.fill('0');
    await main().getByText('At least 1.').first().waitFor();
    await attempts.fill('3');
    await looked('api-proxy-failover');
    // Another tab saves first: this save is refused with 412 and offers Refresh.
    const response = await fetch(`${portico.apiUrl}apis/${orders}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const current = (await response.json()) as { description: string };
    await call(
      'PUT',
      `apis/${orders}`,
      { description: `${current.description}!` },
      response.headers.get('etag')!,
    );
    await main().getByRole('button', { name: 'Save' }).click();
    await page.getByText('The API version is outdated and must be refreshed').waitFor();
    expect(
      (await call<{ proxy: { failover?: unknown } }>('GET', `apis/${orders}`)).proxy.failover,
    ).toBeUndefined();
    await page.getByRole('button', { name: 'Refresh' }).click();
    // The page mounts again from the fresh API: the change is lost, made again.
    const enable = main().getByRole('switch', { name: 'Enable failover' });
    await expect.poll(() => enable.isChecked()).toBe(false);
    await setSwitch(enable, true);
    await main().getByRole('textbox', { name: 'Max attempts' }).fill('3');
    await main().getByRole('button', { name: 'Save' }).click();
    await closeToast(page, 'Proxy saved');
    expect((await call<{ proxy: { failover: unknown } }>('GET', `apis/${orders}`)).proxy.failover).toEqual({
      maxAttempts: 3,
      retryTimeout: 10000,
      cases: ['TIMEOUT'],
    });

    await call('POST', 'configuration/tags', { name: 'Europe' });
    await page.goto(`${base(orders)}/proxy/deployments`);
    await main().getByRole('checkbox', { name: 'Europe' }).check();
    await looked('api-proxy-deployments');
    await main().getByRole('button', { name: 'Save' }).click();
    await closeToast(page, 'Proxy saved');
    expect((await call<{ tags: string[] }>('GET', `apis/${orders}`)).tags).toEqual(['europe']);
  });

  it("group editor: the provider's discovery form with its rules, and a header given twice refused (in French)", async () => {
    await page.goto(`${base(shop)}/proxy/groups/default-group`);
    await main().getByRole('tab', { name: 'HTTP configuration' }).click();
    await main().getByRole('button', { name: 'Add a header' }).click();
    await main().getByRole('button', { name: 'Add a header' }).click();
    await main().getByRole('textbox', { name: 'Name' }).nth(1).fill('x-header-1');
    await main().getByText('This header is already set above.').waitFor();
    expect(await main().getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await main().getByRole('button', { name: 'Remove the header' }).nth(1).click();

    await main().getByRole('tab', { name: 'Service discovery' }).click();
    const discover = main().getByRole('switch', { name: 'Discover the endpoints of this group' });
    await setSwitch(discover, true);
    await main().getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Consul.io Service Discovery' }).click();
    const service = main().getByRole('textbox', { name: 'Service' });
    await service.waitFor();
    expect(await main().getByRole('textbox', { name: 'Consul.io URL' }).inputValue()).toBe(
      'http://localhost:8500',
    );
    expect(await main().getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await looked('api-proxy-group-discovery');
    await service.fill('shop');
    await main().getByRole('button', { name: 'Save' }).click();
    await closeToast(page, 'Proxy saved');
    const stored = await call<{ proxy: { groups: { headers: object; services: unknown }[] } }>(
      'GET',
      `apis/${shop}`,
    );
    expect(stored.proxy.groups[0]!.headers).toEqual({ 'X-Header-1': 'value' });
    expect(stored.proxy.groups[0]!.services).toMatchObject({
      discovery: {
        enabled: true,
        provider: 'consul-service-discovery',
        configuration: { url: 'http://localhost:8500', service: 'shop' },
      },
    });

    await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('fr')));
    await page.goto(`${base(shop)}/proxy/cors`);
    await main().getByRole('heading', { name: 'CORS' }).waitFor();
    await main()
      .getByText('La passerelle répond elle-même aux requêtes préalables.', { exact: false })
      .waitFor();
    await looked('api-proxy-cors-fr');
    await page.goto(`${base(orders)}/proxy/responsetemplates`);
    await main().getByText('Les modèles de réponse apparaîtront ici').waitFor();
    await looked('api-proxy-templates-fr');
    // The other proxy screens in French too.
    const screens: [string, string, string][] = [
      ['responsetemplates/new', 'Nouveau modèle de réponse', 'api-proxy-template-new-fr'],
      ['', 'Détails', 'api-proxy-details-fr'],
      ['failover', 'Basculement', 'api-proxy-failover-fr'],
      ['deployments', 'Déploiements', 'api-proxy-deployments-fr'],
      ['groups/default-group', 'Groupe default-group', 'api-proxy-group-fr'],
    ];
    for (const [path, heading, name] of screens) {
      await page.goto(`${base(orders)}/proxy${path ? `/${path}` : ''}`);
      await main().getByRole('heading', { name: heading, exact: true }).waitFor();
      await looked(name);
    }
    await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('en')));
  });

  it('service discovery screen: every group, a type needed when enabled, Reset, Save (and in French)', () =>
    discoveryScreenSteps({ page, apiBase: base(orders), apiId: orders, call, looked }));
});
