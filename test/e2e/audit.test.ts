import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousA11yViolations } from './support/app';
import { screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';

/**
 * The audit screens (console-applications-and-settings.md 2.2, console-apis.md 2.10): changes made
 * through the management API appear in the platform audit and in the API's audit, filtered by event,
 * API and portal-only, each change shown as a readable diff of its JSON patch.
 */
describe('audit', () => {
  const suite = consoleSuite();
  const { api, createApi, adminOn, main, inLanguage } = suite;
  let apiId = '';

  beforeAll(async () => {
    ({ id: apiId } = await createApi('Weather', '/weather'));
    const current = await api<Record<string, unknown>>('GET', `apis/${apiId}`);
    await api('PUT', `apis/${apiId}`, { ...current, description: 'Forecasts for the whole week' });
    await api('POST', 'applications', { name: 'Mobile app', description: 'The phone app' });
  });

  const rows = (page: Page) =>
    main(page).getByRole('table', { name: 'Audit' }).locator('tbody tr[data-audit-event]');
  const events = async (page: Page) =>
    rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-audit-event')));
  const pick = async (page: Page, label: string, option: string) => {
    await main(page).getByLabel(label, { exact: true }).first().click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  it('lists the platform audit, filters by event and shows the change as a diff', async () => {
    const page = await adminOn('/management/audit');
    await main(page).getByRole('heading', { name: 'Audit' }).waitFor();
    await expect
      .poll(() => events(page))
      .toEqual(expect.arrayContaining(['API_CREATED', 'API_UPDATED', 'APPLICATION_CREATED']));
    await pick(page, 'Event', 'API_UPDATED');
    await expect.poll(() => events(page)).toEqual(['API_UPDATED']);
    await expect(rows(page).first().innerText()).resolves.toContain('Weather');
    await main(page).getByRole('button', { name: 'Show the changes' }).click();
    const changes = main(page).getByRole('list', { name: 'Changes' });
    const description = changes.getByRole('listitem').filter({ hasText: 'description' });
    await expect(description.innerText()).resolves.toMatch(
      /description\s+changed to\s+Forecasts for the whole week/,
    );
    expect(await description.getAttribute('data-diff')).toBe('changed');
    await screenshot(page, 'audit-platform-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('filters by API and keeps only platform entries with portal-only', async () => {
    const page = await adminOn('/management/audit');
    await pick(page, 'API', 'Weather');
    await expect
      .poll(async () => (await events(page)).sort())
      .toEqual(['API_CREATED', 'API_UPDATED', 'MEMBERSHIP_CREATED']);
    await main(page).getByRole('checkbox', { name: 'Only portal entries' }).check();
    await expect.poll(() => events(page)).toContain('USER_CONNECTED');
    const shown = await events(page);
    expect(shown.filter((e) => e?.startsWith('API_') || e?.startsWith('APPLICATION_'))).toEqual([]);
    await expect(rows(page).first().innerText()).resolves.toContain('Platform');
  });

  it("shows the API's own audit from the API menu", async () => {
    const page = await adminOn(`/management/apis/${apiId}/portal`);
    await page.locator(`a[href$="/apis/${apiId}/audit"]`).click();
    await page.waitForURL(/\/audit$/);
    await expect
      .poll(async () => (await events(page)).sort())
      .toEqual(['API_CREATED', 'API_UPDATED', 'MEMBERSHIP_CREATED']);
    // Only the API's trail: no application or API filter there.
    expect(await main(page).getByLabel('API', { exact: true }).count()).toBe(0);
    await main(page).getByRole('button', { name: 'Show the changes' }).first().click();
    await screenshot(page, 'audit-api-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('reads in French', async () => {
    const page = await adminOn('/management/audit');
    await inLanguage(page, 'fr');
    await main(page).getByRole('checkbox', { name: 'Uniquement les entrées du portail' }).waitFor();
    await expect.poll(() => events(page)).toContain('API_UPDATED');
    await main(page).getByRole('button', { name: 'Afficher les modifications' }).first().click();
    await screenshot(page, 'audit-platform-fr');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
