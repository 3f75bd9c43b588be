import { describe, expect, it } from 'vitest';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { newContext, screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { createActiveUser } from './support/portico';

/**
 * Documentation beyond one API's screens (console-apis.md 2.8, console-applications-and-settings.md
 * 2.3): excluded groups hide a page from their members in the console and the API calls; the portal's
 * own documentation in Settings > Documentation, through the same screens.
 */
describe('documentation: access control and the portal documentation', () => {
  const { world, api, adminOn, toast, main, dialog } = consoleSuite();

  const createApi = (name: string, contextPath: string) =>
    api<{ id: string }>('POST', 'apis', {
      name,
      version: '1.0',
      description: `${name} of the shop`,
      context_path: contextPath,
      endpoint: 'http://localhost:9/backend',
    });

  it('hides a page from the members of its excluded groups, in the console and in API calls', async () => {
    const group = await api<{ id: string }>('POST', 'configuration/groups', { name: 'Partners' });
    const member = await createActiveUser(world.portico, world.token, world.sink, {
      firstname: 'Paula',
      lastname: 'Partner',
      email: 'paula@example.com',
      password: 'partner-pass',
    });
    await api('POST', `configuration/groups/${group.id}/members`, [
      { id: member.id, roles: [{ scope: 'API', name: 'USER' }] },
    ]);
    const { id: apiId } = await createApi('Partnered', '/partnered');
    const current = await api<Record<string, unknown>>('GET', `apis/${apiId}`);
    await api('PUT', `apis/${apiId}`, { ...current, groups: [group.id] });
    await api('POST', `apis/${apiId}/pages`, { name: 'Public guide', type: 'MARKDOWN', published: true });
    const internal = await api<{ id: string }>('POST', `apis/${apiId}/pages`, {
      name: 'Internal notes',
      type: 'MARKDOWN',
      published: true,
      content: '## Secret',
    });

    // The administrator excludes the group on the Access Control tab.
    const admin = await adminOn(
      `/management/apis/${apiId}/documentation/${internal.id}/edit?tab=access-control`,
    );
    await main(admin).getByRole('combobox', { name: 'Excluded groups' }).click();
    await admin.getByRole('option', { name: 'Partners' }).click();
    await admin.keyboard.press('Escape');
    await main(admin).getByRole('button', { name: 'Save' }).click();
    await toast(admin, 'Page Internal notes saved').waitFor();
    await screenshot(admin, 'api-pages-access-control');
    expect(await seriousA11yViolations(admin)).toEqual([]);
    expect(
      (await api<{ excluded_groups: string[] }>('GET', `apis/${apiId}/pages/${internal.id}`)).excluded_groups,
    ).toEqual([group.id]);

    // The member sees the other page only, in the console and through the API.
    const context = await newContext(world.browser);
    const page = await context.newPage();
    const path = `/management/apis/${apiId}/documentation`;
    await page.goto(`${world.portico.webUrl}/login?redirectUri=${encodeURIComponent(path)}`);
    await signInOnPage(page, 'paula@example.com', 'partner-pass');
    await page.waitForURL(`${world.portico.webUrl}${path}`);
    await main(page).getByRole('link', { name: 'Public guide', exact: true }).waitFor();
    await settle(page);
    expect(await main(page).getByText('Internal notes').count()).toBe(0);
    const login = await fetch(`${world.portico.apiUrl}user/login`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('paula@example.com:partner-pass').toString('base64')}` },
    });
    const { token } = (await login.json()) as { token: string };
    const as = (url: string) =>
      fetch(`${world.portico.apiUrl}${url}`, { headers: { Authorization: `Bearer ${token}` } });
    const listed = (await (await as(`apis/${apiId}/pages`)).json()) as { name: string }[];
    expect(listed.map((p) => p.name)).toEqual(['Public guide']);
    expect((await as(`apis/${apiId}/pages/${internal.id}`)).status).toBe(403);
    expect((await as(`apis/${apiId}/pages/${internal.id}/content`)).status).toBe(403);
    await context.close();
  });

  it('manages the portal documentation in the settings with the same screens', async () => {
    const page = await adminOn('/management/settings/documentation');
    await main(page)
      .getByText("The pages of the portal's own documentation, for every visitor of the portal.")
      .waitFor();
    await main(page).getByRole('button', { name: 'New page' }).click();
    await page.getByRole('menuitem', { name: 'Folder' }).click();
    await dialog(page).getByRole('textbox', { name: 'Name' }).fill('Guides');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Folder Guides created').waitFor();

    await main(page).getByRole('button', { name: 'New page' }).click();
    await page.getByRole('menuitem', { name: 'Markdown' }).click();
    await page.waitForURL(/settings\/documentation\/new\?type=MARKDOWN/);
    await main(page).getByRole('textbox', { name: 'Name' }).fill('Welcome');
    await main(page)
      .getByRole('textbox', { name: 'Content (Markdown)' })
      .fill('# Welcome\n\n## Start here\n\nHello.');
    await main(page).getByRole('switch', { name: 'Published' }).click();
    await main(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Page Welcome created').waitFor();
    await page.waitForURL(/settings\/documentation\/[^/]+\/edit/);

    const stored = await api<{ name: string; type: string; published: boolean }[]>('GET', 'portal/pages');
    expect(stored.map((p) => [p.name, p.type, p.published])).toEqual([
      ['Guides', 'FOLDER', false],
      ['Welcome', 'MARKDOWN', true],
    ]);
    await main(page).getByRole('button', { name: 'View' }).click();
    await main(page).getByRole('heading', { name: 'Welcome', level: 1 }).waitFor();
    await main(page)
      .getByRole('navigation', { name: 'On this page' })
      .getByRole('link', { name: 'Start here' })
      .waitFor();
    await main(page).getByRole('link', { name: 'Back to the list' }).click();
    await page.waitForURL(/settings\/documentation$/);
    await main(page).getByRole('link', { name: 'Welcome', exact: true }).waitFor();
    await screenshot(page, 'settings-documentation');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
