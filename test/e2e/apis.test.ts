import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { focused, settle, signInOnPage } from './support/app';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { MailSink } from './support/mail-sink';
import { startMailSink } from './support/mail-sink';
import type { Portico } from './support/portico';
import { adminToken, createActiveUser, saveSettings, startPortico } from './support/portico';

const PETSTORE = `openapi: 3.0.3
info:
  title: Swagger Petstore
  version: 1.0.0
  description: A sample API that uses a petstore as an example
servers:
  - url: http://petstore.example.com/v1
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: A list of pets
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  properties:
                    id: { type: integer, example: 1 }
                    name: { type: string, example: Rex }
  /pets/{petId}:
    get:
      operationId: showPetById
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: string }
      responses:
        '200':
          description: One pet
`;

const README = '# Orders\n\nThe orders of the shop.\n\n## Calling it\n\n`GET /orders`\n';

interface ApiJson {
  id: string;
  name: string;
  description: string;
  version: string;
  state: string;
  visibility: string;
  deployed_at: number | null;
  context_path: string;
  labels: string[];
  paths: Record<string, Record<string, unknown>[]>;
  path_mappings: string[];
}

/**
 * The API screens of the console in a real browser against `portico start`: list, creation wizard,
 * import, export, general settings and deployment, the 412 of a stale tab, history and rollback, the
 * Danger Zone, members, metadata, events and the quality score.
 */
