import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { MailSink } from './support/mail-sink';
import { startMailSink } from './support/mail-sink';
import type { Portico } from './support/portico';
import { adminToken, createActiveUser, startPortico } from './support/portico';

/**
 * What users who are not administrators see of an API in the console: the subscriber of an API (no
 * membership) and an API member with the USER role (read-only screens, never a raw permission name).
 */
describe('API screens for users who are not administrators', () => {
  let portico: Portico;
  let sink: MailSink;
  let browser: Browser;
  let token: string;
  let apiId: string;
  let subscriptionId: string;
  let appId: string;
  const contexts: BrowserContext[] = [];
  /** Uncaught errors of the pages, and calls of the management API that were refused (403). */
  const errors: string[] = [];
  const refused: string[] = [];

  async function call<T>(bearer: string, method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${portico.apiUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  beforeAll(async () => {
    sink = await startMailSink();
    [portico, browser] = await Promise.all([startPortico({ smtpUrl: sink.url }), launchChromium()]);
    token = await adminToken(portico);
    ({ id: apiId } = await call<{ id: string }>(token, 'POST', 'apis', {
      name: 'Weather',
      version: '2.1',
      description: 'Forecasts of the next days',
      context_path: '/weather',
      endpoint: 'http://localhost:9/backend',
    }));
    await call(token, 'PUT', `apis/${apiId}`, {
      ...(await call<Record<string, unknown>>(token, 'GET', `apis/${apiId}`)),
      visibility: 'PUBLIC',
    }).catch(() => undefined);
    const plan = await call<{ id: string }>(token, 'POST', `apis/${apiId}/plans`, {
      name: 'Free',
      description: 'Free forecasts',
      security: 'API_KEY',
      status: 'PUBLISHED',
      validation: 'AUTO',
    });
    await createActiveUser(portico, token, sink, {
      firstname: 'Sam',
      lastname: 'Subscriber',
      email: 'sam@example.com',
      password: 'subscriber-pass',
    });
    const member = await createActiveUser(portico, token, sink, {
      firstname: 'Uma',
      lastname: 'User',
      email: 'uma@example.com',
      password: 'member-pass',
    });
    await call(token, 'POST', `apis/${apiId}/members`, { id: member.id, role: 'USER' });

    const sam = await adminToken(portico, 'sam@example.com', 'subscriber-pass');
    ({ id: appId } = await call<{ id: string }>(sam, 'POST', 'applications', {
      name: 'Sam weather app',
      description: 'Shows the weather',
    }));
    ({ id: subscriptionId } = await call<{ id: string }>(
      sam,
      'POST',
      `applications/${appId}/subscriptions?plan=${plan.id}`,
    ));
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    await browser?.close();
    await portico?.stop();
    await sink?.close();
  });

  // The web server's Content-Security-Policy blocks nothing the app does.
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    const pages = contexts.flatMap((c) => c.pages());
    await Promise.all(
      pages.map((p, i) => screenshot(p, `failed-${test.task.name.slice(0, 40)}-${i}`).catch(() => undefined)),
    );
  });

  async function signedIn(username: string, password: string, path: string): Promise<Page> {
    const context = await newContext(browser);
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('response', (response) => {
      if (response.status() === 403) refused.push(new URL(response.url()).pathname);
    });
    await page.goto(`${portico.webUrl}/login?redirectUri=${encodeURIComponent(path)}`);
    await signInOnPage(page, username, password);
    await page.waitForURL(`${portico.webUrl}${path}`);
    return page;
  }

  const main = (page: Page) => page.getByRole('main');

  it("opens the API of one's own subscription, from the subscription and by its URL, without a crash", async () => {
    const page = await signedIn(
      'sam@example.com',
      'subscriber-pass',
      `/management/applications/${appId}/subscriptions/${subscriptionId}`,
    );
    await main(page).getByRole('link', { name: 'Weather (2.1)' }).waitFor();
    await settle(page);
    await screenshot(page, 'subscriber-subscription');
    await main(page).getByRole('link', { name: 'Weather (2.1)' }).click();
    await page.waitForURL(`${portico.webUrl}/management/apis/${apiId}/portal`);
    await main(page)
      .getByRole('heading', { name: /Weather/ })
      .first()
      .waitFor();
    await settle(page);
    expect(await page.getByText('Cannot read properties').count()).toBe(0);
    await screenshot(page, 'subscriber-api');

    for (const path of ['portal', 'plans', `subscriptions/${subscriptionId}`]) {
      await page.goto(`${portico.webUrl}/management/apis/${apiId}/${path}`);
      await main(page)
        .getByRole('heading', { name: /Weather/ })
        .first()
        .waitFor();
      await settle(page);
      expect(await page.getByText('Cannot read properties').count(), path).toBe(0);
    }
    expect(errors).toEqual([]);
    expect(refused).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(`/management/apis/${apiId}/portal`);
    await screenshot(page, 'subscriber-api-by-url');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows a USER-role member the screens the role allows, read-only, and never a permission name', async () => {
    const page = await signedIn('uma@example.com', 'member-pass', `/management/apis/${apiId}/portal`);
    await main(page).getByRole('heading', { name: 'General', exact: true }).waitFor();
    const apiMenu = page.getByRole('navigation', { name: 'API menu' });
    await apiMenu.getByRole('link', { name: 'Plans' }).waitFor();
    expect(await apiMenu.getByRole('link').allTextContents()).toEqual([
      'General',
      'Plans',
      'Documentation',
      'Metadata',
      // api-definition-r: the proxy and design screens, read-only.
      'Details',
      'CORS',
      'Deployments',
      'Endpoints',
      'Failover',
      'Policies',
      'Resources',
      'Properties',
      'Path mappings',
    ]);
    // The definition is readable, not changeable.
    expect(await main(page).getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Weather');
    expect(await main(page).getByRole('textbox', { name: 'Name' }).isEditable()).toBe(false);
    expect(await main(page).getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(
      await main(page)
        .getByRole('button', { name: /Delete/ })
        .count(),
    ).toBe(0);
    // Labels in the normal font; only the code-like value (the context path) in the monospace one.
    const font = (locator: ReturnType<Page['locator']>) =>
      locator.evaluate((element) => getComputedStyle(element).fontFamily);
    expect(await font(main(page).locator('label', { hasText: 'Context path' }))).not.toMatch(/mono/i);
    expect(await font(main(page).getByRole('textbox', { name: 'Context path' }))).toMatch(/mono/i);
    await settle(page);
    await screenshot(page, 'member-user-general');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await apiMenu.getByRole('link', { name: 'Plans' }).click();
    await main(page).getByText('Free', { exact: true }).first().waitFor();
    expect(await main(page).getByRole('link', { name: 'Add a plan' }).count()).toBe(0);
    expect(
      await main(page)
        .getByRole('button', { name: /the plan Free/ })
        .count(),
    ).toBe(0);
    await settle(page);
    await screenshot(page, 'member-user-plans');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await apiMenu.getByRole('link', { name: 'Metadata' }).click();
    await main(page).getByRole('heading', { name: 'Metadata' }).first().waitFor();
    expect(
      await main(page)
        .getByRole('button', { name: /Add|Delete|Save/ })
        .count(),
    ).toBe(0);
    await settle(page);
    await screenshot(page, 'member-user-metadata');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A page the role does not allow, by its URL: the general page instead, without a refusal.
    await page.goto(`${portico.webUrl}/management/apis/${apiId}/members`);
    await page.waitForURL(`${portico.webUrl}/management/apis/${apiId}/portal`);
    await main(page).getByRole('heading', { name: 'General', exact: true }).waitFor();
    await settle(page);
    expect(await page.getByText(/permission api-/).count()).toBe(0);
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('opens the plans on the first status that has plans when the one asked is empty', async () => {
    const page = await signedIn(
      'uma@example.com',
      'member-pass',
      `/management/apis/${apiId}/plans?state=staging`,
    );
    await page.waitForURL(`${portico.webUrl}/management/apis/${apiId}/plans?state=published`);
    const filter = main(page).getByRole('group', { name: 'Plans by status' });
    await filter.getByRole('button', { name: /Published/, pressed: true }).waitFor();
    await main(page).getByText('Free', { exact: true }).first().waitFor();
    // Once shown, a status the user picks stays, even empty.
    await filter.getByRole('button', { name: /Staging/ }).click();
    await main(page).getByText('Plans will appear here').waitFor();
    expect(new URL(page.url()).searchParams.get('state')).toBe('staging');
    await settle(page);
    await screenshot(page, 'plans-empty-staging-chosen');
  });

  it('shows counts of ten and more in full in the badges of the plan statuses', async () => {
    const { id: mapsId } = await call<{ id: string }>(token, 'POST', 'apis', {
      name: 'Maps',
      version: '1.0',
      description: 'Tiles of the world',
      context_path: '/maps',
      endpoint: 'http://localhost:9/backend',
    });
    for (let i = 1; i <= 12; i++) {
      await call(token, 'POST', `apis/${mapsId}/plans`, {
        name: `Plan ${i}`,
        description: 'One of many',
        security: 'KEY_LESS',
      });
    }
    const page = await signedIn('admin', 'admin', `/management/apis/${mapsId}/plans?state=staging`);
    const filter = main(page).getByRole('group', { name: 'Plans by status' });
    await filter
      .getByRole('button', { name: /Staging/ })
      .getByText('12', { exact: true })
      .waitFor();
    // A badge's text is cut when it is wider than its box.
    const clipped = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.mantine-Badge-label, .mantine-Indicator-indicator'))
        .filter((label) => label.scrollWidth > label.clientWidth + 1)
        .map((label) => label.textContent),
    );
    expect(clipped).toEqual([]);
    await settle(page);
    await screenshot(page, 'plans-status-badges');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('translates a refusal of the server instead of showing the permission name', async () => {
    const page = await signedIn('uma@example.com', 'member-pass', `/management/apis/${apiId}/portal`);
    await main(page).getByRole('heading', { name: 'General', exact: true }).waitFor();
    // The server refuses a call the screens would not make (another tab changed the role meanwhile).
    await page.route('**/management/apis/*/members/permissions', (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'You do not have the permission api-member-r', http_status: 403 }),
      }),
    );
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.goto(`${portico.webUrl}/management/apis/${apiId}/plans`);
    await page.getByText('You are not allowed to do this or to see this page.').waitFor();
    expect(await page.getByText(/permission api-member-r/).count()).toBe(0);
    await settle(page);
    await screenshot(page, 'refusal-translated');
    refused.length = 0;
  });
});
