import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { settle } from './app';
import { screenshot } from './browser';
import type { ApiJson, ApisConsole } from './apis-console';
import { PETSTORE, README } from './apis-console';

/** Steps of the console APIs browser test (test/e2e/apis.test.ts), run in its order on one Portico. */

/** shows the empty list, then creates an API through the wizard with a plan and a Markdown page, and starts it */
export async function wizardCreatesAndStarts(c: ApisConsole): Promise<void> {
  const { portico, page, api, apiByName, exported, toast } = c;
  await page.getByText('Hmmm, there is no API for you here :(').waitFor();
  await screenshot(page, 'apis-list-empty');
  await page.getByRole('main').getByRole('link', { name: 'Add API' }).click();
  await page.waitForURL(`${portico.webUrl}/management/apis/new`);
  await page.getByRole('heading', { name: 'Create from scratch' }).waitFor();
  await screenshot(page, 'apis-new');
  await page.getByRole('link', { name: 'Start the wizard' }).click();
  await page.waitForURL(`${portico.webUrl}/management/apis/new/create`);

  // General: the messages of section 5, then the context path checked with the server.
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Name is required.').waitFor();
  await page.getByText('Version is required.').waitFor();
  await page.getByText('Description is required.').waitFor();
  await page.getByText('Context path is required.').waitFor();
  // Later steps stay closed until this one is passed.
  expect(
    await page
      .getByRole('navigation', { name: 'Steps of the creation' })
      .getByRole('button', { name: /Gateway/ })
      .isDisabled(),
  ).toBe(true);
  await page.getByRole('textbox', { name: 'Context path' }).fill('/a');
  await page.getByText('Context path has to be more than 3 characters long').waitFor();
  await page.getByRole('textbox', { name: 'Context path' }).fill('/orders api');
  await page.getByText(/Context path is not valid/).waitFor();
  await page.getByRole('textbox', { name: 'Name' }).fill('Orders');
  await page.getByRole('textbox', { name: 'Version' }).fill('1.0');
  await page.getByRole('textbox', { name: 'Description' }).fill('The orders of the shop');
  await page.getByRole('textbox', { name: 'Context path' }).fill('/orders');
  await screenshot(page, 'apis-wizard-general');
  await page.getByRole('button', { name: 'Next' }).click();

  // Gateway.
  const backend = page.getByRole('textbox', { name: 'Backend URL' });
  await backend.fill('not a url');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Endpoint is not a valid URL.').waitFor();
  await backend.fill('http://127.0.0.1:9/orders');
  await page.getByRole('button', { name: 'Next' }).click();

  // Plan: rate limit fields go together.
  await page.getByRole('textbox', { name: 'Plan name' }).fill('Gold');
  await page.getByRole('textbox', { name: 'Description' }).fill('Ten calls a second');
  await page.getByRole('textbox', { name: 'Max requests' }).first().fill('10');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Limit, period time and unit are required together.').first().waitFor();
  await page.getByRole('textbox', { name: 'Period' }).first().fill('1');
  await page.getByRole('combobox', { name: 'Unit' }).first().click();
  await page.getByRole('option', { name: 'seconds' }).click();
  await page.getByRole('textbox', { name: 'Path pattern' }).fill('/orders/**');
  await screenshot(page, 'apis-wizard-plan');
  await page.getByRole('button', { name: 'Next' }).click();

  // Documentation: only Markdown and OpenAPI files.
  const files = page.locator('input[type=file]');
  await files.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await page.getByText('Only Markdown and OpenAPI file are supported').waitFor();
  await files.setInputFiles({ name: 'README.md', mimeType: 'text/markdown', buffer: Buffer.from(README) });
  await page.getByRole('textbox', { name: 'Page name (README.md)' }).waitFor();
  await page.getByRole('button', { name: 'Next' }).click();

  // Confirmation.
  await page.getByRole('heading', { name: 'Confirmation' }).waitFor();
  expect(await page.getByText('There is no plan').count()).toBe(0);
  await screenshot(page, 'apis-wizard-confirmation');
  await page.getByRole('button', { name: 'Create and start the API' }).click();
  await page.waitForURL(/\/management\/apis\/[^/]+\/portal$/);
  await toast('API Orders created, deployed and started').waitFor();
  await page.getByRole('switch', { name: 'Start or stop Orders' }).waitFor();
  expect(await page.getByRole('switch', { name: 'Start or stop Orders' }).isChecked()).toBe(true);

  const orders = (c.orders = await apiByName('Orders'));
  expect(orders).toMatchObject({
    state: 'STARTED',
    context_path: '/orders',
    description: 'The orders of the shop',
  });
  expect(orders.deployed_at).not.toBeNull();
  const plans = (
    await api<{ name: string; status: string; paths: Record<string, unknown[]> }[]>(`apis/${orders.id}/plans`)
  ).body;
  expect(plans).toHaveLength(1);
  expect(plans[0]).toMatchObject({ name: 'Gold', status: 'PUBLISHED' });
  expect(JSON.stringify(plans[0]!.paths)).toContain('"rate-limit"');
  expect(JSON.stringify(plans[0]!.paths)).toContain('/orders/**');
  const pages = (await exported(orders.id)).pages;
  expect(pages).toMatchObject([{ name: 'README', type: 'MARKDOWN', published: true, content: README }]);
  expect((await api<{ is_synchronized: boolean }>(`apis/${orders.id}/state`)).body.is_synchronized).toBe(
    true,
  );
  await settle(page);
  await screenshot(page, 'apis-general-after-creation');
}

