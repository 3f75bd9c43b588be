import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestOidcServer } from '../../packages/management/src/test-support/oidc';
import { startOidcServer } from '../../packages/management/src/test-support/oidc';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { Portico } from './support/portico';
import { startPortico } from './support/portico';

/**
 * Settings > Authentication (identity providers) and Settings > Client Registration, in the browser:
 * create and edit an OpenID Connect provider with a role mapping; turn client registration on and
 * create a provider against a real OpenID provider with dynamic registration.
 */
describe('settings: identity providers and client registration', () => {
  let portico: Portico;
  let browser: Browser;
  let page: Page;
  let op: TestOidcServer;

  beforeAll(async () => {
    op = await startOidcServer({
      configuration: {
        clients: [
          {
            client_id: 'registrar',
            client_secret: 'registrar-secret',
            grant_types: ['client_credentials'],
            redirect_uris: [],
            response_types: [],
          },
        ],
        features: {
          clientCredentials: { enabled: true },
          registration: { enabled: true },
          registrationManagement: { enabled: true },
        },
      },
    });
    process.env.PORTICO_OUTBOUND_ALLOWED = '127.0.0.1';
    [portico, browser] = await Promise.all([startPortico(), launchChromium()]);
    delete process.env.PORTICO_OUTBOUND_ALLOWED;
    page = await (await newContext(browser)).newPage();
    await page.goto(`${portico.webUrl}/login`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await portico?.stop();
    await op?.close();
  });

  async function inLanguage(language: string): Promise<void> {
    await page.evaluate((lang) => localStorage.setItem('portico.language', JSON.stringify(lang)), language);
    await page.reload();
    await settle(page);
  }

  it('creates an OpenID Connect provider from the menu, then adds a role mapping', async () => {
    await page.goto(`${portico.webUrl}/management/settings/identities`);
    await expect.poll(() => page.getByRole('heading', { name: 'Authentication' }).count()).toBe(1);
    await page.getByRole('button', { name: 'New identity provider' }).click();
    await page.getByRole('menuitem', { name: 'OpenID Connect' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Corporate SSO');
    await page.getByRole('textbox', { name: 'Client ID' }).fill('portal');
    await page.getByLabel('Client secret').fill('portal-secret');
    await page.getByRole('textbox', { name: 'Token endpoint', exact: true }).fill(`${op.issuer}/token`);
    await page.getByRole('textbox', { name: 'Authorize endpoint' }).fill(`${op.issuer}/auth`);
    await page.getByRole('textbox', { name: 'User info endpoint' }).fill(`${op.issuer}/me`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-identities-new-en');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Identity provider Corporate SSO has been created').waitFor();
    await page.waitForURL(/\/management\/settings\/identities\/corporate-sso$/);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Token exchange endpoint' }).inputValue())
      .toMatch(/\/management\/auth\/oauth2\/corporate-sso$/);

    await page.getByRole('button', { name: 'Add a role mapping' }).click();
    await page.getByRole('textbox', { name: 'Condition' }).fill("profile.email.endsWith('@corp.test')");
    await page.getByRole('combobox', { name: 'Management role' }).click();
    await page.getByRole('option', { name: 'API_PUBLISHER' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Identity provider Corporate SSO has been updated').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-identities-edit-en');

    await page.getByRole('link', { name: 'Back to identity providers' }).click();
    await page.getByRole('link', { name: 'corporate-sso' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-identities-list-en');
    await inLanguage('fr');
    await page.getByRole('heading', { name: 'Authentification' }).waitFor();
    await screenshot(page, 'settings-identities-list-fr');
    await inLanguage('en');
  });

  it('turns client registration on and creates a provider checked against the OpenID provider', async () => {
    await page.goto(`${portico.webUrl}/management/settings/client-registration`);
    await page.getByText('Client Registration providers will appear here').waitFor();
    await page.getByText('Start creating a client registration provider').waitFor();
    const flag = page.getByRole('checkbox', {
      name: 'Client registration for applications (OpenID Connect - Dynamic Client Registration)',
    });
    await flag.click();
    await page.getByText('Client registration is now mandatory').waitFor();
    await expect.poll(() => flag.isChecked()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-client-registration-empty-en');

    await page.getByRole('link', { name: 'New client registration provider' }).click();
    await page.getByRole('heading', { name: 'Create a new client registration provider' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('OP');
    await page.getByText('Name has to be more than 3 characters long.').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Corporate OP');
    await page
      .getByRole('textbox', { name: 'OIDC Discovery Endpoint' })
      .fill(`${op.issuer}/.well-known/openid-configuration`);
    await page.getByRole('textbox', { name: 'Client Id' }).fill('registrar');
    await page.getByLabel('Client Secret').fill('registrar-secret');
    const scopes = page.getByRole('combobox', { name: 'Scopes' });
    await scopes.fill('openid');
    await scopes.press('Enter');
    await scopes.press('Backspace');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-client-registration-new-en');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Client registration provider Corporate OP has been created').waitFor();
    await page.getByRole('heading', { name: 'Corporate OP' }).waitFor();

    await page.getByRole('link', { name: 'Back to client registration providers' }).click();
    await page.getByRole('link', { name: 'Corporate OP' }).waitFor();
    await expect
      .poll(() => page.getByRole('row').nth(1).textContent())
      .toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2}:\d{2} (AM|PM)/);
    await screenshot(page, 'settings-client-registration-list-en');
    await inLanguage('fr');
    await page.getByRole('heading', { name: 'Enregistrement des clients' }).waitFor();
    await screenshot(page, 'settings-client-registration-list-fr');
    await inLanguage('en');

    await page.getByRole('button', { name: 'Delete Corporate OP' }).click();
    await page.getByText('Are you sure you want to delete this client registration provider ?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText("Client registration provider 'Corporate OP' has been deleted").waitFor();
    await page.getByText('Client Registration providers will appear here').waitFor();
    expect(policyViolations).toEqual([]);
  });
});
