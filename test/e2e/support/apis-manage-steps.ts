import { expect } from 'vitest';
import { focused, settle } from './app';
import { screenshot } from './browser';
import { createActiveUser, saveSettings } from './portico';
import type { ApiJson, ApisConsole } from './apis-console';

/** Steps of the console APIs browser test (test/e2e/apis.test.ts), run in its order on one Portico. */

/** offers Refresh when a second tab saved the API first (412) */
export async function offersRefreshOn412(c: ApisConsole): Promise<void> {
  const { portico, context, page, orders, go } = c;
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
}

/** compares two entries of the history side by side, the current API as newest, and rolls back */
export async function comparesHistoryAndRollsBack(c: ApisConsole): Promise<void> {
  const { page, orders, api, toast, go } = c;
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
}

/** shows the events as a timeline with their icons */
export async function showsEventsTimeline(c: ApisConsole): Promise<void> {
  const { page, orders, go } = c;
  await go(`/management/apis/${orders.id}/events`);
  await page.getByText('Deployed').first().waitFor();
  expect(await page.locator('[data-event-icon=play]').count()).toBe(1);
  expect(await page.locator('[data-event-icon=check]').count()).toBe(2);
  await screenshot(page, 'apis-events');
}

/** refuses to delete a started API, then the server refuses while a plan is published */
export async function refusesDeletion(c: ApisConsole): Promise<void> {
  const { page, orders, api, toast, go } = c;
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
}

/** manages members, metadata with its format checks, and shows the quality score */
export async function managesMembersMetadataQuality(c: ApisConsole): Promise<void> {
  const { portico, sink, token, page, orders, toast, go } = c;
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
}

/** lists, searches and sorts the APIs with their columns, in English and in French */
export async function listsSearchesSorts(c: ApisConsole): Promise<void> {
  const { page, orders, go } = c;
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
}
