import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeToast, flipSwitch, seriousA11yViolations, signInOnPage } from './support/app';
import { launchChromium, newContext, screenshot } from './support/browser';
import type { MailSink } from './support/mail-sink';
import { startMailSink } from './support/mail-sink';
import type { Portico } from './support/portico';
import { adminPage, checkPageAfterEach, inLanguage, settingsScreen } from './support/settings-world';
import { adminToken, createActiveUser, saveSettings, startPortico } from './support/portico';

/**
 * Settings > Settings (portal), Analytics and API Logging (console-applications-and-settings.md 2.3):
 * validation messages, Save disabled while pristine or invalid, Reset, partial saves; in English and in
 * French. And the developer-portal-only mode, which leaves non-administrators their applications and
 * tasks.
 */
describe('settings: portal, analytics and API logging pages', () => {
  let portico: Portico;
  let browser: Browser;
  let sink: MailSink;
  let page: Page;
  let token: string;
  const errors: string[] = [];

  beforeAll(async () => {
    sink = await startMailSink();
    [portico, browser] = await Promise.all([startPortico({ smtpUrl: sink.url }), launchChromium()]);
    token = await adminToken(portico);
    page = await adminPage(browser, portico, errors);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await portico?.stop();
    await sink?.close();
  });
  checkPageAfterEach(() => page, errors, 'settings-pages');

  const settings = async () =>
    (await (
      await fetch(`${portico.apiUrl}portal`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as Record<string, Record<string, unknown>>;
  const { main } = settingsScreen(
    () => page,
    () => portico,
  );

  it('API logging: the maximum duration is checked, saved alone, and Reset restores it', async () => {
    await page.goto(`${portico.webUrl}/management/settings/api_logging`);
    await main().getByRole('heading', { name: 'API logging' }).waitFor();
    const save = main().getByRole('button', { name: 'Save' });
    const reset = main().getByRole('button', { name: 'Reset' });
    expect(await save.isDisabled()).toBe(true);
    expect(await reset.isDisabled()).toBe(true);

    const duration = main().getByRole('textbox', { name: 'Maximum logging duration (0: none)' });
    await duration.fill('-5');
    await main().getByText('The value must be at least 0.').waitFor();
    expect(await save.isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-api-logging-invalid-en');

    await reset.click();
    expect(await duration.inputValue()).toBe('0');
    expect(await save.isDisabled()).toBe(true);

    await duration.fill('3600000');
    // The audit trail is an option of the audit: off while the audit is off.
    const audit = main().getByRole('switch', { name: 'Enable audit', exact: true });
    const trail = main().getByRole('switch', { name: 'Enable audit trail' });
    if (!(await audit.isChecked())) {
      expect(await trail.isDisabled()).toBe(true);
    }
    await save.click();
    await closeToast(page, 'Settings saved');
    expect(await save.isDisabled()).toBe(true);
    const saved = await settings();
    expect((saved.logging as { maxDurationMillis: number }).maxDurationMillis).toBe(3_600_000);
    await screenshot(page, 'settings-api-logging-en');
  });

  it('portal settings: a URL is checked, only the changed fields are saved', async () => {
    await page.goto(`${portico.webUrl}/management/settings/portal`);
    await main().getByRole('heading', { name: 'Portal settings' }).waitFor();
    const save = main().getByRole('button', { name: 'Save' });
    const entrypoint = main().getByRole('textbox', { name: 'Default gateway entrypoint' });
    expect(await entrypoint.inputValue()).toBe(portico.gatewayUrl);
    await entrypoint.fill('not a url');
    await main().getByText('Enter an http or https URL.').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await entrypoint.fill(portico.gatewayUrl);

    // Saved meanwhile by someone else: a partial save of this page does not overwrite it.
    await saveSettings(portico, token, { company: { name: 'Changed elsewhere' } });
    await main().getByRole('textbox', { name: 'Portal title' }).fill('Acme developer portal');
    await flipSwitch(main().getByRole('switch', { name: 'Enable ratings' }));
    expect(await save.isDisabled()).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await save.click();
    await closeToast(page, 'Settings saved');
    const saved = await settings();
    expect(saved.company).toEqual({ name: 'Changed elsewhere' });
    expect(saved.portal).toMatchObject({ title: 'Acme developer portal' });
    await screenshot(page, 'settings-portal-en');
  });

  it('analytics settings: the client timeout, in French', async () => {
    await page.goto(`${portico.webUrl}/management/settings/analytics`);
    await inLanguage(page, 'fr');
    await main().getByRole('heading', { name: 'Paramètres d’analyse' }).waitFor();
    const timeout = main().getByRole('textbox', { name: 'Délai d’attente des appels d’analyse' });
    expect(await timeout.inputValue()).toBe('30000');
    await timeout.fill('-1');
    await main().getByText('La valeur doit être au moins 0.').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-analytics-fr');
    await timeout.fill('45000');
    await main().getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Paramètres enregistrés').waitFor();
    expect((await settings()).analytics).toEqual({ clientTimeout: 45_000 });

    await page.goto(`${portico.webUrl}/management/settings/portal`);
    await main().getByRole('heading', { name: 'Paramètres du portail' }).waitFor();
    await screenshot(page, 'settings-portal-fr');
    await inLanguage(page, 'en');
  });

  it('developer-portal-only mode keeps a non-administrator in their applications and tasks', async () => {
    await saveSettings(portico, token, { portal: { devMode: { enabled: true } } });
    await createActiveUser(portico, token, sink, {
      firstname: 'Dana',
      lastname: 'Dev',
      email: 'dana@example.com',
      password: 'dana-password-1',
    });
    const context = await newContext(browser);
    const dev = await context.newPage();
    dev.on('pageerror', (error) => errors.push(error.message));
    await dev.goto(`${portico.webUrl}/login`);
    await signInOnPage(dev, 'dana@example.com', 'dana-password-1');
    await dev.waitForURL((url) => !url.pathname.startsWith('/login'));

    await dev.goto(`${portico.webUrl}/management/applications`);
    await dev.waitForTimeout(500);
    expect(new URL(dev.url()).pathname).toBe('/management/applications');
    const menu = dev.getByRole('navigation', { name: 'Console menu' });
    await menu.getByRole('link', { name: 'Applications' }).waitFor();
    expect(await menu.getByRole('link', { name: 'APIs' }).count()).toBe(0);
    await screenshot(dev, 'settings-dev-mode-applications-en');

    await dev.goto(`${portico.webUrl}/management/tasks`);
    await dev.getByText('Congratulations, you have done all your tasks!').waitFor();
    expect(new URL(dev.url()).pathname).toBe('/management/tasks');

    // The rest of the console stays for administrators.
    await dev.goto(`${portico.webUrl}/management/apis`);
    await dev.waitForURL((url) => url.pathname === '/');
    await context.close();
    await saveSettings(portico, token, { portal: { devMode: { enabled: false } } });
  });
});
