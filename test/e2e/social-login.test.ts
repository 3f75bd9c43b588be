import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { connect, insertIdentityProvider } from '@portico/storage';
import { userMenu } from './support/app';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { Portico } from './support/portico';
import { freePort, startPortico } from './support/portico';

/**
 * Sign-in with a social identity provider, in the browser: the login page's provider button, the
 * provider's own login and consent screens (a real OpenID provider), back to Portico signed in.
 */
describe('social sign-in', () => {
  let portico: Portico;
  let browser: Browser;
  let server: http.Server;

  beforeAll(async () => {
    const webPort = await freePort();
    const webUrl = `http://localhost:${webPort}`;
    server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'portico-portal',
          client_secret: 'portal-secret',
          redirect_uris: [`${webUrl}/login`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      claims: { openid: ['sub'], email: ['email'], profile: ['given_name', 'family_name'] },
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        claims: async () => ({ sub, email: `${sub}@corp.test`, given_name: 'Grace', family_name: 'Hopper' }),
      }),
      pkce: { required: () => false },
    });
    server.on('request', provider.callback());

    [portico, browser] = await Promise.all([startPortico({ webPort }), launchChromium()]);
    const storage = connect({ dataDir: portico.dataDir });
    const now = Date.now();
    await insertIdentityProvider(storage.db, {
      id: 'corp',
      type: 'oidc',
      name: 'Corp SSO',
      description: null,
      enabled: 1,
      email_required: 1,
      configuration: JSON.stringify({
        clientId: 'portico-portal',
        clientSecret: 'portal-secret',
        authorizeEndpoint: `${issuer}/auth`,
        tokenEndpoint: `${issuer}/token`,
        userInfoEndpoint: `${issuer}/me`,
        scopes: ['openid', 'email', 'profile'],
      }),
      group_mappings: '[]',
      role_mappings: '[]',
      user_profile_mapping: '{}',
      created_at: now,
      updated_at: now,
    });
    await storage.close();
  });

  // The web server's Content-Security-Policy blocks nothing the app does.
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await portico?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  it('signs in through the provider button and comes back signed in', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${portico.webUrl}/login`);
    const button = page.getByRole('button', { name: /Corp SSO/ });
    await button.waitFor({ timeout: 15_000 });
    await screenshot(page, 'social-login-buttons');
    await button.click();
    // The provider's own screens.
    await page.locator('input[name="login"]').fill('grace');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    // The provider's consent screen, once the login screen has gone.
    await page.getByRole('button', { name: 'Continue' }).click({ timeout: 15_000 });
    await userMenu(page).waitFor({ timeout: 15_000 });
    expect(await userMenu(page).getAttribute('aria-label')).toContain('Grace Hopper');
    await screenshot(page, 'social-login-signed-in');
    await context.close();
  });
});
