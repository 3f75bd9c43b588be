import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeToast, seriousA11yViolations, setSwitch } from './support/app';
import { launchChromium, policyViolations, screenshot } from './support/browser';
import { adminConsolePage, startedKeylessApi } from './support/keyless-api';
import type { Portico } from './support/portico';
import { adminToken, startPortico } from './support/portico';

/** A backend answering its own name, so that a call through the gateway tells which endpoint it reached. */
async function backend(name: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.end(`${name} ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The proxy screens of an API (console-apis.md 2.5) in a real browser against `portico start`: the
 * endpoints and groups tables, the endpoint editor with its rules, the group editor with the HTTP
 * configuration, deployment, and the gateway serving the change.
 */
describe('console: API proxy', () => {
  let portico: Portico;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let first: { server: Server; url: string };
  let second: { server: Server; url: string };
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
  /** What the gateway answers at /shop once it serves what `expected` tells. */
  const gatewayServes = async (expected: RegExp) => {
    let last = '';
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${portico.gatewayUrl}/shop/items`);
      last = `${res.status} ${await res.text()}`;
      if (expected.test(last)) return last;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the gateway still answers ${last}`);
  };

  beforeAll(async () => {
    [portico, browser, first, second] = await Promise.all([
      startPortico(),
      launchChromium(),
      backend('first'),
      backend('second'),
    ]);
    token = await adminToken(portico);
    apiId = await startedKeylessApi(call, {
      name: 'Shop',
      description: 'The shop',
      contextPath: '/shop',
      endpoint: first.url,
    });
    ({ context, page } = await adminConsolePage(browser, portico));
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await portico?.stop();
    first?.server.close();
    second?.server.close();
  });

  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    console.error(portico.output().slice(-2000));
    await screenshot(page, `failed-api-proxy-${test.task.name.slice(0, 40)}`).catch(() => undefined);
  });

  it('edits the target and weight of an endpoint, deploys, and the gateway reaches the new target', async () => {
    expect(await gatewayServes(/^200 first \/items/)).toBeTruthy();
    await page.goto(`${base()}/portal`);
    await page.getByRole('navigation', { name: 'API menu' }).getByRole('link', { name: 'Endpoints' }).click();
    await page.waitForURL(`${base()}/proxy/endpoints`);
    await main().getByRole('heading', { name: 'default-group' }).waitFor();
    // The last group cannot be deleted.
    expect(await main().getByRole('button', { name: 'Delete the group default-group' }).isDisabled()).toBe(
      true,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-proxy-endpoints');

    await main().getByRole('link', { name: 'default', exact: true }).click();
    await page.waitForURL(`${base()}/proxy/groups/default-group/endpoints/default`);
    const weight = main().getByRole('textbox', { name: 'Weight' });
    const save = main().getByRole('button', { name: 'Save' });
    await weight.fill('100');
    await main().getByText('The weight is between 1 and 99.').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await main().getByRole('textbox', { name: 'Name' }).fill('default-group');
    await main().getByText('This name is used by another endpoint and/or an endpoint group.').waitFor();
    await main().getByRole('textbox', { name: 'Name' }).fill('a:b');
    await main().getByText('Endpoint name does not support : in its name.').waitFor();
    await main().getByRole('textbox', { name: 'Name' }).fill('default');
    await weight.fill('5');
    await main().getByRole('textbox', { name: 'Target' }).fill(second.url);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-proxy-endpoint');
    await save.click();
    await closeToast(page, 'Proxy saved');
    await page.waitForURL(`${base()}/proxy/endpoints`);
    await main().getByRole('cell', { name: second.url }).waitFor();

    const stored = await call<{ proxy: { groups: { endpoints: { target: string; weight: number }[] }[] } }>(
      'GET',
      `apis/${apiId}`,
    );
    expect(stored.proxy.groups[0]!.endpoints[0]).toMatchObject({ target: second.url, weight: 5 });
    // Out of sync until deployed: the gateway still reaches the first backend.
    await page.getByText('API out of sync').waitFor();
    expect(await gatewayServes(/^200 first/)).toBeTruthy();
    await page.getByRole('button', { name: 'Deploy your API' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
    await page.getByText('API Shop deployed').waitFor();
    expect(await gatewayServes(/^200 second \/items/)).toBeTruthy();
  });

  it('edits a group: its HTTP configuration with the proxy and store rules (in French)', async () => {
    await page.goto(`${base()}/proxy/groups/default-group`);
    await main().getByRole('heading', { name: 'Group default-group' }).waitFor();
    await main().getByRole('tab', { name: 'HTTP configuration' }).click();
    const connections = main().getByRole('textbox', { name: 'Max concurrent connections' });
    expect(await connections.inputValue()).toBe('100');
    await connections.fill('9');
    await main().getByText('At least 10.').waitFor();
    await connections.fill('20');
    await setSwitch(main().getByRole('switch', { name: 'Go through a proxy' }), true);
    await main().getByText('This field is required.').first().waitFor();
    expect(await main().getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await setSwitch(main().getByRole('switch', { name: 'Go through a proxy' }), false);
    await main().getByRole('combobox', { name: 'Key store' }).click();
    await page.getByRole('option', { name: 'PKCS#12' }).click();
    await main().getByText('A password is required for JKS and PKCS12 stores.').waitFor();
    await main().getByText('A path or a content is required.').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-proxy-group-http');
    await main().getByRole('combobox', { name: 'Key store' }).click();
    await page.getByRole('option', { name: 'None' }).click();
    await main().getByRole('button', { name: 'Save' }).click();
    await closeToast(page, 'Proxy saved');
    const stored = await call<{ proxy: { groups: { http: { maxConcurrentConnections: number } }[] } }>(
      'GET',
      `apis/${apiId}`,
    );
    expect(stored.proxy.groups[0]!.http.maxConcurrentConnections).toBe(20);

    // French.
    await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('fr')));
    await page.goto(`${base()}/proxy/endpoints`);
    await main().getByRole('link', { name: 'Ajouter un groupe' }).waitFor();
    await screenshot(page, 'api-proxy-endpoints-fr');
    await page.goto(`${base()}/proxy/groups/default-group/newendpoint`);
    await main().getByRole('heading', { name: 'Nouvel endpoint' }).waitFor();
    await main().getByRole('textbox', { name: 'Nom' }).fill('default');
    await main().getByText("Ce nom est utilisé par un autre endpoint ou un groupe d'endpoints.").waitFor();
    await screenshot(page, 'api-proxy-endpoint-fr');
  });
});
