import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/browser';
import type { Portico } from './support/portico';
import { adminToken, startPortico } from './support/portico';
import {
  adminPage,
  checkPageAfterEach,
  createApis,
  inLanguage,
  managementCalls,
  settingsScreen,
} from './support/settings-world';

interface ViewJson {
  id: string;
  name: string;
  order: number;
  defaultView: boolean;
  hidden: boolean;
  highlightApi: string | null;
  totalApis: number;
}

/**
 * Settings > Views, Tenants and Sharding Tags (console-applications-and-settings.md 2.3): each screen
 * creates, edits, reorders and deletes through the real product, shows its rules, and is looked at in
 * English and in French (metadata, top APIs and portal headers: settings-portal-catalogue.test.ts).
 */
describe('settings: views, tenants and sharding tags', () => {
  let portico: Portico;
  let browser: Browser;
  let page: Page;
  let token = '';
  const apiIds: Record<string, string> = {};
  const errors: string[] = [];
  const call = managementCalls(
    {
      get apiUrl() {
        return portico.apiUrl;
      },
    } as Portico,
    () => token,
  );
  const { main, open, shown, toast, looked } = settingsScreen(
    () => page,
    () => portico,
  );

  beforeAll(async () => {
    [portico, browser] = await Promise.all([startPortico(), launchChromium()]);
    token = await adminToken(portico);
    Object.assign(
      apiIds,
      await createApis(call, [
        ['Payments', '/payments'],
        ['Weather', '/weather'],
        ['Maps', '/maps'],
      ]),
    );
    page = await adminPage(browser, portico, errors);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await portico?.stop();
  });
  checkPageAfterEach(() => page, errors, 'settings-portal');

  it('creates a view with attached and highlighted APIs, then orders, hides, defaults and deletes views', async () => {
    await open('views');
    await main().getByRole('link', { name: 'All', exact: true }).waitFor();
    expect(await main().getByRole('button', { name: 'Delete the view All' }).count()).toBe(0);
    await main().getByRole('link', { name: 'Add a view' }).click();
    await shown(/\/settings\/views\/new$/, 'New view');
    const create = main().getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    await main().getByRole('textbox', { name: 'Name' }).fill('n'.repeat(51));
    await main().getByText('The name has to be less than 50 characters long.').waitFor();
    expect(await create.isDisabled()).toBe(true);
    await main().getByRole('textbox', { name: 'Name' }).fill('');
    await main().getByText('View name is required.').waitFor();
    await main().getByRole('textbox', { name: 'Name' }).fill('Finance');
    await main().getByRole('textbox', { name: 'Description' }).fill('Money matters');
    for (const name of ['Pay', 'Weat']) {
      await main().getByLabel('Attach an API').fill(name);
      await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
    }
    await main().getByRole('checkbox', { name: 'Highlight Weather' }).check();
    await main().getByRole('button', { name: 'Detach Weather' }).click();
    await main().getByRole('checkbox', { name: 'Highlight Payments' }).check();
    await main().getByLabel('Attach an API').fill('Nothing like it');
    await page.getByText('No API matching "Nothing like it" were found.').waitFor();
    await main().getByLabel('Attach an API').fill('');
    await page.keyboard.press('Tab');
    await looked('settings-view-form-en');
    await create.click();
    await shown(/\/settings\/views\/finance$/, 'Finance');
    await toast('View Finance created');
    // Saving attached the API: it carries the view, the view highlights it.
    await expect
      .poll(async () => (await call<{ views: string[] }>('GET', `apis/${apiIds.Payments}`)).views)
      .toEqual(['finance']);
    expect((await call<ViewJson>('GET', 'configuration/views/finance')).highlightApi).toBe(apiIds.Payments);
    await main().getByText('APIs in this view: 1').waitFor();

    // Detaching on the form takes the view off the API once saved.
    await main().getByRole('button', { name: 'Detach Payments' }).click();
    await main().getByRole('button', { name: 'Save' }).click();
    await toast('View Finance saved');
    await expect
      .poll(async () => (await call<{ views: string[] }>('GET', `apis/${apiIds.Payments}`)).views)
      .toEqual([]);

    await call('POST', 'configuration/views', { name: 'Partners' });
    await open('views');
    const views = async () =>
      (await call<ViewJson[]>('GET', 'configuration/views?all=true')).map((v) => [
        v.id,
        v.order,
        v.defaultView,
        v.hidden,
      ]);
    await main().getByRole('button', { name: 'Move Partners up' }).click();
    await toast('Order of the views saved');
    await expect.poll(async () => (await views()).map((v) => v[0])).toEqual(['all', 'partners', 'finance']);
    expect(await main().getByRole('button', { name: 'Move All up' }).isDisabled()).toBe(true);
    await main().getByRole('checkbox', { name: 'Default view: Finance' }).click();
    await toast('Default view saved');
    // By keyboard: the switch of a row is reachable and toggled with Space.
    await main().getByRole('switch', { name: 'Partners is visible in the portal' }).focus();
    await page.keyboard.press('Space');
    await toast('View Partners saved');
    await expect.poll(views).toEqual([
      ['all', 0, false, false],
      ['partners', 1, false, true],
      ['finance', 2, true, false],
    ]);
    await main().getByText('Hidden', { exact: true }).waitFor();
    await main().getByRole('switch', { name: 'Enable view mode' }).click();
    await toast('View mode is now enabled');
    const portal = await call<{ portal: { apis: { viewMode: { enabled: boolean } } } }>('GET', 'portal');
    expect(portal.portal.apis.viewMode.enabled).toBe(true);
    await looked('settings-views-en');

    await main().getByRole('button', { name: 'Delete the view Partners' }).click();
    await page.getByRole('dialog', { name: 'Delete a view' }).getByRole('button', { name: 'Delete' }).click();
    await toast('View Partners deleted');
    await expect.poll(async () => (await views()).map((v) => v[0])).toEqual(['all', 'finance']);
  });

  it('edits tenants in place, refuses long and duplicate names, sorts, saves and resets', async () => {
    await open('tenants');
    await main().getByText('No tenant yet').waitFor();
    for (const [name, description] of [
      ['Europe', 'Frankfurt and Paris'],
      ['Asia', 'Singapore'],
    ]) {
      await main().getByRole('button', { name: 'New tenant' }).click();
      await main().getByRole('button', { name: 'Edit the Name of New tenant' }).last().click();
      await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill(name!);
      await page.keyboard.press('Enter');
      await main()
        .getByRole('button', { name: `Edit the Description of ${name}` })
        .click();
      await page.getByRole('dialog').getByRole('textbox', { name: 'Description' }).fill(description!);
      await page.keyboard.press('Enter');
    }
    const save = main().getByRole('button', { name: 'Save' });
    await main().getByRole('button', { name: 'Edit the Name of Asia' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('x'.repeat(31));
    await page.getByText('The name has to be less than 30 characters long.').first().waitFor();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('europe');
    await page.getByText('Another tenant has this name.').first().waitFor();
    expect(await save.isDisabled()).toBe(true);
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('Asia');
    await page.keyboard.press('Enter');
    await save.click();
    await toast('Tenants saved');
    const tenants = () =>
      call<{ id: string; name: string; description: string | null }[]>('GET', 'configuration/tenants');
    expect((await tenants()).map((t) => [t.id, t.name, t.description]).sort()).toEqual([
      ['asia', 'Asia', 'Singapore'],
      ['europe', 'Europe', 'Frankfurt and Paris'],
    ]);
    const names = () => main().locator('tbody tr td:nth-child(2)').allInnerTexts();
    await expect.poll(names).toEqual(['Asia', 'Europe']);
    await main().getByRole('button', { name: 'Name', exact: true }).click();
    await expect.poll(names).toEqual(['Europe', 'Asia']);
    await looked('settings-tenants-en');

    // Reset drops what was not saved; a removed tenant is deleted on Save.
    await main().getByRole('button', { name: 'Remove Asia' }).click();
    await main().getByRole('button', { name: 'Reset' }).click();
    await expect.poll(async () => (await names()).length).toBe(2);
    await main().getByRole('button', { name: 'Remove Asia' }).click();
    await save.click();
    await toast('Tenants saved');
    expect((await tenants()).map((t) => t.id)).toEqual(['europe']);
  });

  it('creates, edits and deletes sharding tags and entrypoint mappings, and saves the default entrypoint', async () => {
    await open('tags');
    await main().getByText('There is no sharding tag to manage').waitFor();
    expect(await main().getByRole('link', { name: 'Add a mapping' }).count()).toBe(0);
    for (const [name, description] of [
      ['Internal', 'Gateways of the private network'],
      ['Public', ''],
    ]) {
      await main().getByRole('link', { name: 'Add a tag' }).click();
      await shown(/\/settings\/tags\/new$/, 'New sharding tag');
      const create = main().getByRole('button', { name: 'Create' });
      expect(await create.isDisabled()).toBe(true);
      await main().getByRole('textbox', { name: 'Name' }).fill('t'.repeat(65));
      await main().getByText('The name has to be less than 64 characters long.').waitFor();
      expect(await create.isDisabled()).toBe(true);
      await main().getByRole('textbox', { name: 'Name' }).fill(name!);
      await main().getByRole('textbox', { name: 'Description' }).fill(description!);
      await create.click();
      await shown(/\/settings\/tags$/, 'Sharding tags');
      await toast(`Sharding tag ${name} created`);
    }
    await main().getByRole('button', { name: 'Copy the ID internal to the clipboard' }).waitFor();
    await main().getByRole('link', { name: 'Public' }).click();
    await shown(/\/settings\/tags\/public$/, 'Public');
    await main().getByRole('textbox', { name: 'Description' }).fill('Internet-facing gateways');
    await main().getByRole('button', { name: 'Save' }).click();
    await toast('Sharding tag Public saved');
    expect(await call('GET', 'configuration/tags/public')).toEqual({
      id: 'public',
      name: 'Public',
      description: 'Internet-facing gateways',
      restricted_groups: [],
    });

    // The default configuration: the portal's entrypoint.
    const entrypoint = main().getByRole('textbox', { name: 'Default entrypoint' });
    await entrypoint.fill('not a url');
    await main().getByText('The entrypoint must be an http(s) URL.').waitFor();
    await entrypoint.fill('https://api.example.com');
    await main().getByRole('button', { name: 'Save' }).click();
    await toast('Default entrypoint saved');
    expect((await call<{ portal: { entrypoint: string } }>('GET', 'portal')).portal.entrypoint).toBe(
      'https://api.example.com',
    );

    await main().getByRole('link', { name: 'Add a mapping' }).click();
    // The address changes before the new screen is drawn: until its heading shows, the tags list (and
    // its "Default entrypoint" field, with the same message) is still the page. Names match exactly.
    await shown(/\/settings\/tags\/entrypoint\/new$/, 'New entrypoint mapping');
    const mappingValue = main().getByRole('textbox', { name: 'Entrypoint', exact: true });
    await mappingValue.fill('ftp://internal');
    await main().getByText('The entrypoint must be an http(s) URL.').waitFor();
    await mappingValue.fill('https://internal.example.com');
    const create = main().getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    // Chosen by the keyboard: the dropdown opens under the toasts of the steps before.
    await main().getByLabel('Sharding tags').fill('Inter');
    await page.getByRole('option', { name: 'Internal' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect.poll(() => create.isEnabled()).toBe(true);
    await looked('settings-entrypoint-form-en');
    await main().getByRole('button', { name: 'Create' }).click();
    await toast('Entrypoint https://internal.example.com saved');
    const [mapping] = await call<{ id: string; value: string; tags: string[] }[]>('GET', 'entrypoints');
    expect(mapping).toMatchObject({ value: 'https://internal.example.com', tags: ['internal'] });
    await main().getByRole('cell', { name: 'https://internal.example.com', exact: true }).waitFor();
    await looked('settings-tags-en');

    await main().getByRole('link', { name: 'Edit the entrypoint https://internal.example.com' }).click();
    await shown(/\/settings\/tags\/entrypoint\/[^/]+$/, 'Entrypoint mapping');
    // The form takes the stored value once loaded: edit after that, or the load would undo the edit.
    await expect.poll(() => mappingValue.inputValue()).toBe('https://internal.example.com');
    await mappingValue.fill('https://private.example.com');
    await main().getByRole('button', { name: 'Save' }).click();
    await toast('Entrypoint https://private.example.com saved');
    await main().getByRole('button', { name: 'Delete the entrypoint https://private.example.com' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await toast('Entrypoint https://private.example.com deleted');
    await main().getByText('No entrypoint mapping').waitFor();
    await main().getByRole('button', { name: 'Delete the tag Public' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await toast('Sharding tag Public deleted');
    expect((await call<{ id: string }[]>('GET', 'configuration/tags')).map((t) => t.id)).toEqual([
      'internal',
    ]);
  });

  it('shows views, tenants and sharding tags in French', async () => {
    await open('views');
    await inLanguage(page, 'fr');
    for (const [path, heading, name] of [
      ['views', 'Vues', 'settings-views-fr'],
      ['views/finance', 'Finance', 'settings-view-form-fr'],
      ['tenants', 'Tenants', 'settings-tenants-fr'],
      ['tags', 'Tags de sharding', 'settings-tags-fr'],
    ] as const) {
      await open(path);
      await main().getByRole('heading', { name: heading, exact: true }).waitFor();
      await looked(name);
    }
    await inLanguage(page, 'en');
  });
});
