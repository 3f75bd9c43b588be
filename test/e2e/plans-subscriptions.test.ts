import { beforeAll, describe, expect, it } from 'vitest';
import { settle, userMenu } from './support/app';
import { screenshot } from './support/browser';
import type { Portico } from './support/portico';
import type { ConsoleWorld } from './support/console-suite';
import { consoleSuite } from './support/console-suite';

/**
 * The console's plans, subscriptions, API keys, applications and My Tasks in a real browser against
 * `portico start`: a plan made with the wizard is published, an application created and subscribed from
 * the console, the subscription accepted from My Tasks, its key renewed and revoked; plans reordered by
 * drag and drop; a plan closed by typing its name.
 */
describe('plans and subscriptions in the console', () => {
  const suite = consoleSuite();
  const { api, createApi, adminOn, toast, main, dialog, inLanguage } = suite;
  let portico: Portico;
  beforeAll(() => {
    ({ portico } = suite.world satisfies ConsoleWorld);
  });

  it('publishes an API-key plan made with the wizard, subscribes an application, accepts it from My Tasks, renews and revokes its key', async () => {
    const { id: apiId } = await createApi('Orders', '/orders');
    const page = await adminOn(`/management/apis/${apiId}/plans`);
    await main(page).getByText('Plans will appear here').waitFor();
    await screenshot(page, 'plans-empty');

    // The wizard: Define.
    await main(page).getByRole('link', { name: 'Add a plan' }).first().click();
    await main(page).getByRole('heading', { name: 'New plan', level: 2 }).waitFor();
    await main(page).getByRole('button', { name: 'Next' }).click();
    await main(page).getByText('Name is required.').waitFor();
    await main(page).getByRole('textbox', { name: 'Name' }).fill('Gol');
    await main(page).getByText('The name has to be at least 4 characters long.').waitFor();
    await main(page).getByRole('textbox', { name: 'Name' }).fill('Gold plan');
    await main(page).getByRole('textbox', { name: 'Description' }).fill('For the partners of the shop');
    const characteristics = main(page).getByRole('combobox', { name: 'Characteristics' });
    await characteristics.fill('Support 24/7');
    await characteristics.press('Enter');
    await characteristics.fill('1000 calls a month');
    await characteristics.press('Enter');
    // The live preview follows the fields.
    const preview = main(page).getByRole('complementary', { name: 'Preview' });
    await preview.getByRole('heading', { name: 'Gold plan' }).waitFor();
    await preview.getByText('Support 24/7').waitFor();
    await main(page).getByRole('button', { name: 'Next' }).click();

    // Secure: API key, with the form of its configuration's schema.
    await main(page)
      .getByRole('radio', { name: /API key/ })
      .click();
    await main(page).getByRole('switch', { name: 'Send the API key to the backend' }).waitFor();
    await screenshot(page, 'plan-wizard-secure');
    await main(page).getByRole('button', { name: 'Next' }).click();

    // Restrictions: a rate limit and a quota, from their policies' schemas.
    await main(page)
      .getByRole('switch', { name: /Rate limiting/ })
      .click();
    const rate = main(page).getByRole('group', { name: 'Rate' });
    await rate.getByRole('textbox', { name: 'Limit' }).fill('10');
    await main(page)
      .getByRole('switch', { name: /^Quota/ })
      .click();
    const quota = main(page).getByRole('group', { name: 'Quota' });
    await quota.getByRole('textbox', { name: 'Limit' }).fill('1000');
    await preview.getByText('Rate limiting: 10 calls per 1 second').waitFor();
    await preview.getByText('Quota: 1000 calls per 1 month').waitFor();
    await screenshot(page, 'plan-wizard-restrictions');
    await main(page).getByRole('button', { name: 'Next' }).click();

    // Policies: a chain of one policy, described and configured.
    await main(page).getByRole('combobox', { name: 'Add a policy' }).click();
    await page.getByRole('option', { name: 'Transform headers' }).click();
    await main(page).getByRole('button', { name: 'Add', exact: true }).click();
    await main(page).getByRole('textbox', { name: 'Description' }).fill('Tells the backend who calls');
    const chainEnabled = main(page).getByRole('switch', { name: 'Transform headers enabled' });
    expect(await chainEnabled.isChecked()).toBe(true);
    await main(page).getByRole('group', { name: 'Add headers' }).getByRole('button', { name: 'Add' }).click();
    await main(page).getByRole('textbox', { name: /^Name/ }).last().fill('X-Partner');
    await main(page)
      .getByRole('textbox', { name: /^Value/ })
      .last()
      .fill('gold');
    await screenshot(page, 'plan-wizard-policies');
    await main(page).getByRole('button', { name: 'Save' }).click();

    await toast(page, 'The plan Gold plan has been saved successfully').waitFor();
    await page.waitForURL(/\/plans\?state=staging$/);
    const card = main(page)
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Gold plan' }) });
    await card.waitFor();
    // Staging plans are in italics.
    expect(await card.getByRole('heading').evaluate((h) => getComputedStyle(h).fontStyle)).toBe('italic');
    const [stored] = await api<{ security: string; validation: string; paths: Record<string, unknown[]> }[]>(
      'GET',
      `apis/${apiId}/plans`,
    );
    expect(stored!.security).toBe('API_KEY');
    expect(stored!.validation).toBe('MANUAL');
    expect(stored!.paths['/']).toEqual([
      {
        enabled: true,
        'rate-limit': expect.objectContaining({ rate: expect.objectContaining({ limit: 10 }) }),
      },
      { enabled: true, quota: expect.objectContaining({ quota: expect.objectContaining({ limit: 1000 }) }) },
      {
        enabled: true,
        description: 'Tells the backend who calls',
        'transform-headers': expect.objectContaining({ addHeaders: [{ name: 'X-Partner', value: 'gold' }] }),
      },
    ]);
    // The plan change puts the API out of sync.
    await main(page).getByText('API out of sync').waitFor();
    await screenshot(page, 'plans-staging');

    await card.getByRole('button', { name: 'Publish the plan Gold plan' }).click();
    await dialog(page).getByRole('button', { name: 'Publish' }).click();
    await toast(page, 'The plan Gold plan has been published').waitFor();
    await main(page)
      .getByRole('button', { name: /^Published/ })
      .click();
    await main(page).getByRole('heading', { name: 'Gold plan' }).waitFor();

    // An application, created in the console.
    await page
      .getByRole('navigation', { name: 'Console menu' })
      .getByRole('link', { name: 'Applications' })
      .click();
    await main(page).getByText('There is no application yet').waitFor();
    await screenshot(page, 'applications-empty');
    await main(page).getByRole('link', { name: 'Create an application' }).first().click();
    await main(page).getByRole('textbox', { name: 'Name' }).fill('Mobile app');
    await main(page).getByRole('textbox', { name: 'Description' }).fill('The shop on phones');
    await main(page).getByRole('textbox', { name: 'Client id' }).fill('mobile-app');
    await screenshot(page, 'application-create');
    await main(page).getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, 'Application Mobile app created').waitFor();
    await main(page).getByRole('heading', { name: 'Mobile app' }).waitFor();
    await screenshot(page, 'application-general');

    // Subscribed from the API's subscriptions: the API's publisher's subscription is accepted at once.
    await api('POST', 'applications', { name: 'Kiosk app', description: 'The shop in stores' });
    await page.goto(`${portico.webUrl}/management/apis/${apiId}/subscriptions`);
    await main(page).getByText('There is no subscription to show').waitFor();
    await main(page).getByRole('button', { name: 'Add a subscription' }).click();
    await dialog(page).getByRole('combobox', { name: 'Application' }).fill('Kiosk');
    await page.getByRole('option', { name: /Kiosk app/ }).click();
    await dialog(page)
      .getByRole('radio', { name: /Gold plan/ })
      .check();
    await screenshot(page, 'subscription-add');
    await dialog(page).getByRole('button', { name: 'Subscribe' }).click();
    await toast(page, 'A new subscription has been created').waitFor();
    await main(page).getByRole('heading', { name: 'Kiosk app on Gold plan' }).waitFor();
    await main(page).getByText('Accepted', { exact: true }).waitFor();

    // The application's side asks for one: pending, accepted from My Tasks; the avatar's badge counts it.
    const mobile = (await api<{ id: string; name: string }[]>('GET', 'applications')).find(
      (a) => a.name === 'Mobile app',
    )!;
    const gold = (await api<{ id: string; name: string }[]>('GET', `apis/${apiId}/plans`)).find(
      (p) => p.name === 'Gold plan',
    )!;
    await api('POST', `applications/${mobile.id}/subscriptions?plan=${gold.id}`);
    await page.goto(`${portico.webUrl}/management/apis/${apiId}/subscriptions`);
    await page.getByRole('banner').getByLabel('Tasks waiting: 1').waitFor();
    await userMenu(page).click();
    await page.getByRole('menuitem', { name: /Tasks/ }).click();
    await page.waitForURL(`${portico.webUrl}/management/tasks`);
    await main(page).getByText('Mobile app asks for the plan Gold plan').waitFor();
    await screenshot(page, 'tasks');
    await main(page).getByRole('button', { name: 'Accept Mobile app on Gold plan' }).click();
    await dialog(page).getByRole('textbox', { name: 'Message to the subscriber' }).fill('Welcome aboard');
    await dialog(page).getByRole('button', { name: 'Accept' }).click();
    await toast(page, 'The subscription has been accepted').waitFor();
    await main(page).getByText('Congratulations, you have done all your tasks!').waitFor();
    await screenshot(page, 'tasks-done');

    // The key, from the subscription's detail.
    await page.goto(`${portico.webUrl}/management/apis/${apiId}/subscriptions`);
    const row = main(page).getByRole('row').filter({ hasText: 'Mobile app' });
    await row.getByText('Accepted').waitFor();
    await screenshot(page, 'subscriptions-list');
    await row.getByRole('link', { name: 'Gold plan' }).click();
    await page.waitForURL(/\/subscriptions\/[^/?]+\?page=1&size=10&status=ACCEPTED%2CPENDING%2CPAUSED$/);
    await main(page).getByText('Welcome aboard').waitFor();
    const keys = main(page).getByRole('table', { name: 'API keys' });
    const keyCells = keys.getByTestId('api-key');
    await expect.poll(() => keyCells.count()).toBe(1);
    const first = (await keyCells.first().textContent())!;
    expect(first).toMatch(/^[\w-]{16,}$/);
    await keys.getByRole('button', { name: `Copy the API key ${first}` }).click();
    await toast(page, 'API Key has been copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
    await screenshot(page, 'subscription-detail');

    await main(page).getByRole('button', { name: 'Renew the key' }).click();
    await dialog(page).getByText('Are you sure you want to renew your API Key?').waitFor();
    await dialog(page).getByText('The previous key keeps working for 2 hours.').waitFor();
    await dialog(page).getByRole('button', { name: 'Renew' }).click();
    await toast(page, 'A new API Key has been generated').waitFor();
    await expect.poll(() => keyCells.count()).toBe(2);
    const renewed = (await keyCells.first().textContent())!;
    expect(renewed).not.toBe(first);
    // The previous key keeps working for 2 hours: still active, with its end date.
    const previousRow = keys.getByRole('row').filter({ hasText: first });
    await previousRow.getByText('Active', { exact: true }).waitFor();
    const storedKeys = await api<{ key: string; expire_at: number | null; revoked: boolean }[]>(
      'GET',
      `apis/${apiId}/subscriptions/${page.url().split('/subscriptions/')[1]!.split('?')[0]}/keys`,
    );
    const previous = storedKeys.find((k) => k.key === first)!;
    expect(previous.revoked).toBe(false);
    expect(previous.expire_at! - Date.now()).toBeGreaterThan(115 * 60_000);
    expect(previous.expire_at! - Date.now()).toBeLessThanOrEqual(120 * 60_000);

    await keys.getByRole('button', { name: `Revoke the API key ${first}` }).click();
    await dialog(page).getByText(`Are you sure you want to revoke API Key ${first}?`).waitFor();
    await dialog(page).getByRole('button', { name: 'Revoke' }).click();
    await toast(page, `API Key ${first} has been revoked !`).waitFor();
    await previousRow.getByText('Revoked', { exact: true }).waitFor();
    await keys.getByRole('row').filter({ hasText: renewed }).getByText('Active', { exact: true }).waitFor();
    await settle(page);
    await screenshot(page, 'subscription-keys-renewed-revoked');

    // Pausing the subscription pauses its key; closing it revokes the key.
    await main(page).getByRole('button', { name: 'Pause' }).click();
    await dialog(page)
      .getByText(/Its API keys are paused too/)
      .waitFor();
    await dialog(page).getByRole('button', { name: 'Pause' }).click();
    await toast(page, 'The subscription has been paused').waitFor();
    await keys.getByRole('row').filter({ hasText: renewed }).getByText('Paused', { exact: true }).waitFor();
    await main(page).getByRole('button', { name: 'Resume' }).click();
    await dialog(page).getByRole('button', { name: 'Resume' }).click();
    await toast(page, 'The subscription has been resumed').waitFor();
    await keys.getByRole('row').filter({ hasText: renewed }).getByText('Active', { exact: true }).waitFor();
    await main(page).getByRole('button', { name: 'Close', exact: true }).click();
    await dialog(page).getByRole('button', { name: 'Close', exact: true }).click();
    await toast(page, 'The subscription has been closed').waitFor();
    await main(page).getByText('Closed', { exact: true }).first().waitFor();
    await keys.getByRole('row').filter({ hasText: renewed }).getByText('Revoked', { exact: true }).waitFor();
    // A closed subscription offers no action any more.
    expect(await main(page).getByRole('button', { name: 'Renew the key' }).count()).toBe(0);

    // The same screens in French.
    await inLanguage(page, 'fr');
    await main(page).getByRole('heading', { name: 'Mobile app sur Gold plan' }).waitFor();
    await main(page).getByText('Fermé', { exact: true }).first().waitFor();
    await screenshot(page, 'subscription-detail-fr');
    await page.goto(`${portico.webUrl}/management/apis/${apiId}/plans`);
    await main(page).getByRole('heading', { name: 'Gold plan' }).waitFor();
    await screenshot(page, 'plans-published-fr');
    await main(page).getByRole('link', { name: 'Modifier le plan Gold plan' }).click();
    await main(page)
      .getByRole('button', { name: /Restrictions/ })
      .click();
    await main(page).getByRole('group', { name: 'Débit' }).waitFor();
    await screenshot(page, 'plan-wizard-restrictions-fr');
    await page.goto(`${portico.webUrl}/management/tasks`);
    await main(page).getByText('Félicitations, vous avez terminé toutes vos tâches !').waitFor();
    await page.goto(`${portico.webUrl}/management/applications`);
    await main(page).getByRole('link', { name: 'Mobile app' }).waitFor();
    await screenshot(page, 'applications-fr');
  }, 90_000);
});
