import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations, signInOnPage } from './support/app';
import { newContext, screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { adminToken, createActiveUser } from './support/portico';

const DEVELOPER = {
  firstname: 'Grace',
  lastname: 'Hopper',
  email: 'grace@partners.test',
  password: 'Sup3r-secret!',
};
const OWNER_EMAIL = 'owner@portico.test';
const SUPPORT_EMAIL = 'support@portico.test';

/**
 * The portal's home and support (portal-and-platform.md 2: home, support ticket form; issue 14 items 1
 * and 5) in a real browser against `portico start` with a real SMTP sink: the top APIs as cards with
 * picture, views and stars; a signed-in developer sends a ticket from the API's Support entry, and the
 * API's owner gets it by mail, with a copy to the developer; on `/support` the ticket's API is found by
 * search as one types (the first 20 matches) or among the chosen application's APIs.
 */
describe('portal home top APIs and support tickets', () => {
  const { world, api, createApi, publishedPlan, toast, main } = consoleSuite();
  const contexts: BrowserContext[] = [];
  let weather = '';

  beforeAll(async () => {
    // The administrator owns the APIs: give the account the address tickets about them go to.
    await api('PUT', 'user', { email: OWNER_EMAIL });
    const { id: view } = await api<{ id: string }>('POST', 'configuration/views', { name: 'Climate' });
    ({ id: weather } = await createApi('Weather', '/weather'));
    const { id: tides } = await createApi('Tides', '/tides');
    const { id: hidden } = await createApi('Withdrawn', '/withdrawn');
    for (const [id, lifecycle] of [
      [weather, 'PUBLISHED'],
      [tides, 'PUBLISHED'],
      [hidden, 'UNPUBLISHED'],
    ] as const) {
      await api('PUT', `apis/${id}`, {
        ...(await api<Record<string, unknown>>('GET', `apis/${id}`)),
        visibility: 'PUBLIC',
        lifecycle_state: lifecycle,
        views: id === weather ? [view] : [],
      });
      await api('POST', 'configuration/top-apis', { api: id });
    }
    await api('POST', `apis/${weather}/ratings`, { rate: 4, title: 'Solid', comment: 'Accurate forecasts.' });
    await api('POST', 'portal', { portal: { support: { email: SUPPORT_EMAIL } } });
    await createActiveUser(world.portico, world.token, world.sink, DEVELOPER);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  });

  async function tabOn(path: string, signIn?: { username: string; password: string }): Promise<Page> {
    const context = await newContext(world.browser);
    contexts.push(context);
    const tab = await context.newPage();
    if (!signIn) {
      await tab.goto(`${world.portico.webUrl}${path}`);
      return tab;
    }
    await tab.goto(`${world.portico.webUrl}/login?redirectUri=${encodeURIComponent(path)}`);
    await signInOnPage(tab, signIn.username, signIn.password);
    await tab.waitForURL(`${world.portico.webUrl}${path}`);
    return tab;
  }

  it('shows the top APIs a visitor may see as cards with picture, views and stars; support asks to sign in', async () => {
    const tab = await tabOn('/');
    const top = main(tab).getByRole('list', { name: 'Top APIs' });
    const cards = top.getByRole('link');
    // The cards come in their own chunk, once the top APIs are known.
    await cards.first().waitFor();
    expect(await cards.count()).toBe(2);
    // In the configured order; the unpublished API is not shown.
    expect(
      await top
        .getByRole('paragraph')
        .filter({ hasText: /^(Weather|Tides|Withdrawn)$/ })
        .allTextContents(),
    ).toEqual(['Weather', 'Tides']);
    const card = cards.filter({ hasText: 'Weather' });
    await card.getByText('Climate').waitFor();
    await card.getByText('1 rating').waitFor();
    expect(await card.locator('img, [class*="Avatar"]').count()).toBeGreaterThan(0);
    await screenshot(tab, 'portal-home-top-apis');
    expect(await seriousA11yViolations(tab)).toEqual([]);

    await card.click();
    await tab.waitForURL(`**/apis/${weather}/detail`);
    await tab.goto(`${world.portico.webUrl}/support`);
    await main(tab).getByRole('heading', { name: 'Sign in to contact support' }).waitFor();
    expect(await main(tab).getByRole('textbox').count()).toBe(0);
  });

  it("sends a ticket from the API's Support entry to the API's owner, with a copy to the sender", async () => {
    const tab = await tabOn(`/apis/${weather}/detail`, {
      username: DEVELOPER.email,
      password: DEVELOPER.password,
    });
    await main(tab)
      .getByRole('navigation', { name: 'API sections' })
      .getByRole('link', { name: 'Support' })
      .click();
    await tab.waitForURL(`**/apis/${weather}/support`);
    const send = main(tab).getByRole('button', { name: 'Send' });
    await send.waitFor();
    // The API is the route's: no API choice; nothing to send yet.
    expect(await main(tab).getByLabel('API', { exact: true }).count()).toBe(0);
    expect(await send.isDisabled()).toBe(true);

    await main(tab).getByRole('textbox', { name: 'Subject' }).fill('Forecast quota');
    await main(tab).getByRole('textbox', { name: 'Subject' }).fill('');
    await main(tab).getByText('The subject is required').waitFor();
    await main(tab).getByRole('textbox', { name: 'Subject' }).fill('Forecast quota');
    await main(tab)
      .getByRole('textbox', { name: 'Message' })
      .fill('How many forecasts a day may we ask for?');
    await main(tab).getByRole('checkbox', { name: 'Send me a copy' }).check();
    await screenshot(tab, 'portal-api-support');
    expect(await seriousA11yViolations(tab)).toEqual([]);

    await send.click();
    await toast(tab, 'Your ticket has been sent.').waitFor();
    const toOwner = await world.sink.waitForMail(OWNER_EMAIL, /Forecast quota/);
    expect(toOwner.text).toContain('How many forecasts a day may we ask for?');
    expect(toOwner.text).toContain('API: Weather (1.0)');
    expect(toOwner.replyTo?.text).toContain(DEVELOPER.email);
    const copy = await world.sink.waitForMail(DEVELOPER.email, /Forecast quota/);
    expect(copy.text).toContain('How many forecasts a day may we ask for?');
    // The form is empty again.
    expect(await main(tab).getByRole('textbox', { name: 'Subject' }).inputValue()).toBe('');

    // The portal's support page offers the API choice; a ticket about no API goes to the support address.
    await tab.getByRole('banner').getByRole('link', { name: 'Support' }).click();
    await tab.waitForURL('**/support');
    await main(tab).getByRole('heading', { name: 'Support', level: 1 }).waitFor();
    await main(tab).getByRole('combobox', { name: 'API', exact: true }).waitFor();
    await main(tab).getByRole('textbox', { name: 'Subject' }).fill('Portal sign-up');
    await main(tab).getByRole('textbox', { name: 'Message' }).fill('Can my team share one account?');
    await screenshot(tab, 'portal-support');
    await main(tab).getByRole('button', { name: 'Send' }).click();
    const toSupport = await world.sink.waitForMail(SUPPORT_EMAIL, /Portal sign-up/);
    expect(toSupport.text).toContain('Can my team share one account?');
    expect(toSupport.text).not.toContain('API:');
  });

  it("finds the API of a ticket by search as one types, the first 20 matches, after the application's own APIs", async () => {
    // 22 more APIs to search among: the choice offers the first 20.
    for (let i = 1; i <= 22; i++) {
      const n = String(i).padStart(2, '0');
      const { id } = await createApi(`Forecast ${n}`, `/forecast-${n}`);
      await api('PUT', `apis/${id}`, {
        ...(await api<Record<string, unknown>>('GET', `apis/${id}`)),
        visibility: 'PUBLIC',
      });
    }
    // The developer's application subscribes to Weather (pending: the plan asks for validation).
    const { id: plan } = await publishedPlan(weather, 'Standard');
    const token = await adminToken(world.portico, DEVELOPER.email, DEVELOPER.password);
    const asDeveloper = async <T>(path: string, body: unknown): Promise<T> => {
      const response = await fetch(`${world.portico.apiUrl}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    const app = await asDeveloper<{ id: string }>('applications', {
      name: 'Sailing log',
      description: 'Logs trips',
    });
    await asDeveloper(`applications/${app.id}/subscriptions?plan=${plan}`, {});

    const tab = await tabOn('/', { username: DEVELOPER.email, password: DEVELOPER.password });
    // The page never asks for the list of every API.
    const listed: string[] = [];
    tab.on('request', (r) => {
      const url = new URL(r.url());
      if (r.method() === 'GET' && /\/apis\/?$/.test(url.pathname) && !url.searchParams.has('top'))
        listed.push(r.url());
    });
    await tab.getByRole('banner').getByRole('link', { name: 'Support' }).click();
    const choice = main(tab).getByRole('combobox', { name: 'API', exact: true });
    const options = tab.getByRole('listbox');
    await choice.click();
    await options.getByText('Type at least 4 characters to find an API').waitFor();

    // 'fore' searches after the pause: the 22 Forecast APIs match, the first 20 are offered.
    await choice.fill('fore');
    await options.getByText('First 20 of 22 matches: type more to narrow them').waitFor();
    expect(await options.getByRole('option').count()).toBe(20);
    await screenshot(tab, 'portal-support-api-search');
    expect(await seriousA11yViolations(tab)).toEqual([]);
    await choice.fill('forecast 07');
    await expect.poll(() => options.getByRole('option').allTextContents()).toEqual(['Forecast 07 (1.0)']);
    await choice.fill('zeppelin');
    await options.getByText('No API matching "zeppelin"').waitFor();
    // From the keyboard: the matches of a new search, arrow down, Enter.
    await choice.fill('forecast 10');
    await expect.poll(() => options.getByRole('option').allTextContents()).toEqual(['Forecast 10 (1.0)']);
    await tab.keyboard.press('ArrowDown');
    await tab.keyboard.press('Enter');
    await expect.poll(() => choice.inputValue()).toBe('Forecast 10 (1.0)');

    // Once the application is chosen, its APIs are the first options.
    await main(tab).getByRole('combobox', { name: 'Application' }).click();
    await tab.getByRole('option', { name: 'Sailing log' }).click();
    await choice.click();
    await options.getByText('Subscribed by Sailing log').waitFor();
    await screenshot(tab, 'portal-support-subscribed-apis');
    await options.getByRole('option', { name: 'Weather (1.0)' }).click();
    expect(await choice.inputValue()).toBe('Weather (1.0)');

    await main(tab).getByRole('textbox', { name: 'Subject' }).fill('Sailing forecasts');
    await main(tab).getByRole('textbox', { name: 'Message' }).fill('Do you forecast the swell?');
    await main(tab).getByRole('button', { name: 'Send' }).click();
    const mail = await world.sink.waitForMail(OWNER_EMAIL, /Sailing forecasts/);
    expect(mail.text).toContain('API: Weather (1.0)');
    expect(mail.text).toContain('Application: Sailing log');
    // The form starts again without an API.
    await expect.poll(() => choice.inputValue()).toBe('');
    expect(listed).toEqual([]);
  });
});
