import os from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connect, insertInstance } from '@portico/storage';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { Portico } from './support/portico';
import { startPortico } from './support/portico';

/**
 * Gateways (console-applications-and-settings.md 2.2): the gateway started by `portico start` writes
 * its heartbeats; its card, the history table, the environment tab (info, plugins, system properties
 * filter) and the monitoring tab polled every 5 s; a stopped gateway has no monitoring data. In
 * English and in French.
 */
describe('gateway instances', () => {
  let portico: Portico;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const stoppedId = 'e2e-stopped-gateway';

  beforeAll(async () => {
    [portico, browser] = await Promise.all([startPortico(), launchChromium()]);
    // A gateway that ran earlier today and stopped: the history shows it next to the running one.
    const storage = connect({ dataDir: portico.dataDir });
    const now = Date.now();
    await insertInstance(storage.db, {
      id: stoppedId,
      hostname: 'gw-old-eu',
      ip: '10.1.2.3',
      port: 8082,
      version: '0.9.0',
      tags: '["eu"]',
      tenant: 'europe',
      plugins: '[]',
      system_properties: '{}',
      operating_system_name: 'Linux',
      state: 'STOPPED',
      started_at: now - 3_600_000,
      last_heartbeat_at: now - 1_800_000,
      stopped_at: now - 1_800_000,
      monitoring: null,
      dropped_reports: 0,
      sync_seq: 0,
      sync_digest: '',
    });
    await storage.close();
    page = await (await newContext(browser)).newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${portico.webUrl}/login`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await portico?.stop();
  });
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
    expect(errors.splice(0)).toEqual([]);
  });
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await screenshot(page, `failed-instances-${test.task.name.slice(0, 40)}`).catch(() => undefined);
  });

  async function inLanguage(language: string): Promise<void> {
    await page.evaluate((lang) => localStorage.setItem('portico.language', JSON.stringify(lang)), language);
    await page.reload();
    await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
    await settle(page);
  }
  const main = () => page.getByRole('main');
  const gatewayPort = () => new URL(portico.gatewayUrl).port;

  it('shows the running gateway as a card, reached from the Gateways menu', async () => {
    await page.goto(`${portico.webUrl}/management`);
    await page.getByRole('link', { name: 'Gateways' }).click();
    await page.waitForURL(/\/management\/instances$/);
    await main().getByRole('heading', { name: 'API Gateway' }).waitFor();
    const card = main().getByRole('link', { name: os.hostname() });
    await card.waitFor();
    await expect(card.innerText()).resolves.toContain(`:${gatewayPort()}`);
    await expect(card.innerText()).resolves.toMatch(/started/i);
    // Live mode lists running gateways only.
    expect(await main().getByText('gw-old-eu').count()).toBe(0);
    await main().getByRole('textbox', { name: 'Search gateways' }).fill('no-such-host');
    expect(await main().getByRole('link', { name: os.hostname() }).count()).toBe(0);
    await main().getByRole('textbox', { name: 'Search gateways' }).fill('');
    await screenshot(page, 'instances-list-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows the history of the last day, the stopped gateway included', async () => {
    await main().getByRole('switch', { name: 'Show history' }).check();
    const table = main().getByRole('table', { name: 'Gateway instances history' });
    await table.getByText('gw-old-eu').waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    // Newest start first: the running gateway, then the one stopped half an hour ago.
    await expect(rows.nth(0).innerText()).resolves.toContain(os.hostname());
    await expect(rows.nth(1).innerText()).resolves.toMatch(/gw-old-eu[\s\S]*stopped[\s\S]*eu[\s\S]*europe/i);
    await screenshot(page, 'instances-history-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows the environment: info, the real plugins sortable, system properties filtered', async () => {
    await main().getByRole('switch', { name: 'Show history' }).uncheck();
    await main().getByRole('link', { name: os.hostname() }).click();
    await page.waitForURL(/\/environment$/);
    const info = main().getByRole('table', { name: 'Information' });
    await expect(info.innerText()).resolves.toContain(gatewayPort());
    const plugins = main().getByRole('table', { name: 'Plugins' });
    await plugins.getByRole('cell', { name: 'rate-limit', exact: true }).waitFor();
    await plugins.getByRole('cell', { name: 'oauth2', exact: true }).waitFor();
    await plugins.getByRole('button', { name: 'ID' }).click();
    const firstId = await plugins.locator('tbody tr').first().locator('td').nth(1).innerText();
    await plugins.getByRole('button', { name: 'ID' }).click();
    const lastFirst = await plugins.locator('tbody tr').first().locator('td').nth(1).innerText();
    expect(firstId.localeCompare(lastFirst)).toBeLessThan(0);
    const properties = main().getByRole('table', { name: 'System properties' });
    await main().getByRole('textbox', { name: 'Filter by name or value' }).fill('node.version');
    await expect(properties.locator('tbody tr').count()).resolves.toBe(1);
    await expect(properties.innerText()).resolves.toContain(process.version);
    await main().getByRole('textbox', { name: 'Filter by name or value' }).fill('');
    await screenshot(page, 'instances-environment-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows the monitoring gauges and figures, polled every 5 seconds', async () => {
    const polls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/monitoring/')) polls.push(request.url());
    });
    await main().getByRole('tab', { name: 'Monitoring' }).click();
    await page.waitForURL(/\/monitoring$/);
    const cpu = main().getByRole('meter', { name: /^CPU: \d+%$/ });
    await cpu.waitFor();
    const heap = main().getByRole('meter', { name: /^Heap: \d+%$/ });
    expect(Number(await heap.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    await main().getByRole('table', { name: 'Garbage collection' }).waitFor();
    await expect(main().getByRole('table', { name: 'Threads' }).innerText()).resolves.toMatch(/Count\s+\d+/);
    for (const pool of ['Young', 'Survivor', 'Old'])
      await main().getByText(pool, { exact: true }).first().waitFor();
    await page.waitForTimeout(5600);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'instances-monitoring-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  }, 20_000);

  it('says there is no data for a stopped gateway', async () => {
    await page.goto(`${portico.webUrl}/management/instances/${stoppedId}/monitoring`);
    await main().getByText('There is no data for stopped gateway instance').waitFor();
    await page.goto(`${portico.webUrl}/management/instances/${stoppedId}/environment`);
    await main().getByText('No tag configured').count();
    await expect(main().getByRole('table', { name: 'Information' }).innerText()).resolves.toContain('europe');
  });

  it('reads in French', async () => {
    await page.goto(`${portico.webUrl}/management/instances`);
    await inLanguage('fr');
    await main().getByRole('link', { name: os.hostname() }).waitFor();
    await screenshot(page, 'instances-list-fr');
    await main().getByRole('switch', { name: "Afficher l'historique" }).check();
    await main().getByText('gw-old-eu').waitFor();
    await screenshot(page, 'instances-history-fr');
    await main().getByRole('switch', { name: "Afficher l'historique" }).uncheck();
    await main().getByRole('link', { name: os.hostname() }).click();
    await main().getByRole('table', { name: 'Propriétés système' }).waitFor();
    await screenshot(page, 'instances-environment-fr');
    await main().getByRole('tab', { name: 'Supervision' }).click();
    await main()
      .getByRole('meter', { name: /^CPU: \d+%$/ })
      .waitFor();
    await screenshot(page, 'instances-monitoring-fr');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await inLanguage('en');
  });
});
