import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { flipSwitch, seriousA11yViolations, setSwitch, settle } from './support/app';
import { launchChromium, policyViolations, screenshot } from './support/browser';
import { adminConsolePage, startedKeylessApi } from './support/keyless-api';
import type { Portico } from './support/portico';
import { adminToken, startPortico } from './support/portico';

/** A backend answering the headers it received, so that a call through the gateway shows the policies. */
async function echoBackend(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ path: req.url, headers: req.headers }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Echo {
  path: string;
  headers: Record<string, string>;
}

/**
 * The design screens of an API (console-apis.md 2.6) in a real browser against `portico start`: policies
 * per path (rules, schema forms, order, enable toggle), deployment and the gateway applying them;
 * resources, properties with dynamic properties, and path mappings with their import.
 */
describe('console: API design', () => {
  let portico: Portico;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let backend: { server: Server; url: string };
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
  /** What the backend received of a call through the gateway, once `ready` holds for it. */
  const throughGateway = async (ready: (echo: Echo) => boolean): Promise<Echo> => {
    let last: unknown;
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${portico.gatewayUrl}/shop/items`);
      last = res.status === 200 ? ((await res.json()) as Echo) : `${res.status} ${await res.text()}`;
      if (typeof last === 'object' && ready(last as Echo)) return last as Echo;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the gateway still answers ${JSON.stringify(last)}`);
  };
  const deploy = async () => {
    await page.getByRole('button', { name: 'Deploy your API' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
    // The toast of an earlier deploy may still show on a busy runner: the newest is the last one. Each
    // deploy is followed by polling the gateway for its effect.
    await page.getByText('API Shop deployed').last().waitFor();
  };
  const look = async (name: string) => {
    await settle(page); // fading dialogs and messages are measured once shown
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, name);
  };

  beforeAll(async () => {
    // The dynamic-properties provider is the local backend: the outbound guard lets private addresses through.
    const dir = await mkdtemp(path.join(tmpdir(), 'portico-design-'));
    await writeFile(path.join(dir, 'portico.yml'), 'outbound:\n  allowPrivate: true\n');
    process.env.PORTICO_CONFIG = path.join(dir, 'portico.yml');
    [portico, browser, backend] = await Promise.all([startPortico(), launchChromium(), echoBackend()]);
    token = await adminToken(portico);
    apiId = await startedKeylessApi(call, {
      name: 'Shop',
      description: 'The shop',
      contextPath: '/shop',
      endpoint: backend.url,
    });
    ({ context, page } = await adminConsolePage(browser, portico));
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await portico?.stop();
    backend?.server.close();
  });

  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    console.error(portico.output().slice(-2000));
    await screenshot(page, `failed-api-design-${test.task.name.slice(0, 40)}`).catch(() => undefined);
  });

  it('adds a header policy on a path through its schema form; once deployed the gateway applies it', async () => {
    expect((await throughGateway(() => true)).headers['x-design']).toBeUndefined();
    await page.goto(`${base()}/portal`);
    await page.getByRole('navigation', { name: 'API menu' }).getByRole('link', { name: 'Policies' }).click();
    await page.waitForURL(`${base()}/policies`);
    await main().getByRole('heading', { name: 'Policies', level: 2 }).waitFor();

    // The path rules.
    await main().getByRole('button', { name: 'Add a path' }).click();
    const dialog = page.getByRole('dialog');
    const path = dialog.getByRole('textbox', { name: 'Path' });
    await path.fill('items');
    await dialog.getByText('The path must start with /').waitFor();
    await path.fill('/');
    await dialog.getByText('This path is already configured.').waitFor();
    await path.fill('/items/:id');
    expect(await dialog.getByRole('checkbox', { name: 'Copy the policies of the root path /' }).count()).toBe(
      1,
    );
    await dialog.getByRole('button', { name: 'Add a path' }).click();
    await main().getByRole('heading', { name: '/items/:id' }).waitFor();
    await main().getByRole('button', { name: 'Add a path' }).click();
    await path.fill('/items/:number/');
    await dialog.getByText('This path is already configured.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A header policy on the root path, configured through the form of its schema.
    await main()
      .getByRole('button', { name: /^\/\s*\d+$/ })
      .click();
    await main().getByRole('combobox', { name: 'Add a policy' }).click();
    await page.getByRole('option', { name: 'Transform headers' }).click();
    await main().getByRole('button', { name: 'Add', exact: true }).click();
    const card = main().locator('[data-policy="transform-headers"]');
    await card.getByRole('button', { name: 'Configuration of Transform headers' }).click();
    await card.getByRole('button', { name: 'Add to Add headers' }).click();
    await card.getByRole('textbox', { name: 'Name' }).fill('X-Design');
    await card.getByRole('textbox', { name: 'Value' }).fill('on');
    await card.getByRole('button', { name: 'Description' }).click();
    const describe = page.getByRole('dialog');
    await describe.getByRole('textbox', { name: 'Description' }).fill('x'.repeat(501));
    await describe.getByText('At most 500 characters.').waitFor();
    expect(await describe.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await describe.getByRole('textbox', { name: 'Description' }).fill('Marks the calls');
    await describe.getByRole('button', { name: 'Save' }).click();
    // A second policy, moved above the first with the keyboard's move button.
    await main().getByRole('combobox', { name: 'Add a policy' }).click();
    await page.getByRole('option', { name: 'Transform query parameters' }).click();
    await main().getByRole('button', { name: 'Add', exact: true }).click();
    await main().getByRole('button', { name: 'Move Transform query parameters up' }).click();
    await look('api-design-policies');
    await main().getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Policies saved').waitFor();

    const stored = await call<{ paths: Record<string, Record<string, unknown>[]> }>('GET', `apis/${apiId}`);
    expect(Object.keys(stored.paths).sort()).toEqual(['/', '/items/:id']);
    expect(stored.paths['/']!.map((s) => Object.keys(s).find((k) => k.startsWith('transform')))).toEqual([
      'transform-queryparams',
      'transform-headers',
    ]);
    expect(stored.paths['/']![1]).toMatchObject({
      enabled: true,
      description: 'Marks the calls',
      'transform-headers': { addHeaders: [{ name: 'X-Design', value: 'on' }] },
    });
    await page.getByText('API out of sync').waitFor();
    await deploy();
    expect((await throughGateway((e) => e.headers['x-design'] === 'on')).headers['x-design']).toBe('on');

    // The enabled toggle saves at once; deployed, the gateway stops applying the policy.
    await flipSwitch(main().getByRole('switch', { name: 'Enable the policy Transform headers' }));
    type Stored = { paths: Record<string, Record<string, unknown>[]> };
    await expect
      .poll(async () => (await call<Stored>('GET', `apis/${apiId}`)).paths['/']![1]!.enabled)
      .toBe(false);
    await deploy();
    expect((await throughGateway((e) => e.headers['x-design'] === undefined)).path).toBe('/items');
  });

  it('adds, edits, disables and removes a resource through its schema form', async () => {
    await page.goto(`${base()}/resources`);
    await main().getByText('No resource yet').waitFor();
    await main().getByRole('button', { name: 'Add a resource' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('auth-server');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Generic OAuth2 authorization server' }).click();
    await dialog.getByRole('textbox', { name: /Introspection endpoint/ }).fill('not a url');
    await dialog
      .getByRole('textbox', { name: /Client id/ })
      .first()
      .fill('portico');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // The form knows no URL format: the server's schema check refuses it, naming the field.
    await page.getByText(/resources\.0\.configuration\.introspectionEndpoint/).waitFor();
    expect((await call<{ resources: unknown[] }>('GET', `apis/${apiId}`)).resources).toEqual([]);
    await dialog
      .getByRole('textbox', { name: /Introspection endpoint/ })
      .fill('https://as.example.com/introspect');
    await look('api-design-resource');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Resources saved').waitFor();
    await main().getByRole('cell', { name: 'auth-server', exact: true }).waitFor();

    await flipSwitch(main().getByRole('switch', { name: 'Enable the resource auth-server' }));
    await page.getByText('Resources saved').first().waitFor();
    await expect
      .poll(
        async () =>
          (await call<{ resources: { enabled: boolean }[] }>('GET', `apis/${apiId}`)).resources[0]?.enabled,
      )
      .toBe(false);
    // The policies' side panel lists the API's resources.
    await page.goto(`${base()}/policies`);
    await main().getByRole('button', { name: 'Resources' }).click();
    await page.getByRole('dialog', { name: 'Resources' }).getByText('auth-server').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close the dialog' }).click();
    await page.goto(`${base()}/resources`);
    await main().getByRole('button', { name: 'Add a resource' }).click();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('auth-server');
    await dialog.getByText('Another resource has this name.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await look('api-design-resources');

    await main().getByRole('button', { name: 'Remove the resource auth-server' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await main().getByText('No resource yet').waitFor();
    expect((await call<{ resources: unknown[] }>('GET', `apis/${apiId}`)).resources).toEqual([]);
  });

  it('adds and edits properties inline, configures dynamic properties', async () => {
    await page.goto(`${base()}/properties`);
    await main().getByText('No property yet').waitFor();
    await main().getByRole('textbox', { name: 'Name' }).fill('region');
    await main().getByRole('textbox', { name: 'Value', exact: true }).fill('eu');
    await main().getByRole('button', { name: 'Add', exact: true }).click();
    await main().getByRole('textbox', { name: 'Name' }).fill('region');
    await main().getByText('This property already exists.').waitFor();
    await main().getByRole('textbox', { name: 'Name' }).fill('');
    const inline = main().getByRole('textbox', { name: 'Value of region' });
    await inline.fill('v'.repeat(161));
    await main().getByText('At most 160 characters.').waitFor();
    expect(await main().getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await inline.fill('us');
    await main().getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Properties saved').waitFor();

    const dynamic = main().getByRole('region', { name: 'Dynamic properties' });
    await dynamic.getByRole('button', { name: 'Save the dynamic properties' }).isDisabled();
    await setSwitch(dynamic.getByRole('switch', { name: 'Enabled' }), true);
    await dynamic
      .getByText('Enabling or disabling the service takes effect once the API is deployed.')
      .waitFor();
    await dynamic.getByRole('button', { name: 'Save the dynamic properties' }).click();
    await dynamic.getByText('The URL is required.').waitFor();
    await dynamic.getByRole('textbox', { name: 'HTTP provider URL' }).fill(`${backend.url}/props`);
    await dynamic
      .getByRole('textbox', { name: 'Transformation (JSONata)' })
      .fill('[{"key": "color", "value": "blue"}]');
    await look('api-design-properties');
    await dynamic.getByRole('button', { name: 'Save the dynamic properties' }).click();
    await page.getByText('Dynamic properties saved').waitFor();

    const stored = await call<{ properties: unknown[]; services: Record<string, unknown> }>(
      'GET',
      `apis/${apiId}`,
    );
    expect(stored.properties).toEqual([{ key: 'region', value: 'us', dynamic: false }]);
    expect(stored.services['dynamic-property']).toMatchObject({
      enabled: true,
      trigger: { rate: 5, unit: 'SECONDS' },
      configuration: { url: `${backend.url}/props`, specification: '[{"key": "color", "value": "blue"}]' },
    });

    // Deployed, the management scheduler polls the provider and adds the transformed property.
    await deploy();
    await expect
      .poll(async () => (await call<{ properties: unknown[] }>('GET', `apis/${apiId}`)).properties, {
        timeout: 30_000,
        interval: 500,
      })
      .toContainEqual({ key: 'color', value: 'blue', dynamic: true });
  });

  it('adds, refuses duplicates, imports from a Swagger page and removes path mappings (in French)', async () => {
    await call('POST', `apis/${apiId}/pages`, {
      name: 'Shop spec',
      type: 'SWAGGER',
      content: JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'Shop', version: '1' },
        paths: { '/orders': {}, '/orders/{orderId}': {} },
      }),
    });
    await page.goto(`${base()}/path-mappings`);
    await main().getByText('No path mapping yet').waitFor();
    await main().getByRole('button', { name: 'Add a mapping' }).click();
    const dialog = page.getByRole('dialog');
    const input = dialog.getByRole('textbox', { name: 'Path' });
    await input.fill('orders');
    await dialog.getByText('The path must start with /').waitFor();
    await input.fill('/orders/:id');
    await dialog.getByRole('button', { name: 'Add a mapping' }).click();
    await main().getByRole('cell', { name: '/orders/:id', exact: true }).waitFor();
    await main().getByRole('button', { name: 'Add a mapping' }).click();
    await input.fill('/orders/:number/');
    await dialog.getByText('This path mapping is already configured.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await main().getByRole('button', { name: 'Import from a Swagger page' }).click();
    await dialog.getByRole('combobox', { name: 'Swagger document' }).click();
    await page.getByRole('option', { name: 'Shop spec' }).click();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Path mappings imported').waitFor();
    await main().getByRole('cell', { name: '/orders', exact: true }).waitFor();
    expect((await call<{ path_mappings: string[] }>('GET', `apis/${apiId}`)).path_mappings).toEqual([
      '/orders/:id',
      '/orders',
    ]);
    await look('api-design-path-mappings');
    await main().getByRole('button', { name: 'Remove the mapping /orders/:id' }).click();
    await expect
      .poll(async () => (await call<{ path_mappings: string[] }>('GET', `apis/${apiId}`)).path_mappings)
      .toEqual(['/orders']);

    // French.
    await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('fr')));
    await page.goto(`${base()}/policies`);
    await main().getByRole('heading', { name: 'Politiques', level: 2 }).waitFor();
    await main().getByRole('button', { name: 'Ajouter un chemin' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Chemin' }).fill('x');
    await page.getByRole('dialog').getByText('Le chemin doit commencer par /').waitFor();
    await look('api-design-policies-fr');
    await page.getByRole('dialog').getByRole('button', { name: 'Annuler' }).click();
    for (const [path, heading] of [
      ['resources', 'Ressources'],
      ['properties', 'Propriétés'],
      ['path-mappings', 'Correspondances de chemins'],
    ] as const) {
      await page.goto(`${base()}/${path}`);
      await main().getByRole('heading', { name: heading, level: 2 }).waitFor();
      await look(`api-design-${path}-fr`);
    }
    await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('en')));
  });
});
