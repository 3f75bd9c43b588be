import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { focused, settle, signInOnPage, userMenu } from './support/app';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { Portico } from './support/portico';
import type { MailSink } from './support/mail-sink';
import { startMailSink } from './support/mail-sink';
import { adminToken, createActiveUser, startPortico } from './support/portico';

/**
 * The console's plans, subscriptions, API keys, applications and My Tasks in a real browser against
 * `portico start`: a plan made with the wizard is published, an application created and subscribed from
 * the console, the subscription accepted from My Tasks, its key renewed and revoked; plans reordered by
 * drag and drop; a plan closed by typing its name.
 */
describe('plans and subscriptions in the console', () => {
  let portico: Portico;
  let sink: MailSink;
  let browser: Browser;
  let token: string;
  const contexts: BrowserContext[] = [];

  /** A call of the management API as the administrator (to prepare data and check what was stored). */
  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${portico.apiUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const createApi = (name: string, contextPath: string) =>
    api<{ id: string }>('POST', 'apis', {
      name,
      version: '1.0',
      description: `${name} of the shop`,
      context_path: contextPath,
      endpoint: 'http://localhost:9/backend',
    });

  const publishedPlan = (apiId: string, name: string) =>
    api<{ id: string }>('POST', `apis/${apiId}/plans`, {
      name,
      description: `The ${name} plan`,
      security: 'API_KEY',
      status: 'PUBLISHED',
      characteristics: [`${name} support`],
    });

  beforeAll(async () => {
    sink = await startMailSink();
    [portico, browser] = await Promise.all([startPortico({ smtpUrl: sink.url }), launchChromium()]);
    token = await adminToken(portico);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    await browser?.close();
    await portico?.stop();
  });

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

  /** A signed-in administrator on `path`. */
  async function adminOn(path: string): Promise<Page> {
    const context = await newContext(browser);
    contexts.push(context);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portico.webUrl });
    const page = await context.newPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=${encodeURIComponent(path)}`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}${path}`);
    return page;
  }

  const toast = (page: Page, text: string | RegExp) =>
    page.getByRole('alert').filter({ hasText: text }).first();
  const main = (page: Page) => page.getByRole('main');
  const dialog = (page: Page) => page.getByRole('dialog');

  /** Sets the language (remembered by the app) and reloads the page. */
  async function inLanguage(page: Page, language: string): Promise<void> {
    await page.evaluate((lang) => localStorage.setItem('portico.language', JSON.stringify(lang)), language);
    await page.reload();
    await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
  }

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

  it("manages an application's members: adds one, changes its role, removes it; in French too", async () => {
    const application = await api<{ id: string }>('POST', 'applications', {
      name: 'Team dashboard',
      description: 'The team dashboard',
    });
    await createActiveUser(portico, token, sink, {
      firstname: 'Alan',
      lastname: 'Turing',
      email: 'alan@example.com',
      password: 'enigma-1936',
    });
    const page = await adminOn(`/management/applications/${application.id}/members`);
    await main(page).getByText('Primary owner').waitFor();

    await main(page).getByRole('button', { name: 'Add members' }).click();
    const adding = page.getByRole('dialog', { name: 'Add members' });
    await adding
      .getByRole('textbox', { name: 'Users' })
      .or(adding.getByRole('combobox', { name: 'Users' }))
      .fill('ala');
    await page.getByRole('option', { name: /Alan Turing/ }).click();
    await adding.getByRole('button', { name: 'Add' }).click();
    await toast(page, 'User Alan Turing has been added as a member').waitFor();

    await main(page)
      .getByRole('textbox', { name: 'Role of Alan Turing' })
      .or(main(page).getByRole('combobox', { name: 'Role of Alan Turing' }))
      .click();
    await page.getByRole('option', { name: 'OWNER' }).click();
    await toast(page, 'Member Alan Turing updated').waitFor();
    const members = await api<{ displayName: string; role: string }[]>(
      'GET',
      `applications/${application.id}/members`,
    );
    expect(members.find((m) => m.displayName === 'Alan Turing')?.role).toBe('OWNER');
    await main(page)
      .getByRole('switch', { name: /groups/ })
      .check();
    await main(page)
      .getByText('The groups of the application have no member with an application role.')
      .waitFor();
    await screenshot(page, 'application-members');

    await inLanguage(page, 'fr');
    await main(page).getByText('Propriétaire principal').waitFor();
    await screenshot(page, 'application-members-fr');
    await inLanguage(page, 'en');

    await main(page).getByRole('button', { name: 'Remove Alan Turing' }).click();
    await dialog(page).getByRole('button', { name: 'Remove' }).click();
    await toast(page, 'Member Alan Turing removed').waitFor();
    await main(page).getByText('Alan Turing').waitFor({ state: 'detached' });
  }, 60_000);

  it('reorders the published plans by dragging them, and by keyboard', async () => {
    const { id: apiId } = await createApi('Catalog', '/catalog');
    for (const name of ['Bronze', 'Silver', 'Platinum']) await publishedPlan(apiId, name);
    const page = await adminOn(`/management/apis/${apiId}/plans`);
    const names = () => main(page).getByRole('listitem').getByRole('heading').allTextContents();
    await expect.poll(names).toEqual(['Bronze', 'Silver', 'Platinum']);
    await screenshot(page, 'plans-published');

    // Platinum, dragged by its handle above Bronze.
    const handle = (name: string) => main(page).getByRole('button', { name: `Move the plan ${name}` });
    await handle('Bronze').evaluate((element) => element.scrollIntoView({ block: 'center' }));
    const from = (await handle('Platinum').boundingBox())!;
    const to = (await handle('Bronze').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 10, { steps: 15 });
    await page.mouse.up();
    await toast(page, 'Plans reordered successfully').waitFor();
    await expect.poll(names).toEqual(['Platinum', 'Bronze', 'Silver']);
    const order = async () =>
      (await api<{ name: string; order: number }[]>('GET', `apis/${apiId}/plans`))
        .sort((a, b) => a.order - b.order)
        .map((p) => p.name);
    expect(await order()).toEqual(['Platinum', 'Bronze', 'Silver']);

    // The handles are reached with the keyboard, with a visible focus.
    await main(page)
      .getByRole('button', { name: /^Closed/ })
      .focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ label: 'Move the plan Platinum', visible: true });

    // The keyboard: Space lifts the focused handle, the arrows move it, Space drops it.
    await handle('Silver').focus();
    for (const key of ['Space', 'ArrowUp', 'Space']) {
      await page.keyboard.press(key);
      await page.waitForTimeout(150);
    }
    await expect.poll(order).toEqual(['Platinum', 'Silver', 'Bronze']);
    await page.reload();
    await expect.poll(names).toEqual(['Platinum', 'Silver', 'Bronze']);
    await screenshot(page, 'plans-reordered');
  });

  it('closes a plan once its name is typed, and shows it struck through under Closed', async () => {
    const { id: apiId } = await createApi('Invoices', '/invoices');
    await publishedPlan(apiId, 'Legacy');
    const page = await adminOn(`/management/apis/${apiId}/plans`);
    await main(page).getByRole('button', { name: 'Close the plan Legacy' }).click();
    const confirm = dialog(page).getByRole('button', { name: 'Close the plan' });
    const typed: Locator = dialog(page).getByRole('textbox', { name: 'Type Legacy to confirm' });
    await dialog(page)
      .getByText(/Closing Legacy is final/)
      .waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await typed.fill('legacy');
    expect(await confirm.isDisabled()).toBe(true);
    await typed.fill('Legacy');
    expect(await confirm.isEnabled()).toBe(true);
    await screenshot(page, 'plan-close-typed');
    await confirm.click();
    await toast(page, 'The plan Legacy has been closed').waitFor();
    await main(page).getByText('Plans will appear here').waitFor();
    await main(page)
      .getByRole('button', { name: /^Closed/ })
      .click();
    const heading = main(page).getByRole('heading', { name: 'Legacy' });
    expect(await heading.evaluate((h) => getComputedStyle(h).textDecorationLine)).toBe('line-through');
    // A closed plan is not edited, published nor closed again.
    expect(await main(page).getByRole('link', { name: 'Edit the plan Legacy' }).count()).toBe(0);
    expect(await main(page).getByRole('button', { name: 'Close the plan Legacy' }).count()).toBe(0);
    const [plan] = await api<{ status: string }[]>('GET', `apis/${apiId}/plans`);
    expect(plan!.status).toBe('CLOSED');
    await screenshot(page, 'plans-closed');
  });
});
