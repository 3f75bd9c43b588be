import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousA11yViolations } from './support/app';
import { screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';

/**
 * Broadcast messages (console-applications-and-settings.md 2.2 and 5, console-apis.md 7): the
 * platform's Messages screen and an API's, their rules, and a message really reaching its recipients
 * (the administrator's own notifications in the top bar).
 */
describe('messages', () => {
  const suite = consoleSuite();
  const { api, createApi, publishedPlan, adminOn, toast, main, inLanguage } = suite;
  let apiId = '';

  beforeAll(async () => {
    ({ id: apiId } = await createApi('Weather', '/weather-messages'));
    const plan = await publishedPlan(apiId, 'Gold');
    const app = await api<{ id: string }>('POST', 'applications', {
      name: 'Forecast app',
      description: 'Phone',
    });
    const subscription = await api<{ id: string }>(
      'POST',
      `applications/${app.id}/subscriptions?plan=${plan.id}`,
      { request: 'please' },
    );
    await api('POST', `apis/${apiId}/subscriptions/${subscription.id}/_process`, { accepted: true });
  });

  const pickRole = async (page: Page, role: string) => {
    await main(page)
      .getByLabel(/^Recipients/)
      .click();
    await page.getByRole('option', { name: role, exact: true }).click();
    await page.keyboard.press('Escape');
  };
  const notificationsOf = async () =>
    (await api<{ content?: { title: string; message: string }[] } | { title: string; message: string }[]>(
      'GET',
      'user/notifications',
    )) as unknown;

  it('checks the rules as one types, then tells the holders of a platform role in the portal', async () => {
    const page = await adminOn('/management/messages');
    await main(page).getByRole('heading', { name: 'Send a message' }).waitFor();
    const send = main(page).getByRole('button', { name: 'Send' });
    expect(await send.isDisabled()).toBe(true);
    await main(page)
      .getByRole('textbox', { name: /^Title/ })
      .fill('Maintenance');
    await send.click();
    await main(page).getByText('Select at least one role.').waitFor();
    await main(page).getByText('This field is required.').waitFor(); // the text

    await pickRole(page, 'ADMIN');
    await main(page)
      .getByRole('textbox', { name: /^Title/ })
      .fill('Maintenance tonight');
    await main(page)
      .getByRole('textbox', { name: /^Text/ })
      .fill('The portal stops at 22:00 <script>alert(1)</script>');
    await screenshot(page, 'messages-platform-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await send.click();
    await toast(page, '1 message has been sent.').waitFor();
    expect(JSON.stringify(await notificationsOf())).toContain('Maintenance tonight');

    await page.reload();
    await page.getByRole('button', { name: /^Notifications: [1-9]/ }).click();
    await page.getByText('Maintenance tonight').waitFor();
    await page.getByText('The portal stops at 22:00 <script>alert(1)</script>').waitFor();
  });

  it('a message arriving while the console is open raises a desktop notification and shows in the top bar', async () => {
    const page = await adminOn('/management/messages');
    // The browser's Notification, recorded: a headless browser shows none to look at.
    await page.addInitScript(() => {
      const raised: { title: string; body?: string }[] = [];
      class RecordedNotification {
        static permission = 'granted';
        static requestPermission = () => Promise.resolve('granted');
        constructor(title: string, options?: { body?: string }) {
          raised.push({ title, body: options?.body });
        }
      }
      Object.assign(window, { Notification: RecordedNotification, raisedNotifications: raised });
    });
    // The reloaded page's first count: waited for once the old page is gone, whose poll could answer first.
    await page.reload({ waitUntil: 'commit' });
    await page.waitForResponse((r) => r.url().includes('/user/notifications'));
    await api('POST', 'messages', {
      channel: 'PORTAL',
      title: 'Gateway upgrade',
      text: 'The gateways restart at noon',
      recipient: { role_scope: 'MANAGEMENT', role_value: ['ADMIN'] },
    });
    const raised = () =>
      page.evaluate(() => (window as unknown as { raisedNotifications: unknown[] }).raisedNotifications);
    await expect
      .poll(raised, { timeout: 25_000 })
      .toEqual([{ title: 'Gateway upgrade', body: 'The gateways restart at noon' }]);
    await page.getByRole('button', { name: /^Notifications: [1-9]/ }).click();
    await page.getByRole('dialog').getByText('The gateways restart at noon').waitFor();
    await screenshot(page, 'user-notifications-menu-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('asks for a URL for an HTTP message and reports a refused one', async () => {
    const page = await adminOn('/management/messages');
    await main(page)
      .getByLabel(/^Channel/)
      .click();
    await page.getByRole('option', { name: 'POST HTTP message' }).click();
    expect(
      await main(page)
        .getByLabel(/^Recipients/)
        .count(),
    ).toBe(0);
    await main(page).getByRole('button', { name: 'Add a header' }).click();
    await main(page).getByRole('textbox', { name: 'Header name' }).fill('X-Team');
    await main(page).getByRole('textbox', { name: 'Header value' }).fill('ops');
    await main(page).getByRole('textbox', { name: /^Text/ }).fill('Deploy done');
    await main(page).getByRole('button', { name: 'Send' }).click();
    await main(page).getByText('This field is required.').waitFor();
    // Loopback is a private address: the outbound guard refuses it.
    await main(page).getByRole('textbox', { name: /^URL/ }).fill('http://127.0.0.1:9/hook');
    await screenshot(page, 'messages-http-en');
    await main(page).getByRole('button', { name: 'Send' }).click();
    await toast(page, /could not be fetched/).waitFor();
  });

  it("tells the members of the API's consumers from the API's Messages screen", async () => {
    const page = await adminOn(`/management/apis/${apiId}/portal`);
    await page.locator(`a[href$="/apis/${apiId}/messages"]`).click();
    await page.waitForURL(/\/messages$/);
    await main(page).getByText('Tell the members of the applications subscribed to this API').waitFor();
    await pickRole(page, 'PRIMARY_OWNER');
    await main(page)
      .getByRole('textbox', { name: /^Title/ })
      .fill('${api.name} moves');
    await main(page)
      .getByRole('textbox', { name: /^Text/ })
      .fill('Version ${api.version} of ${api.name} changes');
    await main(page).getByRole('button', { name: 'Send' }).click();
    await toast(page, '1 message has been sent.').waitFor();
    expect(JSON.stringify(await notificationsOf())).toContain('Weather moves');
    await screenshot(page, 'messages-api-en');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('reads in French', async () => {
    const page = await adminOn('/management/messages');
    await inLanguage(page, 'fr');
    await main(page).getByRole('heading', { name: 'Envoyer un message' }).waitFor();
    await main(page)
      .getByLabel(/^Canal/)
      .waitFor();
    await screenshot(page, 'messages-platform-fr');
  });
});
