import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { RESULTS_DIR, newContext, screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { createActiveUser } from './support/portico';

/** A Markdown page that tries the usual ways to run a script in the reader's browser. */
const PAYLOAD = [
  '# Payments',
  '',
  'Take payments in any currency.',
  '',
  '## Cards',
  '',
  '<script>window.__pwned = "script"</script>',
  '',
  '<img src="x" onerror="window.__pwned = \'img\'; alert(1)">',
  '',
  '## Refunds',
  '',
  '[a link](javascript:alert(1))',
].join('\n');

const OPENAPI = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'Shop', version: '1.0' },
  paths: { '/orders': { get: { summary: 'List the orders', responses: { '200': { description: 'ok' } } } } },
});

/**
 * The developer portal's API detail and documentation (portal-and-platform.md: API detail, API
 * documentation, footer; issue 13 item 7 and issue 14 item 2) in a real browser against `portico start`,
 * signed out: the portal's homepage page and footer links, the API header, navigation, homepage page
 * and published plans, the documentation tree with its first root page selected, a Markdown page whose
 * scripts never run, a private API that reads as not found, and the header's link to the ratings only for
 * users who may read them.
 */
describe('portal API detail and documentation', () => {
  const { world, api, createApi, adminOn, main } = consoleSuite();
  const contexts: BrowserContext[] = [];
  let shop = '';
  let secret = '';
  const pageIds: Record<string, string> = {};

  const page = async (base: string, body: Record<string, unknown>) => {
    const created = await api<{ id: string }>('POST', base, body);
    pageIds[body.name as string] = created.id;
    return created.id;
  };

  beforeAll(async () => {
    ({ id: shop } = await createApi('Shop', '/shop'));
    // A sharding tag with its entrypoint, a view, and the header showing both.
    const { id: tag } = await api<{ id: string }>('POST', 'configuration/tags', { name: 'europe' });
    await api('POST', 'configuration/entrypoints', { value: 'https://eu.shop.example', tags: [tag] });
    const { id: view } = await api<{ id: string }>('POST', 'configuration/views', { name: 'Commerce' });
    await api('POST', 'portal', {
      portal: { apis: { apiHeaderShowTags: { enabled: true }, apiHeaderShowViews: { enabled: true } } },
    });
    await api('PUT', `apis/${shop}`, {
      ...(await api<Record<string, unknown>>('GET', `apis/${shop}`)),
      tags: [tag],
      views: [view],
      description: 'Orders, carts and payments of the shop, for partners and for our own apps.',
      visibility: 'PUBLIC',
    });
    ({ id: secret } = await createApi('Secret', '/secret'));
    // Portal headers: one of the administrator's own, and api.endpoint, which the header never shows.
    await api('POST', 'configuration/apiheaders', { name: 'Support hours', value: 'Weekdays 9:00-17:00' });
    await api('POST', 'configuration/apiheaders', {
      name: 'api.endpoint',
      value: 'https://backend.internal',
    });

    await api('POST', `apis/${shop}/plans`, {
      name: 'Gold',
      description: 'For partners with large volumes',
      security: 'API_KEY',
      status: 'PUBLISHED',
      characteristics: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'].map((c) => `Gold ${c}`),
    });
    await api('POST', `apis/${shop}/plans`, {
      name: 'Free',
      description: 'Try the API',
      security: 'KEY_LESS',
      status: 'PUBLISHED',
      characteristics: ['100 calls a day'],
    });
    await api('POST', `apis/${shop}/plans`, { name: 'Staging plan', description: 'x', security: 'API_KEY' });

    const pages = `apis/${shop}/pages`;
    await page(pages, {
      name: 'Shop intro',
      type: 'MARKDOWN',
      content: '# Welcome to the Shop API\n\nEverything you need to sell online.',
      published: true,
      homepage: true,
    });
    const guides = await page(pages, { name: 'Guides', type: 'FOLDER', published: true });
    await page(pages, {
      name: 'Payments',
      type: 'MARKDOWN',
      content: PAYLOAD,
      published: true,
      parentId: guides,
    });
    await page(pages, {
      name: 'Getting started',
      type: 'MARKDOWN',
      content: '# Getting started\n\nAsk for a key.',
      published: true,
    });
    await page(pages, {
      name: 'Reference',
      type: 'SWAGGER',
      content: OPENAPI,
      published: true,
      configuration: { docExpansion: 'list', tryIt: 'true', tryItAnonymous: 'true' },
    });
    await page(pages, { name: 'Draft notes', type: 'MARKDOWN', content: '# Draft' });
    await page(`apis/${secret}/pages`, {
      name: 'Secret plans',
      type: 'MARKDOWN',
      content: '# x',
      published: true,
    });

    await page('portal/pages', {
      name: 'Portal welcome',
      type: 'MARKDOWN',
      content: '# Build with our APIs\n\nStart with the **Shop** API.',
      published: true,
      homepage: true,
    });
    await page('portal/pages', {
      name: 'Terms of use',
      type: 'MARKDOWN',
      content: '# Terms\n\nBe nice.',
      published: true,
    });
    await page('portal/pages', { name: 'Legal', type: 'FOLDER', published: true });
    await page('portal/pages', {
      name: 'Privacy',
      type: 'MARKDOWN',
      content: '# Privacy\n\nNo tracking.',
      published: true,
    });
    await page('portal/pages', { name: 'Unpublished', type: 'MARKDOWN', content: '# No' });
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  });

  /** A signed-out visitor on `path`, with the browser dialogs it raised. */
  async function visitorOn(path: string): Promise<{ page: Page; dialogs: string[] }> {
    const context = await newContext(world.browser);
    contexts.push(context);
    const tab = await context.newPage();
    const dialogs: string[] = [];
    tab.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await tab.goto(`${world.portico.webUrl}${path}`);
    return { page: tab, dialogs };
  }

  const footerLinks = (tab: Page) =>
    tab.getByRole('navigation', { name: 'Documentation links' }).getByRole('link').allTextContents();

  it('shows the portal homepage page on the home, the root pages in the footer and the portal documentation', async () => {
    const { page: tab } = await visitorOn('/');
    const homepage = main(tab).getByRole('region', { name: 'Introduction' });
    await homepage.getByRole('heading', { name: 'Build with our APIs' }).waitFor();
    expect(await homepage.locator('strong').textContent()).toBe('Shop');
    await expect.poll(() => footerLinks(tab)).toEqual(['Terms of use', 'Privacy']);
    await screenshot(tab, 'portal-home-homepage');
    expect(await seriousA11yViolations(tab)).toEqual([]);

    await tab
      .getByRole('navigation', { name: 'Documentation links' })
      .getByRole('link', { name: 'Privacy' })
      .click();
    await tab.waitForURL(`**/pages/${pageIds.Privacy}`);
    await main(tab).getByRole('heading', { name: 'Privacy', level: 1 }).waitFor();
    const tree = main(tab).getByRole('navigation', { name: 'Documentation pages' });
    expect(await tree.getByRole('link').allTextContents()).toEqual(['Terms of use', 'Privacy']);
    expect(await tree.getByRole('button').allTextContents()).toEqual(['Legal']);
    await screenshot(tab, 'portal-pages-privacy');

    // /pages selects the first root page that is not a folder.
    await tab.goto(`${world.portico.webUrl}/pages`);
    await tab.waitForURL(`**/pages/${pageIds['Terms of use']}`);
    await main(tab).getByText('Be nice.').waitFor();
    expect(await seriousA11yViolations(tab)).toEqual([]);
  });

  it('shows the API header, navigation, homepage page and published plans to a visitor', async () => {
    const { page: tab } = await visitorOn(`/apis/${shop}`);
    await tab.waitForURL(`**/apis/${shop}/detail`);
    await main(tab).getByRole('heading', { name: 'Shop', exact: true, level: 1 }).waitFor();
    await main(tab).getByText('Orders, carts and payments of the shop').waitFor();
    const entrypoint = main(tab).getByText('https://eu.shop.example/shop');
    await entrypoint.waitFor();
    await entrypoint.locator('xpath=..').getByText('europe').waitFor();
    await main(tab).getByRole('list', { name: 'Views' }).getByText('Commerce').waitFor();
    // The portal headers, in their order, without api.endpoint.
    const facts = main(tab).locator('dl');
    await expect
      .poll(() => facts.locator('dt').allTextContents())
      .toEqual(['Version', 'Owner', 'Created', 'Updated', 'Support hours']);
    expect(await facts.locator('dd').allTextContents()).toEqual(
      expect.arrayContaining(['1.0', 'Weekdays 9:00-17:00']),
    );
    expect(await main(tab).getByText('backend.internal').count()).toBe(0);
    const nav = main(tab).getByRole('navigation', { name: 'API sections' });
    // Support is enabled by default.
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Overview', 'Documentation', 'Support']);
    expect(await nav.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    // Signed out: no Subscribe link (portal-and-platform.md 6); no rating without ratings.
    expect(
      await main(tab)
        .getByRole('link', { name: /Subscribe/ })
        .count(),
    ).toBe(0);
    expect(await main(tab).getByRole('slider').count()).toBe(0);
    // The API is PUBLIC: anybody may read its ratings, so the count links to them.
    await main(tab).getByRole('link', { name: '0 ratings' }).waitFor();

    await main(tab).getByRole('heading', { name: 'Welcome to the Shop API' }).waitFor();
    const plans = main(tab).getByRole('article');
    await expect.poll(() => plans.getByRole('heading').allTextContents()).toEqual(['Gold', 'Free']);
    const gold = main(tab).getByRole('article', { name: 'Gold' });
    expect(await gold.getByRole('listitem').allTextContents()).toEqual(
      ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map((c) => `Gold ${c}`),
    );
    await gold.getByText('API key').waitFor();
    await main(tab).getByRole('article', { name: 'Free' }).getByText('Keyless (public)').waitFor();
    await screenshot(tab, 'portal-api-overview');
    expect(await seriousA11yViolations(tab)).toEqual([]);

    // The navigation sticks under the top bar on scroll, with the API's name.
    await tab.setViewportSize({ width: 1280, height: 400 });
    await tab.mouse.wheel(0, 600);
    await expect.poll(async () => Math.round((await nav.boundingBox())?.y ?? -1)).toBeLessThan(130);
    await expect
      .poll(() => main(tab).locator('[data-stuck]').getByText('Shop', { exact: true }).count())
      .toBe(1);
    await settle(tab);
    // What the visitor sees (a full-page picture would not show the sticky parts where they stick).
    await tab.screenshot({ path: path.join(RESULTS_DIR, 'portal-api-sticky.png') });
  });

  it('shows the documentation tree with its first root page, and a Markdown page whose scripts do not run', async () => {
    const { page: tab, dialogs } = await visitorOn(`/apis/${shop}/detail`);
    await main(tab)
      .getByRole('navigation', { name: 'API sections' })
      .getByRole('link', { name: 'Documentation' })
      .click();
    await tab.waitForURL(`**/apis/${shop}/pages/${pageIds['Getting started']}`);
    await main(tab).getByText('Ask for a key.').waitFor();
    const tree = main(tab).getByRole('navigation', { name: 'Documentation pages' });
    // The homepage and the unpublished page are not in the tree; the folder is closed.
    expect(await tree.getByRole('link').allTextContents()).toEqual(['Getting started', 'Reference']);
    await screenshot(tab, 'portal-api-pages');

    await tree.getByRole('button', { name: 'Guides' }).click();
    await tree.getByRole('link', { name: 'Payments' }).click();
    await tab.waitForURL(`**/pages/${pageIds.Payments}`);
    await main(tab).getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    const toc = main(tab).getByRole('navigation', { name: 'On this page' });
    expect(await toc.getByRole('link').allTextContents()).toEqual(['Cards', 'Refunds']);
    await settle(tab);
    expect(dialogs).toEqual([]);
    expect(await tab.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await main(tab).locator('script, [onerror], a[href^="javascript:"]').count()).toBe(0);
    await screenshot(tab, 'portal-api-pages-payload');
    expect(await seriousA11yViolations(tab)).toEqual([]);

    // An OpenAPI page through swagger-ui.
    await tree.getByRole('link', { name: 'Reference' }).click();
    await main(tab).getByText('List the orders').waitFor();
    // Try-it goes through the gateway's entrypoint for the API (anonymous readers: tryItAnonymous).
    await main(tab).getByText('Try it through the gateway').waitFor();
    await expect(
      main(tab)
        .getByText(/^Calls go to .*\/shop\.$/)
        .count(),
    ).resolves.toBe(1);
    await screenshot(tab, 'portal-api-pages-openapi');

    // A page of another reference, or a hidden one, reads as not found.
    await tab.goto(`${world.portico.webUrl}/apis/${shop}/pages/${pageIds['Draft notes']}`);
    await main(tab).getByText('Page not found').waitFor();
  });

  it('shows a private API as not found to a visitor, without sending them to sign in; its members see it', async () => {
    const { page: tab } = await visitorOn(`/apis/${secret}/detail`);
    await main(tab).getByRole('heading', { name: 'API not found' }).waitFor();
    expect(await main(tab).getByText('Secret').count()).toBe(0);
    // The session-expired redirect would come after 2 s: it does not.
    await tab.waitForTimeout(2500);
    expect(new URL(tab.url()).pathname).toBe(`/apis/${secret}/detail`);
    expect(await tab.getByRole('alert').filter({ hasText: 'Session expired' }).count()).toBe(0);
    await screenshot(tab, 'portal-api-not-found');
    expect(await seriousA11yViolations(tab)).toEqual([]);
    await tab.goto(`${world.portico.webUrl}/apis/${secret}/pages`);
    await main(tab).getByRole('heading', { name: 'API not found' }).waitFor();

    await main(tab).getByRole('link', { name: 'Sign in' }).click();
    await tab.waitForURL(/\/login\?redirectUri=/);

    const admin = await adminOn(`/apis/${secret}/pages`);
    await admin.waitForURL(`**/apis/${secret}/pages/${pageIds['Secret plans']}`);
    await main(admin).getByRole('heading', { name: 'Secret', exact: true, level: 1 }).waitFor();
  });

  it("links a private API's ratings only for its members who may read them (api-rating-r)", async () => {
    await api('POST', `apis/${secret}/ratings`, { rate: 5, title: 'Great', comment: 'Keeps our secrets.' });
    const { name: role } = await api<{ name: string }>('POST', 'configuration/rolescopes/API/roles', {
      name: 'READER',
      permissions: { DEFINITION: ['R'] },
    });
    const members = { reader: role, rater: 'USER' };
    const tabs: Record<string, Page> = {};
    for (const [who, memberRole] of Object.entries(members)) {
      const email = `${who}@partners.test`;
      const { id } = await createActiveUser(world.portico, world.token, world.sink, {
        ...{ firstname: who, lastname: 'Member', email, password: 'Sup3r-secret!' },
      });
      await api('POST', `apis/${secret}/members`, { id, role: memberRole });
      const { page: tab } = await visitorOn(
        `/login?redirectUri=${encodeURIComponent(`/apis/${secret}/detail`)}`,
      );
      await signInOnPage(tab, email, 'Sup3r-secret!');
      await tab.waitForURL(`**/apis/${secret}/detail`);
      tabs[who] = tab;
    }
    const header = (tab: Page) =>
      main(tab).getByRole('img', { name: 'Rated 5 out of 5' }).locator('xpath=..');

    // The USER role rates (RATING CRU): the count opens the ratings.
    await header(tabs.rater!).getByRole('link', { name: '1 rating' }).click();
    await tabs.rater!.waitForURL(`**/apis/${secret}/ratings`);
    await main(tabs.rater!).getByText('Keeps our secrets.').waitFor();

    // Without api-rating-r the stars stay, but the count is no link (the ratings would answer 403).
    const reader = tabs.reader!;
    await header(reader).getByText('1 rating').waitFor();
    await reader.waitForLoadState('networkidle');
    expect(await header(reader).getByRole('link').count()).toBe(0);
    await screenshot(reader, 'portal-api-ratings-not-readable');
    expect(await seriousA11yViolations(reader)).toEqual([]);
  });
});
