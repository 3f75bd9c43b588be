import { beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/app';
import { screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';

/**
 * Notification settings and alerts screens (console-apis.md 2.11, console-applications-and-settings.md
 * 2.1, 2.3, 5 and 8): a webhook notification made and kept through an API's screen, an alert refused
 * with a threshold out of its bounds then saved, and the platform's screen under Settings.
 */
describe('notification settings and alerts', () => {
  const suite = consoleSuite();
  const { api, createApi, adminOn, toast, main, dialog, inLanguage } = suite;
  let apiId = '';

  beforeAll(async () => {
    ({ id: apiId } = await createApi('Weather', '/weather-notifications'));
  });

  it("creates a webhook notification with hooks on an API's screen and keeps it", async () => {
    const page = await adminOn(`/management/apis/${apiId}/portal`);
    await page.locator(`a[href$="/apis/${apiId}/notifications"]`).click();
    await page.waitForURL(/\/notifications/);
    await main(page).getByRole('heading', { name: 'Portal notification' }).waitFor();

    await main(page).getByRole('button', { name: 'New notification' }).click();
    await dialog(page).getByRole('button', { name: 'Create' }).click();
    await dialog(page).getByText('The name is required.').waitFor();
    await dialog(page).getByText('The notifier is required.').waitFor();
    await dialog(page).getByRole('textbox', { name: /^Name/ }).fill('Ops webhook');
    await dialog(page)
      .getByLabel(/^Notifier/)
      .click();
    await page.getByRole('option', { name: /Webhook/ }).click();
    await dialog(page).getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/notificationId=/);
    await main(page).getByRole('heading', { name: 'Ops webhook' }).waitFor();

    await main(page)
      .getByRole('checkbox', { name: /^New Subscription/ })
      .check();
    await main(page).getByRole('button', { name: 'Save' }).click();
    await main(page).getByText('This field is required.').waitFor();
    await main(page)
      .getByRole('textbox', { name: /^Webhook URL/ })
      .fill('https://hooks.example.com/portico');
    await main(page).getByRole('checkbox', { name: 'Use system proxy' }).check();
    await screenshot(page, 'notification-settings-webhook-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await main(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Notifications saved with success').waitFor();

    await page.reload();
    await main(page).getByRole('heading', { name: 'Ops webhook' }).waitFor();
    expect(
      await main(page)
        .getByRole('checkbox', { name: /^New Subscription/ })
        .isChecked(),
    ).toBe(true);
    expect(
      await main(page)
        .getByRole('textbox', { name: /^Webhook URL/ })
        .inputValue(),
    ).toBe('https://hooks.example.com/portico');
    expect(await main(page).getByRole('checkbox', { name: 'Use system proxy' }).isChecked()).toBe(true);
    const settings = await api<{ name: string; notifier?: string; hooks: string[]; config?: string }[]>(
      'GET',
      `apis/${apiId}/notificationsettings`,
    );
    const saved = settings.find((s) => s.name === 'Ops webhook');
    expect(saved?.hooks).toEqual(['SUBSCRIPTION_NEW']);
    expect(saved?.config).toBe('https://hooks.example.com/portico');

    // The user's own portal notification (the API's owner has every hook): hooks only, no config.
    await main(page)
      .getByRole('link', { name: /Portal notification/ })
      .click();
    // The owner's portal notification has every hook: its form is shown once API Stopped is ticked.
    const apiStopped = main(page).getByRole('checkbox', { name: /^API Stopped/ });
    await expect.poll(() => apiStopped.isChecked()).toBe(true);
    await apiStopped.uncheck();
    await main(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Notifications saved with success').nth(0).waitFor();
    await expect
      .poll(
        async () => (await api<{ hooks: string[] }[]>('GET', `apis/${apiId}/notificationsettings`))[0]?.hooks,
      )
      .not.toContain('API_STOPPED');

    // Deleting asks first ('Warning').
    await main(page)
      .getByRole('link', { name: /Ops webhook/ })
      .click();
    await main(page).getByRole('button', { name: 'Delete' }).click();
    await dialog(page).getByText('Are you sure you want to remove this notification?').waitFor();
    expect(await dialog(page).getByRole('heading', { name: 'Warning' }).count()).toBe(1);
    await screenshot(page, 'notification-settings-delete-en');
    await dialog(page).getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Notification deleted with success').waitFor();
    await expect
      .poll(async () =>
        (await api<{ name: string }[]>('GET', `apis/${apiId}/notificationsettings`)).map((s) => s.name),
      )
      .not.toContain('Ops webhook');
  });

  it('refuses an alert whose percent rate is over 100, then creates a valid one', async () => {
    const page = await adminOn(`/management/apis/${apiId}/notifications?alertId=new`);
    await main(page).getByRole('heading', { name: 'New alert' }).waitFor();
    await main(page).getByRole('button', { name: 'Save' }).click();
    await main(page).getByText('The name is required.').waitFor();
    await main(page).getByText('The metric is required.').waitFor();

    await main(page).getByRole('textbox', { name: /^Name/ }).fill('Too many errors');
    await main(page)
      .getByLabel(/^Metric/)
      .click();
    await page.getByRole('option', { name: 'Server errors (5xx)' }).click();
    await main(page)
      .getByLabel(/^Threshold type/)
      .click();
    await page.getByRole('option', { name: 'Percent rate' }).click();
    await main(page)
      .getByRole('textbox', { name: /^Threshold$|^Threshold \*/ })
      .fill('101');
    await main(page).getByRole('button', { name: 'Save' }).click();
    await main(page).getByText('A percent rate is between 0 and 100.').waitFor();
    await screenshot(page, 'notification-settings-alert-errors-en');
    expect((await api<unknown[]>('GET', `apis/${apiId}/alerts`)).length).toBe(0);

    await main(page)
      .getByRole('textbox', { name: /^Threshold$|^Threshold \*/ })
      .fill('20');
    await main(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Alert Too many errors saved').waitFor();
    await page.waitForURL(/alertId=(?!new)/);
    const alerts = await api<{ name: string; threshold: number; thresholdType: string; state: string }[]>(
      'GET',
      `apis/${apiId}/alerts`,
    );
    expect(alerts).toMatchObject([
      { name: 'Too many errors', threshold: 20, thresholdType: 'percent_rate', state: 'OK' },
    ]);
    const listed = main(page)
      .getByRole('navigation', { name: 'Alerts' })
      .getByRole('link', {
        name: /Too many errors/,
      });
    await listed.waitFor();
    expect(await listed.textContent()).toContain('OK');
    await main(page).getByText('The alert has not been triggered yet.').waitFor();
    await screenshot(page, 'notification-settings-alert-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("shows an application's notifications, whose alerts watch requests only", async () => {
    const app = await api<{ id: string }>('POST', 'applications', {
      name: 'Forecast app',
      description: 'Phone',
    });
    const page = await adminOn(`/management/applications/${app.id}`);
    await page.locator(`a[href$="/applications/${app.id}/notifications"]`).click();
    await main(page).getByRole('heading', { name: 'Portal notification' }).waitFor();
    await main(page).getByRole('link', { name: 'New alert' }).click();
    await main(page).getByRole('heading', { name: 'New alert' }).waitFor();
    await main(page).getByLabel(/^Type/).click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['Request']);
    await page.keyboard.press('Escape');
    expect(await main(page).getByLabel(/^Plan/).count()).toBe(0);
    await screenshot(page, 'notification-settings-application-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows the platform notifications under Settings, in French too', async () => {
    const page = await adminOn('/management/settings/notifications');
    await main(page).getByRole('heading', { name: 'Notifications and alerts' }).waitFor();
    await main(page).getByRole('heading', { name: 'Portal notification' }).waitFor();
    await screenshot(page, 'notification-settings-platform-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await inLanguage(page, 'fr');
    await main(page).getByRole('heading', { name: 'Notifications et alertes' }).waitFor();
    await screenshot(page, 'notification-settings-platform-fr');
  });
});
