import { beforeAll, describe, expect, it } from 'vitest';
import {
  builtChunk,
  focused,
  reportedFirstLoad,
  seriousA11yViolations,
  settle,
  signInOnPage,
  userMenu,
} from './support/app';
import { screenshot } from './support/browser';
import type { Portico } from './support/portico';
import { adminToken, saveSettings } from './support/portico';
import type { WebWorld } from './support/web-suite';
import { webSuite } from './support/web-suite';

/**
 * The web app in a real browser against `portico start`: sign-in and out, keyboard use, the portal's
 * entrypoint, forced login. Errors, preferences and accounts have their own files (web-app-*.test.ts).
 */
describe('web app', () => {
  const suite = webSuite();
  const { freshPage } = suite;
  let portico: Portico;
  beforeAll(() => {
    ({ portico } = suite.world satisfies WebWorld);
  });

  it('signs in from the top bar, comes back to the page, opens the console on demand, and signs out', async () => {
    const page = await freshPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(portico.webUrl);
    await page.getByRole('heading', { name: 'Welcome to the Portico developer portal' }).waitFor();
    await page.getByText('No API', { exact: true }).waitFor();
    await screenshot(page, 'portal-home-signed-out');
    // The build's size report counts exactly what the browser loads, and no console code.
    await page.waitForLoadState('networkidle');
    const reported = reportedFirstLoad();
    expect(scripts.filter((script) => !reported.has(script))).toEqual([]);
    const consoleChunk = `/${builtChunk('src/app/console/console-layout.tsx')}`;
    expect(scripts).not.toContain(consoleChunk);
    // The toasts' container loads with the first toast, which the home page does not show.
    expect(scripts).not.toContain(`/${builtChunk('src/shared/ui/toast-container.tsx')}`);

    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${portico.webUrl}/login`);
    await screenshot(page, 'login');
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/`);
    await userMenu(page).waitFor();
    await screenshot(page, 'portal-home-signed-in');

    await userMenu(page).click();
    await page.getByRole('menuitem', { name: 'Management' }).click();
    await page.waitForURL(`${portico.webUrl}/management/apis`);
    await page.getByRole('main').getByRole('heading', { name: 'APIs', exact: true }).waitFor();
    await page
      .getByRole('navigation', { name: 'Console menu' })
      .getByRole('link', { name: 'APIs' })
      .waitFor();
    expect(scripts).toContain(consoleChunk);
    await screenshot(page, 'console-home');

    await userMenu(page).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(`${portico.webUrl}/`);
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await userMenu(page).count()).toBe(0);
    // The session is gone on the server too: a reload stays signed out.
    await page.reload();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'signed-out');
  });

  it('says "Wrong user or password" for a wrong password and clears it', async () => {
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login`);
    await signInOnPage(page, 'admin', 'not-the-password');
    await page.getByText('Wrong user or password').waitFor();
    await settle(page);
    expect(await page.getByRole('textbox', { name: 'Password' }).inputValue()).toBe('');
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login-wrong-password');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('takes the "Wrong user or password" toast down once a sign-in succeeds', async () => {
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login`);
    await signInOnPage(page, 'admin', 'not-the-password');
    const wrong = page.getByRole('alert').filter({ hasText: 'Wrong user or password' });
    await wrong.waitFor();
    // Well before the toast would close by itself (3 s).
    await page.getByRole('textbox', { name: 'Password' }).fill('admin');
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${portico.webUrl}/`);
    await expect.poll(() => wrong.count(), { timeout: 1000, interval: 100 }).toBe(0);
    await userMenu(page).waitFor();
    await screenshot(page, 'signed-in-after-wrong-password');
  });

  it('is usable with the keyboard alone, with a visible focus', async () => {
    const page = await freshPage();
    await page.goto(portico.webUrl);
    await page.getByRole('heading', { name: 'Welcome to the Portico developer portal' }).waitFor();

    // Every control of the signed-out home is reached in order, and shows its focus.
    const stops: Awaited<ReturnType<typeof focused>>[] = [];
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      stops.push(await focused(page));
    }
    expect(stops.map((s) => s.label ?? s.text)).toEqual([
      'Skip to content',
      'Home',
      'APIs',
      'Documentation',
      'Support',
      'Sign in',
      'Search APIs',
      'Search',
      'Browse all APIs',
      'Language',
    ]);
    expect(stops.filter((s) => !s.visible)).toEqual([]);

    // The skip link jumps to the page content.
    for (let i = 0; i < 9; i++) await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).text).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect((await focused(page)).label).toBe('Search APIs');

    // Sign in, open the user menu and go to the profile without the mouse.
    await page.goto(`${portico.webUrl}/login`);
    await page.getByRole('textbox', { name: 'Username' }).waitFor();
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    expect((await focused(page)).label).toBe('Show or hide the password');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ text: 'Sign in', visible: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${portico.webUrl}/`);
    await userMenu(page).waitFor();
    for (let i = 0; i < 8 && !(await focused(page)).label?.startsWith('User menu of'); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await focused(page)).toMatchObject({ visible: true });
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    await settle(page);
    await screenshot(page, 'user-menu-keyboard');
    await page.keyboard.press('ArrowDown');
    expect((await focused(page)).text).toBe('Profile');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${portico.webUrl}/user`);
  });

  it("names the gateway this server runs as the portal's default entrypoint", async () => {
    const portal = await fetch(`${portico.apiUrl}portal`);
    const settings = (await portal.json()) as { portal: { entrypoint: string } };
    expect(settings.portal.entrypoint).toBe(portico.gatewayUrl);
    expect(portico.gatewayUrl).not.toBe('http://localhost:8082');
  });

  it('sends visitors to login when forced login is on, without the top bar', async () => {
    const token = await adminToken(portico);
    await saveSettings(portico, token, { authentication: { forceLogin: { enabled: true } } });
    try {
      const page = await freshPage();
      await page.goto(portico.webUrl);
      await page.waitForURL(`${portico.webUrl}/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await page.getByRole('banner').count()).toBe(0);
      await page.goto(`${portico.webUrl}/management`);
      await page.waitForURL(`${portico.webUrl}/login?redirectUri=%2Fmanagement`);
      await screenshot(page, 'forced-login');
      await signInOnPage(page, 'admin', 'admin');
      await page.waitForURL(`${portico.webUrl}/management`);
    } finally {
      await saveSettings(portico, token, { authentication: { forceLogin: { enabled: false } } });
    }
  });
});
