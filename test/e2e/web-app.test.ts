import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  builtChunk,
  focused,
  reportedFirstLoad,
  seriousA11yViolations,
  settle,
  signInOnPage,
  userMenu,
} from './support/app';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { MailSink } from './support/mail-sink';
import { startMailSink } from './support/mail-sink';
import type { Portico } from './support/portico';
import { adminToken, createActiveUser, saveSettings, startPortico } from './support/portico';

/** A PNG of one pixel. */
const PNG_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The web app in a real browser against `portico start`: sign-in and out, errors of the catalogue,
 * languages, the registration through a real SMTP server, forced login.
 */
describe('web app', () => {
  let portico: Portico;
  let sink: MailSink;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    sink = await startMailSink();
    [portico, browser] = await Promise.all([startPortico({ smtpUrl: sink.url }), launchChromium()]);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    await browser?.close();
    await portico?.stop();
    await sink?.close();
  });

  async function freshContext(): Promise<BrowserContext> {
    const context = await newContext(browser);
    contexts.push(context);
    return context;
  }

  const freshPage = async (): Promise<Page> => (await freshContext()).newPage();

  // A failed test leaves a picture of each of its pages.
  // The web server's Content-Security-Policy blocks nothing the app does.
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    const pages = contexts.flatMap((c) => c.pages());
    await Promise.all(
      pages.map((p, i) => screenshot(p, `failed-${test.task.name.slice(0, 40)}-${i}`).catch(() => undefined)),
    );
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
    expect(await page.getByText('Aucune API', { exact: true }).isVisible()).toBe(true);
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

  it('is usable with the keyboard alone, with a visible focus', async () => {
    const page = await freshPage();
    await page.goto(portico.webUrl);
    await page.getByRole('heading', { name: 'Welcome to the Portico developer portal' }).waitFor();

    // Every control of the signed-out home is reached in order, and shows its focus.
    const stops: Awaited<ReturnType<typeof focused>>[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      stops.push(await focused(page));
    }
    expect(stops.map((s) => s.label ?? s.text)).toEqual([
      'Skip to content',
      'Home',
      'Sign in',
      'Search APIs',
      'Search',
      'Language',
    ]);
    expect(stops.filter((s) => !s.visible)).toEqual([]);

    // The skip link jumps to the page content.
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+Tab');
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

  it('registers a user through the mail link, who can then sign in', async () => {
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login`);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(`${portico.webUrl}/registration`);
    await page.getByRole('textbox', { name: 'First name' }).fill('Katherine');
    await page.getByRole('textbox', { name: 'Last name' }).fill('Johnson');
    await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await page.getByRole('textbox', { name: 'Email' }).blur();
    await page.getByText('Enter a valid email address.').waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill('katherine@example.com');
    await screenshot(page, 'registration');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText(/Registration succeeded!/).waitFor();

    const mail = await sink.waitForMail('katherine@example.com', /registration/i);
    const link = /https?:\/\/\S+\/registration\/confirm\/[\w.-]+/.exec(mail.text ?? '')?.[0];
    expect(link, mail.text).toBeTruthy();
    expect(link!.startsWith(`${portico.webUrl}/registration/confirm/`)).toBe(true);
    await page.goto(link!);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Email' }).inputValue(), { timeout: 10_000 })
      .toBe('katherine@example.com');
    expect(await page.getByRole('textbox', { name: 'Email' }).getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('textbox', { name: 'First name' }).inputValue()).toBe('Katherine');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('orbital-1962');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('orbital-1963');
    await page.getByRole('textbox', { name: 'Confirm the password' }).blur();
    await page.getByText('The confirm password is different!').waitFor();
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('orbital-1962');
    await screenshot(page, 'registration-confirm');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL(`${portico.webUrl}/login`);

    await signInOnPage(page, 'katherine@example.com', 'orbital-1962');
    await page.waitForURL(`${portico.webUrl}/`);
    await page.getByRole('button', { name: 'User menu of Katherine Johnson' }).waitFor();
    await screenshot(page, 'registered-user-signed-in');
  });

  it('resets a password through the mail link an administrator sends', async () => {
    const token = await adminToken(portico);
    const auth = { Authorization: `Bearer ${token}` };
    const created = await fetch(`${portico.apiUrl}users`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ firstname: 'Dorothy', lastname: 'Vaughan', email: 'dorothy@example.com' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const reset = await fetch(`${portico.apiUrl}users/${id}/resetPassword`, {
      method: 'POST',
      headers: auth,
    });
    expect(reset.status).toBe(204);
    const mail = await sink.waitForMail('dorothy@example.com', /password/i);
    const link = /https?:\/\/\S+\/resetPassword\/[\w.-]+/.exec(mail.text ?? '')?.[0];
    expect(link, mail.text).toBeTruthy();

    const page = await freshPage();
    await page.goto(link!);
    await page.getByText('Choose a new password for dorothy@example.com.').waitFor();
    await page.getByRole('textbox', { name: 'New password' }).fill('fortran-1961');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('fortran-1961');
    await screenshot(page, 'reset-password');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.waitForURL(`${portico.webUrl}/login`);
    await signInOnPage(page, 'dorothy@example.com', 'fortran-1961');
    await page.getByRole('button', { name: 'User menu of Dorothy Vaughan' }).waitFor();

    // The link works once.
    await page.goto(link!);
    await page.getByRole('textbox', { name: 'New password' }).fill('another-password');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('another-password');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByRole('alert').filter({ hasText: 'already used' }).waitFor();
  });

  it("names the gateway this server runs as the portal's default entrypoint", async () => {
    const portal = await fetch(`${portico.apiUrl}portal`);
    const settings = (await portal.json()) as { portal: { entrypoint: string } };
    expect(settings.portal.entrypoint).toBe(portico.gatewayUrl);
    expect(portico.gatewayUrl).not.toBe('http://localhost:8082');
  });

  it("changes one's own password on the account page, asking for the current one", async () => {
    const token = await adminToken(portico);
    await createActiveUser(portico, token, sink, {
      firstname: 'Grace',
      lastname: 'Hopper',
      email: 'grace@example.com',
      password: 'cobol-1959',
    });
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fuser`);
    await signInOnPage(page, 'grace@example.com', 'cobol-1959');
    await page.waitForURL(`${portico.webUrl}/user`);
    const section = page.getByRole('region', { name: 'Password' });
    const current = section.getByRole('textbox', { name: 'Current password' });
    const fresh = section.getByRole('textbox', { name: 'New password' });
    const confirm = section.getByRole('textbox', { name: 'Confirm the password' });
    const submit = section.getByRole('button', { name: 'Change my password' });
    expect(await submit.isDisabled()).toBe(true);

    await current.fill('cobol-1959');
    await fresh.fill('compiler-1952');
    await confirm.fill('compiler-1953');
    await confirm.blur();
    await section.getByText('The confirm password is different!').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await screenshot(page, 'profile-password-mismatch');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A wrong current password: the server refuses, in the user's language, and nothing changes.
    await current.fill('not-my-password');
    await confirm.fill('compiler-1952');
    await submit.click();
    await page.getByRole('alert').filter({ hasText: 'The current password is wrong' }).waitFor();
    expect(await current.inputValue()).toBe('');
    await settle(page);
    await screenshot(page, 'profile-password-wrong-current');

    // With the keyboard: the current password again, then Enter.
    await current.fill('cobol-1959');
    await current.press('Enter');
    await page.getByText('Your password has been changed').waitFor();
    expect(await current.inputValue()).toBe('');
    await settle(page);
    await screenshot(page, 'profile-password-changed');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await userMenu(page).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto(`${portico.webUrl}/login`);
    await signInOnPage(page, 'grace@example.com', 'cobol-1959');
    await page.getByText('Wrong user or password').waitFor();
    await page.getByRole('textbox', { name: 'Password' }).fill('compiler-1952');
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'User menu of Grace Hopper' }).waitFor();
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
