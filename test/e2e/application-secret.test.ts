import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import type { ConsoleWorld } from './support/console-suite';
import { consoleSuite } from './support/console-suite';
import { seriousA11yViolations } from './support/app';

interface OAuthApplication {
  id: string;
  settings: { oauth: { client_id: string; client_secret: string } };
}

/**
 * The client credentials of an OAuth application in the console, in a real browser against
 * `portico start`: the secret is renewed from the general page (`POST applications/{id}/renew_secret`).
 */
describe('client secret of an application in the console', () => {
  const suite = consoleSuite();
  const { api, adminOn, toast, main, dialog, inLanguage } = suite;
  beforeAll(() => {
    suite.world satisfies ConsoleWorld;
  });

  it('renews the client secret after a confirmation; the old one is gone; in French too', async () => {
    // Without a provider, the platform generates the credentials of BROWSER, WEB and NATIVE applications.
    await api('POST', 'portal', { application: { registration: { enabled: true } } });
    const application = await api<OAuthApplication>('POST', 'applications', {
      name: 'Single page shop',
      description: 'The shop in the browser',
      settings: {
        oauth: {
          application_type: 'BROWSER',
          grant_types: ['implicit'],
          redirect_uris: ['https://shop.example/callback'],
        },
      },
    });
    const before = application.settings.oauth.client_secret;
    const page = await adminOn(`/management/applications/${application.id}`);
    await main(page).getByText(before).waitFor();

    await main(page).getByRole('button', { name: 'Renew the client secret' }).click();
    await dialog(page).getByText('the current one stops working at once').waitFor();
    await page.waitForTimeout(400); // the dialog's opening transition, which axe would read as low contrast
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog(page).getByRole('button', { name: 'Renew the client secret' }).click();
    await toast(page, 'The client secret has been renewed').waitFor();

    const after = await api<OAuthApplication>('GET', `applications/${application.id}`);
    expect(after.settings.oauth.client_secret).not.toBe(before);
    await main(page).getByText(after.settings.oauth.client_secret).waitFor();
    await main(page).getByText(before).waitFor({ state: 'detached' });
    await screenshot(page, 'application-secret');

    await inLanguage(page, 'fr');
    await main(page).getByRole('button', { name: 'Renouveler le secret client' }).waitFor();
    await screenshot(page, 'application-secret-fr');
    await inLanguage(page, 'en');
    await api('POST', 'portal', { application: { registration: { enabled: false } } });
  }, 60_000);
});
