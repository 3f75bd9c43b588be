import { beforeAll, describe, expect, it } from 'vitest';
import { settle, signInOnPage } from './support/app';
import { screenshot } from './support/browser';
import type { Portico } from './support/portico';
import type { WebWorld } from './support/web-suite';
import { webSuite } from './support/web-suite';

/**
 * The error catalogue of the web app in a real browser against `portico start`: 412 with Refresh, an
 * expired session (401), the server's message on 503 and an unreachable server.
 */
describe('web app: errors', () => {
  const suite = webSuite();
  const { freshContext } = suite;
  let portico: Portico;
  beforeAll(() => {
    ({ portico } = suite.world satisfies WebWorld);
  });

  it('offers Refresh when the profile was saved meanwhile elsewhere (412), and Refresh reloads it', async () => {
    const context = await freshContext();
    const first = await context.newPage();
    await first.goto(`${portico.webUrl}/login?redirectUri=%2Fuser`);
    await signInOnPage(first, 'admin', 'admin');
    await first.waitForURL(`${portico.webUrl}/user`);
    const second = await context.newPage();
    await second.goto(`${portico.webUrl}/user`);
    await second.getByRole('textbox', { name: 'First name' }).waitFor();

    await first.getByRole('textbox', { name: 'First name' }).fill('Grace');
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByText('User has been updated successfully').waitFor();

    await second.getByRole('textbox', { name: 'Last name' }).fill('Hopper');
    await second.getByRole('button', { name: 'Save' }).click();
    const outdated = second.getByText(
      'The API version is outdated and must be refreshed (current modifications will be lost)',
    );
    await outdated.waitFor();
    await settle(second);
    await screenshot(second, 'profile-412-refresh');
    await second.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => second.getByRole('textbox', { name: 'First name' }).inputValue(), { timeout: 10_000 })
      .toBe('Grace');
    expect(await second.getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('Administrator');
    await outdated.waitFor({ state: 'hidden' });
  });

  it('announces an expired session and sends the user to login, back to the page afterwards (401)', async () => {
    const context = await freshContext();
    const page = await context.newPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fuser`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/user`);
    await page.getByRole('textbox', { name: 'Last name' }).waitFor();
    // The session ends behind the page's back.
    await context.clearCookies();
    await page.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Session expired, redirecting to login...').waitFor();
    await settle(page);
    await screenshot(page, 'session-expired');
    await page.waitForURL(`${portico.webUrl}/login?redirectUri=%2Fuser`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/user`);
  });

  it('shows the server message instead of the page on 503, and "Server unreachable" when the network fails', async () => {
    const context = await freshContext();
    const page = await context.newPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fuser`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/user`);
    const save = async () => {
      await page.getByRole('textbox', { name: 'Last name' }).fill(`Name ${Date.now()}`);
      await page.getByRole('button', { name: 'Save' }).click();
    };

    await page.route('**/management/user', (route) =>
      route.request().method() === 'PUT' ? route.abort('connectionrefused') : route.fallback(),
    );
    await save();
    await page.getByText('Server unreachable').waitFor();
    await page.unrouteAll();

    await page.route('**/management/user', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'Maintenance until noon', http_status: 503 }),
          })
        : route.fallback(),
    );
    await save();
    await page.getByRole('heading', { name: 'Maintenance until noon' }).waitFor();
    expect(await page.getByRole('heading', { name: 'My profile' }).count()).toBe(0);
    await screenshot(page, 'server-unavailable-503');
  });
});
