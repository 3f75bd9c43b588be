import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { newContext, screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { createActiveUser } from './support/portico';

interface Page {
  id: string;
  name: string;
  order: number;
  published: boolean;
  parentId: string | null;
}

/** A Markdown page that tries every usual way to run a script in the reader's browser. */
const PAYLOAD = [
  '# Welcome',
  '',
  'Read this first.',
  '',
  '## Install',
  '',
  '<script>window.__pwned = "script"</script>',
  '',
  '<img src="x" onerror="window.__pwned = \'img\'; alert(1)">',
  '',
  '## Call the API',
  '',
  '[a link](javascript:alert(1)) and | a | table |',
  '',
  '| col | val |',
  '| --- | --- |',
  '| one | 1 |',
].join('\n');

/**
 * The documentation of an API in the console (console-apis.md 2.8), in a real browser against
 * `portico start`: a folder and a Markdown page created, published, reordered, moved and viewed; a page
 * carrying script payloads renders without running any of them.
 */
describe('API documentation pages in the console', () => {
  // A local source for the fetched pages (the outbound-URL guard lets loopback through only when told).
  let served = '# Fetched\n\n## First version';
  const source = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/markdown' }).end(served),
  );
  let sourceUrl = '';
  const allowPrivate = process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE;
  beforeAll(async () => {
    process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE = 'true';
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/README.md`;
  });
  afterAll(async () => {
    if (allowPrivate === undefined) delete process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE;
    else process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE = allowPrivate;
    await new Promise((resolve) => source.close(resolve));
  });
  const { world, api, createApi, adminOn, toast, main, dialog, inLanguage } = consoleSuite();

  it('creates a folder and a Markdown page, publishes, reorders, moves and views them safely', async () => {
    const { id: apiId } = await createApi('Docs', '/docs-api');
    const page = await adminOn(`/management/apis/${apiId}/documentation`);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await main(page).getByText('No page here yet').waitFor();

    // A folder: the list stays where it is.
    await main(page).getByRole('button', { name: 'New page' }).click();
    await page.getByRole('menuitem', { name: 'Folder' }).click();
    const save = dialog(page).getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    await dialog(page).getByRole('textbox', { name: 'Name' }).fill('Guides');
    await save.click();
    await toast(page, 'Folder Guides created').waitFor();

    // A Markdown page goes to its edit screen, then is saved.
    await main(page).getByRole('button', { name: 'New page' }).click();
    await page.getByRole('menuitem', { name: 'Markdown' }).click();
    await page.waitForURL(/documentation\/new\?type=MARKDOWN/);
    await main(page).getByRole('textbox', { name: 'Name' }).fill('Getting started');
    await main(page).getByRole('textbox', { name: 'Content (Markdown)' }).fill(PAYLOAD);
    await main(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Page Getting started created').waitFor();
    await page.waitForURL(/documentation\/[^/]+\/edit/);
    await screenshot(page, 'api-pages-edit');
    await api('POST', `apis/${apiId}/pages`, { name: 'Reference', type: 'MARKDOWN', content: '# Ref' });

    // The list: drafts in italic, no up arrow on the first row, no down arrow on the last.
    await page.goto(page.url().replace(/\/[^/]+\/edit.*$/, ''));
    const names = () => main(page).locator('tbody tr td:first-child a').allTextContents();
    await expect.poll(names).toEqual(['Guides', 'Getting started', 'Reference']);
    const link = (name: string) => main(page).getByRole('link', { name, exact: true });
    expect(await link('Reference').evaluate((a) => getComputedStyle(a).fontStyle)).toBe('italic');
    expect(await main(page).getByRole('button', { name: 'Move Guides up' }).count()).toBe(0);
    expect(await main(page).getByRole('button', { name: 'Move Reference down' }).count()).toBe(0);

    await main(page).getByRole('switch', { name: 'Publish Getting started' }).click();
    await toast(page, 'Getting started is published').waitFor();
    await expect
      .poll(() => link('Getting started').evaluate((a) => getComputedStyle(a).fontStyle))
      .toBe('normal');

    await main(page).getByRole('button', { name: 'Move Reference up' }).click();
    await expect.poll(names).toEqual(['Guides', 'Reference', 'Getting started']);
    const stored = async () =>
      (await api<Page[]>('GET', `apis/${apiId}/pages?root=true`)).sort((a, b) => a.order - b.order);
    expect((await stored()).map((p) => p.name)).toEqual(['Guides', 'Reference', 'Getting started']);
    expect((await stored()).find((p) => p.name === 'Getting started')?.published).toBe(true);
    await screenshot(page, 'api-pages-list');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Moved into the folder, shown under the breadcrumb ~ / Guides.
    await main(page).getByRole('button', { name: 'Move Reference to a folder' }).click();
    await dialog(page).getByRole('combobox', { name: 'Folder' }).click();
    await dialog(page).getByRole('option', { name: '~ / Guides' }).click();
    await dialog(page).getByRole('button', { name: 'Move' }).click();
    await toast(page, 'Reference moved').waitFor();
    await link('Guides').click();
    await main(page).getByRole('navigation', { name: 'Folders' }).getByText('Guides').waitFor();
    await expect.poll(names).toEqual(['Reference']);
    const guides = (await stored()).find((p) => p.name === 'Guides')!;
    expect((await api<Page[]>('GET', `apis/${apiId}/pages?parent=${guides.id}`)).map((p) => p.name)).toEqual([
      'Reference',
    ]);
    await screenshot(page, 'api-pages-folder');

    // The viewer: rendered Markdown with its level-2 headings, and no script of the page ran.
    await main(page).getByRole('link', { name: '~' }).click();
    await link('Getting started').click();
    await main(page).getByRole('heading', { name: 'Welcome' }).waitFor();
    const toc = main(page).getByRole('navigation', { name: 'On this page' });
    expect(await toc.getByRole('link').allTextContents()).toEqual(['Install', 'Call the API']);
    expect(await main(page).getByRole('table').count()).toBe(1);
    await settle(page);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await main(page).locator('script, [onerror], a[href^="javascript:"]').count()).toBe(0);
    expect(await main(page).getByText('This page is not published').count()).toBe(0);
    await screenshot(page, 'api-pages-view');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // In French.
    await inLanguage(page, 'fr');
    await main(page).getByRole('navigation', { name: 'Sur cette page' }).waitFor();
    await main(page).getByRole('link', { name: 'Modifier' }).waitFor();
    expect(dialogs).toEqual([]);
    await screenshot(page, 'api-pages-view-fr');
    await main(page).getByRole('link', { name: 'Retour à la liste' }).click();
    await main(page).getByRole('columnheader', { name: 'Publiée' }).waitFor();
    await screenshot(page, 'api-pages-list-fr');
  });

  it('shows a draft with the unpublished banner', async () => {
    const { id: apiId } = await createApi('Drafts', '/drafts-api');
    const draft = await api<Page>('POST', `apis/${apiId}/pages`, {
      name: 'Draft',
      type: 'MARKDOWN',
      content: '## Soon',
    });
    const page = await adminOn(`/management/apis/${apiId}/documentation/${draft.id}`);
    await main(page).getByText('This page is not published').waitFor();
    await main(page).getByRole('heading', { name: 'Soon' }).waitFor();
  });

  it('renders an OpenAPI page with swagger-ui and its configuration, running none of its scripts', async () => {
    const { id: apiId } = await createApi('Pets', '/pets-api');
    const spec = {
      openapi: '3.0.3',
      info: {
        title: 'Pet store',
        version: '2.1',
        description:
          'Pets. <script>window.__pwned = "script"</script><img src="x" onerror="window.__pwned = \'img\'">',
      },
      paths: {
        '/pets': {
          get: {
            operationId: 'listPets',
            summary: 'List the pets',
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const openapi = await api<Page>('POST', `apis/${apiId}/pages`, {
      name: 'Reference',
      type: 'SWAGGER',
      published: true,
      content: JSON.stringify(spec),
      configuration: { tryIt: 'true', displayOperationId: 'true', docExpansion: 'list' },
    });
    const page = await adminOn(`/management/apis/${apiId}/documentation/${openapi.id}`);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await main(page)
      .getByRole('heading', { name: /Pet store/ })
      .waitFor();
    // docExpansion list: the operation is listed, with its id (displayOperationId) and Try it out (tryIt).
    await main(page).getByText('List the pets').waitFor();
    await main(page).getByText('listPets').waitFor();
    await main(page).getByText('List the pets').click();
    await main(page).getByRole('button', { name: 'Try it out' }).waitFor();
    await settle(page);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await main(page).locator('[onerror], .info script').count()).toBe(0);
    await screenshot(page, 'api-pages-openapi');
  });

  it('is read-only for a member without api-documentation-u', async () => {
    const { id: apiId } = await createApi('Readers', '/readers-api');
    const guide = await api<Page>('POST', `apis/${apiId}/pages`, {
      name: 'Guide',
      type: 'MARKDOWN',
      published: true,
      content: '## Start',
    });
    await api('POST', `apis/${apiId}/pages`, { name: 'Second', type: 'MARKDOWN', published: true });
    const member = await createActiveUser(world.portico, world.token, world.sink, {
      firstname: 'Rita',
      lastname: 'Reader',
      email: 'rita@example.com',
      password: 'reader-pass',
    });
    await api('POST', `apis/${apiId}/members`, { id: member.id, role: 'USER' });
    const context = await newContext(world.browser);
    const page = await context.newPage();
    const path = `/management/apis/${apiId}/documentation`;
    await page.goto(`${world.portico.webUrl}/login?redirectUri=${encodeURIComponent(path)}`);
    await signInOnPage(page, 'rita@example.com', 'reader-pass');
    await page.waitForURL(`${world.portico.webUrl}${path}`);
    await main(page).getByRole('link', { name: 'Guide', exact: true }).waitFor();
    expect(await main(page).getByRole('button', { name: 'New page' }).count()).toBe(0);
    expect(await main(page).getByRole('switch', { name: 'Publish Guide' }).isDisabled()).toBe(true);
    expect(
      await main(page)
        .getByRole('button', { name: /^(Move|Remove|Rename)/ })
        .count(),
    ).toBe(0);

    await page.goto(`${world.portico.webUrl}${path}/${guide.id}/edit`);
    await main(page).getByText('You may read this page but not change it.').waitFor();
    expect(await main(page).getByRole('textbox', { name: 'Name' }).getAttribute('readonly')).not.toBeNull();
    expect(await main(page).getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await main(page).getByRole('button', { name: 'Rename' }).count()).toBe(0);
    await context.close();
  });

  it('fetches a page from its external source, whose content is then read-only', async () => {
    const { id: apiId } = await createApi('Fetched', '/fetched-api');
    const fetched = await api<Page & { content: string }>('POST', `apis/${apiId}/pages`, {
      name: 'Readme',
      type: 'MARKDOWN',
      source: { type: 'http-fetcher', configuration: { url: sourceUrl } },
    });
    expect(fetched.content).toContain('First version');
    served = '# Fetched\n\n## Second version';
    const page = await adminOn(`/management/apis/${apiId}/documentation/${fetched.id}/edit`);
    const content = main(page).getByRole('textbox', { name: 'Content (Markdown)' });
    await main(page).getByText('The content comes from the external source').waitFor();
    expect(await content.getAttribute('readonly')).not.toBeNull();
    await main(page).getByRole('button', { name: 'Fetch', exact: true }).click();
    await toast(page, 'Pages fetched from their sources').waitFor();
    await expect.poll(() => content.inputValue()).toContain('Second version');
    await main(page).getByRole('tab', { name: 'External Source' }).click();
    expect(await main(page).getByRole('textbox', { name: 'Url' }).inputValue()).toBe(sourceUrl);
    await screenshot(page, 'api-pages-source');

    served = '# Fetched\n\n## Third version';
    await page.goto(page.url().replace(/\/[^/]+\/edit.*$/, ''));
    await main(page).getByRole('button', { name: 'Fetch all' }).click();
    await toast(page, 'Pages fetched from their sources').waitFor();
    await expect
      .poll(async () => (await api<{ content: string }>('GET', `apis/${apiId}/pages/${fetched.id}`)).content)
      .toContain('Third version');
  });

  it('creates the one root page of the documentation from New page, offered at the root only', async () => {
    const { id: apiId } = await createApi('Handbook', '/handbook-api');
    const page = await adminOn(`/management/apis/${apiId}/documentation`);
    await main(page).getByText('No page here yet').waitFor();
    await main(page).getByRole('button', { name: 'New page' }).click();
    await page.getByRole('menuitem', { name: 'Root', exact: true }).click();
    await dialog(page).getByText('The root page holds pages as a folder does.', { exact: false }).waitFor();
    await dialog(page).getByRole('textbox', { name: 'Name' }).fill('Handbook');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Root page Handbook created').waitFor();
    await main(page).getByRole('link', { name: 'Handbook', exact: true }).waitFor();
    expect((await api<(Page & { type: string })[]>('GET', `apis/${apiId}/pages`)).map((p) => p.type)).toEqual(
      ['ROOT'],
    );

    // One at most: the menu shows it disabled, saying why.
    await main(page).getByRole('button', { name: 'New page' }).click();
    const root = page.getByRole('menuitem', { name: /^Root/ });
    await root.getByText('This documentation has its root page already').waitFor();
    expect(await root.isDisabled()).toBe(true);
    await screenshot(page, 'api-pages-root');
    await page.keyboard.press('Escape');

    // Inside a folder (the root page holds pages as a folder does) no root page is offered.
    await main(page).getByRole('link', { name: 'Handbook', exact: true }).click();
    await main(page).getByRole('navigation', { name: 'Folders' }).getByText('Handbook').waitFor();
    await main(page).getByRole('button', { name: 'New page' }).click();
    await page.getByRole('menuitem', { name: 'Folder' }).waitFor();
    expect(await page.getByRole('menuitem', { name: /^Root/ }).count()).toBe(0);
  });
});
