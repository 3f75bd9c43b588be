import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { Portico } from './support/portico';
import { adminToken, startPortico } from './support/portico';

/**
 * Settings > Dictionaries (console-applications-and-settings.md 2.3): list, create, properties table
 * (add dialog, inline edit, select-all, remove), deploy, a dynamic dictionary filled by a real HTTP
 * provider once started, delete with confirmation; in English and in French.
 */
describe('settings: dictionaries', () => {
  let portico: Portico;
  let browser: Browser;
  let page: Page;
  let token: string;
  let provider: http.Server;
  let providerUrl = '';
  const errors: string[] = [];

  beforeAll(async () => {
    provider = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          regions: [
            { name: 'eu', url: 'https://eu.example' },
            { name: 'us', url: 'https://us.example' },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/regions`;
    // The provider is on this machine: the outbound-URL guard must allow it.
    process.env.PORTICO_OUTBOUND_ALLOWED = '127.0.0.1';
    [portico, browser] = await Promise.all([startPortico(), launchChromium()]);
    delete process.env.PORTICO_OUTBOUND_ALLOWED;
    token = await adminToken(portico);
    page = await (await newContext(browser)).newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${portico.webUrl}/login`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await portico?.stop();
    await new Promise<void>((resolve) => provider?.close(() => resolve()));
  });
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
    expect(errors.splice(0)).toEqual([]);
  });
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await screenshot(page, `failed-dictionaries-${test.task.name.slice(0, 40)}`).catch(() => undefined);
  });

  async function api<T>(method: string, path: string): Promise<T> {
    const res = await fetch(`${portico.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}` },
    });
    return (await res.json()) as T;
  }
  async function inLanguage(language: string): Promise<void> {
    await page.evaluate((lang) => localStorage.setItem('portico.language', JSON.stringify(lang)), language);
    await page.reload();
    await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
    await settle(page);
  }
  const main = () => page.getByRole('main');

  it('creates a manual dictionary, edits its properties and deploys it', async () => {
    await page.goto(`${portico.webUrl}/management/settings/dictionaries`);
    await main().getByText('There is no dictionary yet').waitFor();
    await main().getByRole('link', { name: 'Add a dictionary' }).click();
    await page.waitForURL(/\/settings\/dictionaries\/new$/);
    const create = main().getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    await main().getByRole('textbox', { name: 'Name' }).fill('n'.repeat(51));
    await main().getByText('The name has to be less than 50 characters long.').waitFor();
    expect(await create.isDisabled()).toBe(true);
    await main().getByRole('textbox', { name: 'Name' }).fill('Backend hosts');
    await main().getByRole('textbox', { name: 'Description' }).fill('Where the backends live');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await create.click();
    await page.waitForURL(/\/settings\/dictionaries\/backend-hosts$/);
    await page.getByText('Dictionary Backend hosts created').waitFor();

    for (const [key, value] of [
      ['eu', 'eu.example'],
      ['us', 'us.example'],
      ['asia', 'asia.example'],
    ]) {
      await main().getByRole('button', { name: 'Add a property' }).click();
      const dialog = page.getByRole('dialog', { name: 'New property' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(key!);
      await dialog.getByRole('textbox', { name: 'Value' }).fill(value!);
      await dialog.getByRole('button', { name: 'Add a property' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    // Adding a property changes the form only; Save keeps it (the dialog's form never submits the page's).
    await page.waitForLoadState('networkidle');
    expect(
      (await api<{ properties: object }>('GET', 'configuration/dictionaries/backend-hosts')).properties,
    ).toEqual({});
    const eu = main().getByRole('textbox', { name: 'Value of eu' });
    await eu.fill('eu-west.example');
    await main().getByRole('button', { name: 'Remove asia' }).click();
    expect(await eu.inputValue()).toBe('eu-west.example');
    await main().getByRole('button', { name: 'Save' }).click();
    await page.getByText('Dictionary Backend hosts saved').waitFor();
    await expect
      .poll(
        async () =>
          (await api<{ properties: object }>('GET', 'configuration/dictionaries/backend-hosts')).properties,
      )
      .toEqual({
        eu: 'eu-west.example',
        us: 'us.example',
      });

    await main().getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.getByText('Dictionary Backend hosts deployed').waitFor();
    expect(
      (await api<{ deployed_at: number | null }>('GET', 'configuration/dictionaries/backend-hosts'))
        .deployed_at,
    ).toEqual(expect.any(Number));
    await settle(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-dictionary-manual-en');

    // Select-all, then remove the selection (kept once saved).
    await main().getByRole('checkbox', { name: 'Select every property of the page' }).check();
    await main().getByRole('button', { name: 'Remove the selected properties' }).click();
    await main().getByText('No property').waitFor();
    await main().getByRole('button', { name: 'Reset' }).click();
    await main().getByRole('textbox', { name: 'Value of us' }).waitFor();
  });

  it('fills a dynamic dictionary from its HTTP provider once started', async () => {
    await page.goto(`${portico.webUrl}/management/settings/dictionaries/new`);
    await main().getByRole('textbox', { name: 'Name' }).fill('Regions');
    await main().getByText('Dynamic', { exact: true }).click();
    expect(await main().getByRole('radio', { name: 'Dynamic' }).isChecked()).toBe(true);
    await main().getByRole('textbox', { name: 'Every' }).fill('1');
    await main().getByRole('textbox', { name: 'URL' }).fill(providerUrl);
    await main()
      .getByRole('textbox', { name: 'Transformation (JSONata)' })
      .fill('regions.{"key": name, "value": url}');
    await main().getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/settings\/dictionaries\/regions$/);
    const start = main().getByRole('button', { name: 'Start', exact: true });
    await start.click();
    await page.getByText('Dictionary Regions started').waitFor();
    expect(await start.isDisabled()).toBe(true);
    expect(await main().getByRole('button', { name: 'Stop', exact: true }).isDisabled()).toBe(false);
    expect(await main().getByRole('button', { name: 'Deploy', exact: true }).count()).toBe(0);

    // The scheduler polls the provider and deploys what the transformation gives.
    await expect
      .poll(
        async () =>
          (await api<{ properties: object }>('GET', 'configuration/dictionaries/regions')).properties,
        {
          timeout: 10_000,
        },
      )
      .toEqual({ eu: 'https://eu.example', us: 'https://us.example' });
    await page.reload();
    await main().getByRole('textbox', { name: 'Value of eu' }).waitFor();
    expect(await main().getByRole('textbox', { name: 'Value of us' }).inputValue()).toBe(
      'https://us.example',
    );
    await settle(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-dictionary-dynamic-en');
  });

  it('lists the dictionaries with their columns, in English and in French', async () => {
    await page.goto(`${portico.webUrl}/management/settings/dictionaries`);
    const rows = main().getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    const header = await rows.nth(0).innerText();
    for (const column of [
      'ID',
      'Name',
      'Description',
      'Type',
      'Number of properties',
      'Last updated at',
      'Last deployment at',
    ])
      expect(header).toContain(column);
    expect(await rows.nth(1).innerText()).toMatch(
      /backend-hosts\s+Backend hosts\s+Where the backends live\s+Manual\s+2\s/i,
    );
    await settle(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-dictionaries-list-en');

    await inLanguage('fr');
    await main().getByRole('heading', { name: 'Dictionnaires' }).waitFor();
    expect(await rows.nth(0).innerText()).toContain('Nombre de propriétés');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-dictionaries-list-fr');
    await main().getByRole('link', { name: 'Regions' }).click();
    await main().getByRole('button', { name: 'Démarrer' }).waitFor();
    await settle(page);
    await screenshot(page, 'settings-dictionary-dynamic-fr');
    await inLanguage('en');
  });

  it('deletes a dictionary after confirmation and goes back to the list', async () => {
    await page.goto(`${portico.webUrl}/management/settings/dictionaries/backend-hosts`);
    await main().getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the dictionary' });
    await dialog.getByText('Are you sure you want to delete the dictionary Backend hosts?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/settings\/dictionaries$/);
    await page.getByText('Dictionary Backend hosts deleted').waitFor();
    await expect.poll(() => main().getByRole('row').count()).toBe(2);
  });
});