/** creates without deploying: the plan stays in staging and the pages unpublished; skipped steps show */
export async function createsWithoutDeploying(c: ApisConsole): Promise<void> {
  const { page, api, apiByName, exported, toast, go } = c;
  await go('/management/apis/new/create');
  await page.getByRole('textbox', { name: 'Name' }).fill('Invoices');
  await page.getByRole('textbox', { name: 'Version' }).fill('2');
  await page.getByRole('textbox', { name: 'Description' }).fill('Invoices');
  await page.getByRole('textbox', { name: 'Context path' }).fill('/orders/invoices');
  await page.getByRole('button', { name: 'Next' }).click();
  // The server refuses a sub-path of another API: the wizard stays on the first step.
  await page.getByText('The path [/orders/invoices] is already covered by an other API.').waitFor();
  await page.getByRole('textbox', { name: 'Context path' }).fill('/invoices');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Backend URL' }).fill('https://billing.example.com');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Skip', exact: true }).click();
  await page.getByRole('button', { name: 'Skip', exact: true }).click();
  await page.getByText('There is no plan: nobody will be able to subscribe to this API.').waitFor();
  await page.getByText('There is no documentation').waitFor();
  expect(
    await page.getByRole('navigation', { name: 'Steps of the creation' }).getByText('Skipped').count(),
  ).toBe(2);
  await screenshot(page, 'apis-wizard-skipped');

  // Back to the plan from the confirmation's edit link, then forward again.
  await page.getByRole('button', { name: 'Change Plan' }).click();
  await page.getByRole('textbox', { name: 'Plan name' }).fill('Free');
  await page.getByRole('textbox', { name: 'Description' }).fill('For everyone');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Change Documentation' }).click();
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'guide.md', mimeType: 'text/markdown', buffer: Buffer.from('# Guide') });
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Create without deploying' }).click();
  await page.waitForURL(/\/portal$/);
  await toast('API Invoices created').waitFor();
  const invoices = await apiByName('Invoices');
  expect(invoices).toMatchObject({ state: 'STOPPED', deployed_at: null });
  const plans = (await api<{ status: string }[]>(`apis/${invoices.id}/plans`)).body;
  expect(plans.map((p) => p.status)).toEqual(['STAGING']);
  expect((await exported(invoices.id)).pages).toMatchObject([{ name: 'guide', published: false }]);
}

