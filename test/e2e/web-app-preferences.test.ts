import { beforeAll, describe, expect, it } from 'vitest';
import { settle, signInOnPage, userMenu } from './support/app';
import { screenshot } from './support/browser';
import type { Portico } from './support/portico';
import { adminToken } from './support/portico';
import type { WebWorld } from './support/web-suite';
import { webSuite } from './support/web-suite';

/** A PNG of one pixel. */
const PNG_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * What the web app remembers, in a real browser against `portico start`: the language (with its
 * fallback), the reduced console menu and the documentation panel, the profile picture.
 */
describe('web app: preferences', () => {
  const suite = webSuite();
  const { freshContext, freshPage } = suite;
  let portico: Portico;
  beforeAll(() => {
    ({ portico } = suite.world satisfies WebWorld);
  });

  it('switches the language to French from the user menu and remembers it', async () => {
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/`);
    await userMenu(page).click();
    await page.getByRole('menuitem', { name: 'Language' }).click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    const title = page.getByRole('heading', { name: 'Bienvenue sur le portail développeur de Portico' });
    await title.waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.reload();
    await title.waitFor();
    // The home's top APIs load after the title; with none, their place says so.
    await page.getByText('Aucune API', { exact: true }).waitFor();
    await screenshot(page, 'portal-home-fr');
    await page.goto(`${portico.webUrl}/management`);
    await page.getByRole('main').getByRole('heading', { name: 'API', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'La liste' }).waitFor();
    await userMenu(page)
      .or(page.getByRole('button', { name: /^Menu utilisateur de / }))
      .waitFor();
    await screenshot(page, 'console-home-fr');
  });

  it('falls back to English when the translation file of the language is missing', async () => {
    const context = await freshContext();
    await context.route('**/portal/i18n/ru.json', (route) =>
      route.fulfill({ status: 404, body: 'not found' }),
    );
    await context.addInitScript(() => localStorage.setItem('portico.language', JSON.stringify('ru')));
    const page = await context.newPage();
    await page.goto(portico.webUrl);
    await page.getByRole('heading', { name: 'Welcome to the Portico developer portal' }).waitFor();
    expect(await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    await screenshot(page, 'missing-translation-falls-back-to-en');
  });

  it('remembers the reduced console menu and the closed documentation panel', async () => {
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fmanagement`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/management/apis`);
    const docPanel = page.getByRole('heading', { name: 'The list' });
    await docPanel.waitFor();
    await page.getByRole('button', { name: 'Reduce the menu' }).click();
    await page.getByRole('button', { name: 'Hide the contextual documentation' }).click();
    await docPanel.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByRole('button', { name: 'Expand the menu' }).waitFor();
    await page.getByRole('button', { name: 'Show the contextual documentation' }).waitFor();
    expect(await docPanel.isVisible()).toBe(false);
    expect(
      await page.evaluate(() => [
        localStorage.getItem('portico.sidebar.reduced'),
        localStorage.getItem('portico.contextualDoc.visible'),
      ]),
    ).toEqual(['true', 'false']);
    await screenshot(page, 'console-reduced-menu');
    await page.getByRole('button', { name: 'Show the contextual documentation' }).click();
    await docPanel.waitFor();
  });

  it('uploads a profile picture of at most 1 MB', async () => {
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fuser`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/user`);
    const file = page.locator('input[type=file]');
    await file.setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(1024 * 1024 + 1),
    });
    await page.getByText('The picture is too large: 1 MB at most.').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await file.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_PIXEL });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('User has been updated successfully').waitFor();
    const avatar = await fetch(`${portico.apiUrl}user/avatar`, {
      headers: { Authorization: `Bearer ${await adminToken(portico)}` },
    });
    expect(avatar.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await avatar.arrayBuffer()).equals(PNG_PIXEL)).toBe(true);
    await settle(page);
    await screenshot(page, 'profile-picture');
  });
});
