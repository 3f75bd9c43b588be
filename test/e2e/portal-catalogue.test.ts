import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { focused, seriousA11yViolations } from './support/app';
import { newContext, screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';

/**
 * The portal catalogue (portal-and-platform.md 2: /apis, /views, /views/{viewId}; issue 14 item 1) in
 * a real browser against `portico start`, signed out: only PUBLIC APIs, the views side navigation,
 * loading by 20, the search after its pause with the no-result text, the tiles/list choice kept
 * after a reload, the views grid without empty views, a view's highlighted API, each API of a view
 * opening its detail, ratings or documentation, and the views-mode redirect.
 */
describe('portal catalogue', () => {
  const { world, api, createApi, adminOn, main } = consoleSuite();
  const contexts: BrowserContext[] = [];
  const views: Record<string, string> = {};

  const publish = async (id: string, changes: Record<string, unknown>) =>
    api('PUT', `apis/${id}`, { ...(await api<Record<string, unknown>>('GET', `apis/${id}`)), ...changes });

  const visitor = async (path: string): Promise<Page> => {
    const context = await newContext(world.browser);
    contexts.push(context);
    const tab = await context.newPage();
    await tab.goto(`${world.portico.webUrl}${path}`);
    return tab;
  };

  beforeAll(async () => {
    for (const name of ['Travel', 'Weather', 'Empty']) {
      views[name] = (await api<{ id: string }>('POST', 'configuration/views', { name })).id;
    }
    const travel: string[] = [];
    for (let i = 1; i <= 21; i++) {
      const n = String(i).padStart(2, '0');
      const { id } = await createApi(`Travel ${n}`, `/travel-${n}`);
      await publish(id, { visibility: 'PUBLIC', views: [views.Travel] });
      travel.push(id);
    }
    const { id: weather } = await createApi('Weather', '/weather');
    await publish(weather, {
      visibility: 'PUBLIC',
      views: [views.Weather],
      description: 'Forecasts for sailors and hikers',
    });
    // Its stars show on its card (rating is on by default).
    await api('POST', `apis/${weather}/ratings`, { rate: 4, title: 'Good', comment: 'Accurate.' });
    const { id: vault } = await createApi('Vault', '/vault');
    await publish(vault, { views: [views.Travel], description: 'Forecasts of the private vault' });
    await api('PUT', `configuration/views/${views.Travel}`, {
      name: 'Travel',
      description: 'Trips, flights and hotels.',
      highlightApi: travel[4],
    });
  }, 120_000);
  afterAll(() => Promise.all(contexts.map((c) => c.close().catch(() => undefined))));

  const cards = (tab: Page) => main(tab).getByTestId('api-tiles').getByRole('link');
  /** A view's tiles are no links: each holds three (detail, ratings, documentation). */
  const viewTiles = (tab: Page) => main(tab).getByTestId('api-tiles').getByRole('article');

  it('shows a visitor the PUBLIC APIs of a view by 20, with the views holding APIs beside', async () => {
    const tab = await visitor(`/apis?view=${views.Travel}`);
    await cards(tab).first().waitFor();

    expect(await cards(tab).count()).toBe(20);
    const nav = main(tab).getByRole('navigation', { name: 'Views' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('Travel'), expect.stringContaining('Weather')]),
    );
    expect(await nav.getByRole('link', { name: /Empty/ }).count()).toBe(0);
    // The counts are of the APIs the visitor may see: the private Vault is not counted.
    expect(await nav.getByRole('link', { name: /Travel/ }).textContent()).toBe('Travel21');
    await screenshot(tab, 'portal-catalogue-tiles');
    expect(await seriousA11yViolations(tab)).toEqual([]);

    await main(tab).getByRole('button', { name: 'Show more (20 of 21)' }).click();
    await expect.poll(() => cards(tab).count()).toBe(21);
    expect(await main(tab).getByText('Vault').count()).toBe(0);
    await cards(tab).filter({ hasText: 'Travel 21' }).click();
    await tab.waitForURL(/\/apis\/[^/]+\/detail$/);
  });

  it('shows a signed-in user the private APIs it may see, in the list, the counts and the search', async () => {
    const tab = await adminOn(`/apis?view=${views.Travel}`);
    const nav = main(tab).getByRole('navigation', { name: 'Views' });
    await expect.poll(() => nav.getByRole('link', { name: /Travel/ }).textContent()).toBe('Travel22');
    await main(tab).getByRole('button', { name: 'Show more (20 of 22)' }).click();
    await cards(tab).filter({ hasText: 'Vault' }).waitFor();

    await main(tab).getByRole('textbox', { name: 'Search APIs' }).fill('forecasts');
    await tab.waitForURL(/q=forecasts/);
    await expect
      .poll(() => cards(tab).allTextContents())
      .toEqual([expect.stringContaining('Vault'), expect.stringContaining('Weather')]);
  });

  it('searches after a pause above 3 characters, and says when nothing matches', async () => {
    const tab = await visitor(`/apis?view=${views.Travel}`);
    const box = main(tab).getByRole('textbox', { name: 'Search APIs' });
    await box.fill('sai');
    await tab.waitForTimeout(700);
    expect(new URL(tab.url()).searchParams.get('q')).toBeNull();

    await box.fill('forecasts');
    await tab.waitForURL(/q=forecasts/);
    await main(tab)
      .getByRole('link', { name: /Results/ })
      .waitFor();
    await expect.poll(() => cards(tab).allTextContents()).toEqual([expect.stringContaining('Weather')]);
    await screenshot(tab, 'portal-catalogue-results');
    // The card carries the API's stars and its number of ratings from the search's answer.
    await cards(tab).getByRole('img', { name: 'Rated 4 out of 5' }).waitFor();
    expect(await cards(tab).getByText('1 rating').count()).toBe(1);

    await box.fill('forecasts zeppelin');
    await main(tab).getByText('No API matching "forecasts zeppelin" were found.').waitFor();
    await screenshot(tab, 'portal-catalogue-no-result');
    expect(await seriousA11yViolations(tab)).toEqual([]);

    // Choosing a view leaves the search: the box empties and the view's APIs come back.
    await main(tab)
      .getByRole('link', { name: /Weather/ })
      .click();
    await expect.poll(() => box.inputValue()).toBe('');
    await expect.poll(() => cards(tab).allTextContents()).toEqual([expect.stringContaining('Weather')]);
  });

  it("searches from the home page's box", async () => {
    const tab = await visitor('/');
    const box = main(tab).getByRole('search');
    await box.getByRole('textbox', { name: 'Search APIs' }).fill('forecasts');
    await box.getByRole('button', { name: 'Search' }).click();
    await tab.waitForURL(/\/apis\?q=forecasts$/);
    await main(tab)
      .getByRole('link', { name: /Results/ })
      .waitFor();
    await expect.poll(() => cards(tab).allTextContents()).toEqual([expect.stringContaining('Weather')]);
    expect(await main(tab).getByRole('textbox', { name: 'Search APIs' }).inputValue()).toBe('forecasts');
  });

  it('keeps the list display after a reload', async () => {
    const tab = await visitor(`/apis?view=${views.Travel}`);
    await cards(tab).first().waitFor();
    await main(tab).locator('label', { hasText: 'List' }).click();
    await main(tab).getByTestId('api-list').waitFor();

    await tab.reload();
    await main(tab).getByTestId('api-list').getByRole('link').first().waitFor();
    expect(await main(tab).getByTestId('api-tiles').count()).toBe(0);
    expect(await tab.evaluate(() => localStorage.getItem('portico.tilesMode'))).toBe('false');
    await screenshot(tab, 'portal-catalogue-list');
    expect(await seriousA11yViolations(tab)).toEqual([]);
  });

  it('lists the views holding APIs and shows a view with its highlighted API', async () => {
    const tab = await visitor('/views');
    await main(tab)
      .getByRole('link', { name: /Weather/ })
      .waitFor();
    expect(await main(tab).getByRole('link', { name: /Empty/ }).count()).toBe(0);
    await main(tab)
      .getByRole('link', { name: /Travel/ })
      .getByText('21 APIs')
      .waitFor();
    await screenshot(tab, 'portal-views');
    expect(await seriousA11yViolations(tab)).toEqual([]);

    await main(tab)
      .getByRole('link', { name: /Travel/ })
      .click();
    const highlighted = main(tab).getByTestId('highlighted-api');
    await highlighted.getByRole('heading', { name: 'Travel 05' }).waitFor();
    // The highlighted API opens its detail, its ratings (rating is on by default) and its documentation.
    expect(await highlighted.getByRole('link').allTextContents()).toEqual([
      'Open',
      'Ratings',
      'Documentation',
    ]);
    await highlighted.getByRole('link', { name: 'Ratings' }).click();
    await tab.waitForURL(/\/apis\/[^/]+\/ratings$/);
    await main(tab).getByRole('heading', { name: 'Travel 05', level: 1 }).waitFor();
    await tab.goBack();
    await main(tab).getByText('Trips, flights and hotels.').waitFor();
    await expect.poll(() => viewTiles(tab).count()).toBe(20);
    expect(await main(tab).getByText('Vault').count()).toBe(0);
    await screenshot(tab, 'portal-view');
    expect(await seriousA11yViolations(tab)).toEqual([]);
  });

  it('lets each API of a view open its detail, ratings or documentation, from the keyboard too', async () => {
    const tab = await visitor(`/views/${views.Travel}`);
    const tile = viewTiles(tab).filter({ hasText: 'Travel 01' });
    await tile.waitFor();
    // Its name opens the detail, its number of ratings the ratings (rating is on by default).
    expect(await tile.getByRole('link').allTextContents()).toEqual([
      'Travel 01',
      '0 ratings',
      'Documentation',
    ]);
    // Tab goes from the name to the ratings and the documentation, each with a visible focus.
    await tile.getByRole('link', { name: 'Travel 01' }).focus();
    expect(await focused(tab)).toMatchObject({ text: 'Travel 01', visible: true });
    await tab.keyboard.press('Tab');
    expect(await focused(tab)).toMatchObject({ text: '0 ratings', visible: true });
    await tab.keyboard.press('Tab');
    expect(await focused(tab)).toMatchObject({ text: 'Documentation', visible: true });
    await screenshot(tab, 'portal-view-tile-focus');
    await tab.keyboard.press('Enter');
    await tab.waitForURL(/\/apis\/[^/]+\/pages/);
    await main(tab).getByRole('heading', { name: 'Travel 01', level: 1 }).waitFor();
    await tab.goBack();

    await tile.getByRole('link', { name: '0 ratings' }).click();
    await tab.waitForURL(/\/apis\/[^/]+\/ratings$/);
    await main(tab).getByRole('heading', { name: 'Travel 01', level: 1 }).waitFor();
    await tab.goBack();
    // A click anywhere else on the tile opens the detail, as on the catalogue's tiles.
    const description = (await tile.getByText('Travel 01 of the shop').boundingBox())!;
    await tab.mouse.click(description.x + 10, description.y + description.height / 2);
    await tab.waitForURL(/\/apis\/[^/]+\/detail$/);
    await main(tab).getByRole('heading', { name: 'Travel 01', level: 1 }).waitFor();

    // Without ratings, neither the highlighted API nor the tiles link to them.
    await api('POST', 'portal', { portal: { rating: { enabled: false } } });
    try {
      const off = await visitor(`/views/${views.Travel}`);
      const offTile = viewTiles(off).filter({ hasText: 'Travel 01' });
      await offTile.waitFor();
      expect(await offTile.getByRole('link').allTextContents()).toEqual(['Travel 01', 'Documentation']);
      expect(await main(off).getByTestId('highlighted-api').getByRole('link').allTextContents()).toEqual([
        'Open',
        'Documentation',
      ]);
      await screenshot(off, 'portal-view-without-ratings');
      expect(await seriousA11yViolations(off)).toEqual([]);
    } finally {
      await api('POST', 'portal', { portal: { rating: { enabled: true } } });
    }
  });

  it('fits a phone: home, /apis and an API detail without sideways scrolling', async () => {
    const tab = await visitor('/');
    await tab.setViewportSize({ width: 390, height: 844 });
    const fits = () => tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await main(tab).getByRole('heading').first().waitFor();
    expect(await fits()).toBe(true);
    await screenshot(tab, 'portal-phone-home');
    // The top bar's links sit behind a menu button: opened from the keyboard, closed by Escape.
    const menu = tab.getByRole('banner').locator('summary[aria-label="Main navigation"]');
    await menu.focus();
    await tab.keyboard.press('Enter');
    const apisLink = tab.getByRole('banner').getByRole('link', { name: 'APIs' });
    await apisLink.waitFor();
    await screenshot(tab, 'portal-phone-menu');
    expect(await seriousA11yViolations(tab)).toEqual([]);
    await tab.keyboard.press('Escape');
    await apisLink.waitFor({ state: 'hidden' });
    await tab.goto(`${world.portico.webUrl}/apis?view=${views.Weather}`);
    await cards(tab).first().waitFor();
    expect(await fits()).toBe(true);
    await screenshot(tab, 'portal-phone-apis');
    await cards(tab).first().click();
    await tab.waitForURL(/\/detail$/);
    await main(tab).getByRole('heading', { name: 'Weather' }).waitFor();
    expect(await fits()).toBe(true);
    await screenshot(tab, 'portal-phone-api-detail');
  });

  it('sends /apis to the views in views mode', async () => {
    await api('POST', 'portal', { portal: { apis: { viewMode: { enabled: true } } } });
    try {
      const tab = await visitor('/apis');
      await tab.waitForURL(/\/views$/);
      const search = await visitor('/apis?q=forecasts');
      await cards(search).first().waitFor();
    } finally {
      await api('POST', 'portal', { portal: { apis: { viewMode: { enabled: false } } } });
    }
  });
});