/** imports an OpenAPI 3 YAML file with all the options, and says why other files are refused */
export async function importsOpenApiYaml(c: ApisConsole): Promise<void> {
  const { page, apiByName, exported, toast, go } = c;
  await go('/management/apis/new');
  const file = page.locator('input[type=file]');
  await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await page.getByText('Input file must be a valid API definition file.').waitFor();
  await file.setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ nope'),
  });
  await page.getByText('Invalid json file.').waitFor();
  await file.setInputFiles({
    name: 'petstore.yaml',
    mimeType: 'application/yaml',
    buffer: Buffer.from(PETSTORE),
  });
  await page.getByText('OpenAPI / Swagger').waitFor();
  expect(await page.getByRole('checkbox', { name: 'With mocks' }).count()).toBe(0);
  await page.getByRole('checkbox', { name: 'Create documentation' }).check();
  await page.getByRole('checkbox', { name: 'Create path mappings for analytics' }).check();
  await page.getByRole('checkbox', { name: 'Create policies on paths' }).check();
  await page.getByRole('checkbox', { name: 'With mocks' }).check();
  await screenshot(page, 'apis-import-options');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.waitForURL(/\/portal$/);
  await toast('API Swagger Petstore imported').waitFor();

  const petstore = await apiByName('Swagger Petstore');
  expect(petstore.path_mappings).toEqual(expect.arrayContaining(['/pets', '/pets/:petId']));
  expect(Object.keys(petstore.paths)).toEqual(expect.arrayContaining(['/pets', '/pets/:petId']));
  expect(JSON.stringify(petstore.paths)).toContain('"mock"');
  expect((await exported(petstore.id)).pages).toMatchObject([{ type: 'SWAGGER' }]);
}

/** exports an API to a file named after it, and imports the file back over it */
export async function exportsAndImportsBack(c: ApisConsole): Promise<void> {
  const { page, api, apiByName, toast, go } = c;
  const petstore = await apiByName('Swagger Petstore');
  await go(`/management/apis/${petstore.id}/portal`);
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export the API' });
  await dialog.getByRole('checkbox', { name: 'Members' }).check();
  await dialog.getByRole('radio', { name: '1.15 to 1.16' }).check();
  await dialog.getByText(/some of it is lost in the file/).waitFor();
  await screenshot(page, 'apis-export-dialog');
  await dialog.getByRole('radio', { name: 'Current' }).check();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Swagger-Petstore-1.0.0.json');
  const definition = JSON.parse(await readFile((await file.path())!, 'utf8')) as Record<string, unknown>;
  expect(definition).toMatchObject({ name: 'Swagger Petstore', version: '1.0.0' });
  expect(definition.members).toBeUndefined();

  definition.description = 'Imported back from its export';
  await page.getByRole('button', { name: 'Import' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import over Swagger Petstore' });
  await importDialog.locator('input[type=file]').setInputFiles({
    name: 'Swagger-Petstore-1.0.0.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(definition)),
  });
  await importDialog.getByText('API definition', { exact: true }).waitFor();
  await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
  await toast('Api updated with success').waitFor();
  await expect
    .poll(() => page.getByRole('textbox', { name: 'Description' }).inputValue())
    .toBe('Imported back from its export');
  expect((await api<ApiJson>(`apis/${petstore.id}`)).body.description).toBe('Imported back from its export');
}

/** edits the general settings, shows the out-of-sync banner, deploys, and the banner clears */
export async function editsAndDeploys(c: ApisConsole): Promise<void> {
  const { page, orders, api, toast, go } = c;
  await go(`/management/apis/${orders.id}/portal`);
  const save = page.getByRole('button', { name: 'Save' });
  await page.getByRole('textbox', { name: 'Description' }).waitFor();
  expect(await save.isDisabled()).toBe(true);
  await page.getByRole('textbox', { name: 'Description' }).fill('The orders of the shop, with their lines');
  await page
    .getByRole('textbox', { name: 'Labels' })
    .or(page.getByRole('combobox', { name: 'Labels' }))
    .fill('shop');
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: 'Version' }).fill('');
  await page.getByText('Version is required.').waitFor();
  expect(await save.isDisabled()).toBe(true);
  await page.getByRole('textbox', { name: 'Version' }).fill('1.1');
  await save.click();
  await toast('Api updated with success').waitFor();
  const banner = page.getByRole('status').filter({ hasText: 'API out of sync' });
  await banner.waitFor();
  expect(await save.isDisabled()).toBe(true);
  await settle(page);
  await screenshot(page, 'apis-general-out-of-sync');
  expect((await api<ApiJson>(`apis/${orders.id}`)).body).toMatchObject({
    version: '1.1',
    labels: ['shop'],
  });

  await page.getByRole('button', { name: 'Deploy your API' }).click();
  await page.getByRole('dialog', { name: 'Deploy the API' }).getByRole('button', { name: 'Deploy' }).click();
  await toast('API Orders deployed').waitFor();
  await banner.waitFor({ state: 'hidden' });
  expect((await api<{ is_synchronized: boolean }>(`apis/${orders.id}/state`)).body.is_synchronized).toBe(
    true,
  );
}