describe('console: APIs', () => {
  let portico: Portico;
  let sink: MailSink;
  let browser: Browser;
  let token: string;
  let context: BrowserContext;
  let page: Page;
  /** The API created and started by the wizard. */
  let orders: ApiJson;

  const api = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${portico.apiUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
  const apiByName = async (name: string) => {
    const { body } = await api<ApiJson[]>('apis');
    const found = body.find((a) => a.name === name);
    if (!found) throw new Error(`no API named ${name}`);
    return (await api<ApiJson>(`apis/${found.id}`)).body;
  };
  const exported = async (id: string) =>
    (
      await api<{ pages: { name: string; type: string; published: boolean; content: string }[] }>(
        `apis/${id}/export`,
      )
    ).body;
  const toast = (text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).first();
  const go = async (path: string) => {
    await page.goto(`${portico.webUrl}${path}`);
  };

  beforeAll(async () => {
    sink = await startMailSink();
    [portico, browser] = await Promise.all([startPortico({ smtpUrl: sink.url }), launchChromium()]);
    token = await adminToken(portico);
    context = await newContext(browser);
    page = await context.newPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fmanagement`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/management/apis`);
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
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
    // Whether the management API still answers, and what it printed last, for the failure's reader.
    const health = await fetch(`${portico.apiUrl}health`, { signal: AbortSignal.timeout(2000) })
      .then((r) => String(r.status))
      .catch((e: unknown) => String(e));
    console.error(`management health: ${health}\n${portico.output().slice(-2000)}`);
    await Promise.all(
      context
        .pages()
        .map((p, i) =>
          screenshot(p, `failed-apis-${test.task.name.slice(0, 40)}-${i}`).catch(() => undefined),
        ),
    );
  });

  it('shows the empty list, then creates an API through the wizard with a plan and a Markdown page, and starts it', async () => {
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

    orders = await apiByName('Orders');
    expect(orders).toMatchObject({
      state: 'STARTED',
      context_path: '/orders',
      description: 'The orders of the shop',
    });
    expect(orders.deployed_at).not.toBeNull();
    const plans = (
      await api<{ name: string; status: string; paths: Record<string, unknown[]> }[]>(
        `apis/${orders.id}/plans`,
      )
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
  });

  it('creates without deploying: the plan stays in staging and the pages unpublished; skipped steps show', async () => {
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
  });

  it('imports an OpenAPI 3 YAML file with all the options, and says why other files are refused', async () => {
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
  });

  it('exports an API to a file named after it, and imports the file back over it', async () => {
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
    expect((await api<ApiJson>(`apis/${petstore.id}`)).body.description).toBe(
      'Imported back from its export',
    );
  });

  it('edits the general settings, shows the out-of-sync banner, deploys, and the banner clears', async () => {
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
    await page
      .getByRole('dialog', { name: 'Deploy the API' })
      .getByRole('button', { name: 'Deploy' })
      .click();
    await toast('API Orders deployed').waitFor();
    await banner.waitFor({ state: 'hidden' });
    expect((await api<{ is_synchronized: boolean }>(`apis/${orders.id}/state`)).body.is_synchronized).toBe(
      true,
    );
  });

  it('offers Refresh when a second tab saved the API first (412)', async () => {
    const second = await context.newPage();
    await Promise.all([
      go(`/management/apis/${orders.id}/portal`),
      second.goto(`${portico.webUrl}/management/apis/${orders.id}/portal`),
    ]);
    await page.getByRole('textbox', { name: 'Version' }).fill('1.2');
    await second.getByRole('textbox', { name: 'Description' }).fill('Changed in the second tab');
    await second.getByRole('button', { name: 'Save' }).click();
    await second.getByText('Api updated with success').waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    const outdated = page.getByText(
      'The API version is outdated and must be refreshed (current modifications will be lost)',
    );
    await outdated.waitFor();
    await settle(page);
    await screenshot(page, 'apis-general-412-refresh');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Description' }).inputValue(), { timeout: 10_000 })
      .toBe('Changed in the second tab');
    expect(await page.getByRole('textbox', { name: 'Version' }).inputValue()).toBe('1.1');
    await second.close();
  });

  it('compares two entries of the history side by side, the current API as newest, and rolls back', async () => {
    await go(`/management/apis/${orders.id}/history`);
    const list = page.getByRole('list', { name: 'Deployments' });
    await list.getByText('To deploy').waitFor();
    await list.getByText('Version 2').waitFor();
    await page
      .locator('label')
      .filter({ hasText: /^Compare$/ })
      .click();
    await list.getByRole('button', { name: /Version 1/ }).click();
    await list.getByRole('button', { name: /To deploy/ }).click();
    await page.getByText('Older: Version 1').waitFor();
    await page.getByText('Newer: To deploy').waitFor();
    const diff = page.getByTestId('history-diff');
    await diff.locator('.cm-mergeView').waitFor();
    // The newer side (the current API) shows its description; both differ on it.
    await diff.locator('.cm-mergeViewEditor').nth(0).getByText('"The orders of the shop"').waitFor();
    await diff.locator('.cm-mergeViewEditor').nth(1).getByText('"Changed in the second tab"').waitFor();
    expect(await diff.locator('.cm-changedLine').count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'apis-history-diff');

    await page
      .locator('label')
      .filter({ hasText: /^View$/ })
      .click();
    await list.getByRole('button', { name: /Version 1/ }).click();
    await page.getByRole('button', { name: 'Rollback' }).click();
    await page.getByRole('dialog', { name: 'Rollback' }).getByRole('button', { name: 'Rollback' }).click();
    await toast('API restored to Version 1').waitFor();
    const restored = (await api<ApiJson>(`apis/${orders.id}`)).body;
    expect(restored).toMatchObject({ description: 'The orders of the shop', version: '1.0' });
    await list.getByText('To deploy').waitFor();
  });

  it('shows the events as a timeline with their icons', async () => {
    await go(`/management/apis/${orders.id}/events`);
    await page.getByText('Deployed').first().waitFor();
    expect(await page.locator('[data-event-icon=play]').count()).toBe(1);
    expect(await page.locator('[data-event-icon=check]').count()).toBe(2);
    await screenshot(page, 'apis-events');
  });

  it('refuses to delete a started API, then the server refuses while a plan is published', async () => {
    await go(`/management/apis/${orders.id}/portal`);
    await page.getByText('A started API cannot be deleted: stop it first.').waitFor();
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    expect((await api(`apis/${orders.id}`, { method: 'DELETE' })).status).toBe(400);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('dialog', { name: 'Stop the API' }).getByRole('button', { name: 'Stop' }).click();
    await toast('API Orders stopped').waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the API' });
    expect(await dialog.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await dialog.getByRole('textbox').fill('Orders');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast('The API has published or deprecated plans: close them before deleting it.').waitFor();
    await settle(page);
    await screenshot(page, 'apis-delete-refused');
    expect((await api(`apis/${orders.id}`)).status).toBe(200);
    await page.keyboard.press('Escape');
  });

  it('manages members, metadata with its format checks, and shows the quality score', async () => {
    // A user who finished the registration an administrator started (pending users are not offered).
    await createActiveUser(portico, token, sink, {
      firstname: 'Grace',
      lastname: 'Hopper',
      email: 'grace@example.com',
      password: 'cobol-1959',
    });
    await go(`/management/apis/${orders.id}/members`);
    await page.getByRole('button', { name: 'Add members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add members' });
    await dialog
      .getByRole('textbox', { name: 'Users' })
      .or(dialog.getByRole('combobox', { name: 'Users' }))
      .fill('gra');
    await page.getByRole('option', { name: /Grace Hopper/ }).click();
    await dialog.getByRole('button', { name: 'Add' }).click();
    await toast('Members added: 1').waitFor();
    await page
      .getByRole('cell', { name: /Grace Hopper/ })
      .first()
      .waitFor();
    await screenshot(page, 'apis-members');

    await go(`/management/apis/${orders.id}/metadata`);
    await page.getByRole('button', { name: 'Add metadata' }).click();
    const form = page.getByRole('dialog', { name: 'New metadata' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Support mail');
    await form.getByRole('combobox', { name: 'Format' }).click();
    await page.getByRole('option', { name: 'Mail' }).click();
    await form.getByRole('textbox', { name: 'Value' }).fill('not-a-mail');
    await form.getByText('An email address, or an expression ${...}').waitFor();
    expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await form.getByRole('textbox', { name: 'Value' }).fill('support@example.com');
    await form.getByRole('button', { name: 'Save' }).click();
    await toast('Metadata Support mail saved').waitFor();
    await page.getByRole('cell', { name: 'support-mail' }).waitFor();
    await screenshot(page, 'apis-metadata');

    await saveSettings(portico, token, {
      apiQualityMetrics: {
        enabled: true,
        descriptionWeight: 1,
        descriptionMinLength: 5,
        labelsWeight: 1,
        logoWeight: 2,
      },
    });
    await page.goto(`${portico.webUrl}/management/apis/${orders.id}/portal`);
    const score = page.getByRole('main').locator('[data-quality]').first();
    await score.waitFor();
    // Description and labels pass, the picture does not: 2 of 4.
    expect(await score.getAttribute('data-quality')).toBe('medium');
    await page.getByText('50%').first().waitFor();
    await settle(page);
    await screenshot(page, 'apis-general-quality');
  });

  it('lists, searches and sorts the APIs with their columns, in English and in French', async () => {
    await go('/management/apis');
    const rows = page.getByRole('main').getByRole('row');
    await page.getByRole('link', { name: 'Swagger Petstore' }).waitFor();
    expect(await rows.count()).toBe(4);
    await page.getByRole('button', { name: 'Sort by Context path' }).click();
    await expect.poll(async () => (await rows.nth(1).innerText()).includes('/invoices')).toBe(true);
    await page.getByRole('button', { name: 'Sort by Context path' }).click();
    await expect.poll(async () => (await rows.nth(1).innerText()).includes('Swagger Petstore')).toBe(true);
    await screenshot(page, 'apis-list');
    // The keyboard reaches the sort buttons from the search box, with a visible focus, and sorts.
    await page.getByRole('searchbox', { name: 'Search APIs' }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ label: 'Sort by Name', visible: true });
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rows.nth(1).innerText()).includes('Invoices')).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ label: 'Sort by Context path', visible: true });
    await page.getByRole('searchbox', { name: 'Search APIs' }).fill('invoices');
    await page.waitForURL(/q=invoices/);
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByRole('searchbox', { name: 'Search APIs' }).fill('nothing-like-this');
    await page.getByText('No APIs found').waitFor();

    await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('fr')));
    await go('/management/apis');
    await page.getByRole('main').getByRole('heading', { name: 'API', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Swagger Petstore' }).waitFor();
    await screenshot(page, 'apis-list-fr');
    await go(`/management/apis/${orders.id}/portal`);
    await page.getByRole('main').getByRole('heading', { name: 'Zone de danger' }).waitFor();
    await settle(page);
    await screenshot(page, 'apis-general-fr');
    await go('/management/apis/new/create');
    await page.getByRole('button', { name: 'Suivant' }).click();
    await page.getByText('Le nom est obligatoire.').waitFor();
    await screenshot(page, 'apis-wizard-fr');
    await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('en')));
  });
});
