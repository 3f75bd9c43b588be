import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import type { Portico } from './support/portico';
import type { MailSink } from './support/mail-sink';
import { createActiveUser } from './support/portico';
import type { ConsoleWorld } from './support/console-suite';
import { consoleSuite } from './support/console-suite';

/**
 * The members of an application in the console, in a real browser against `portico start`: one added,
 * its role changed, then removed; in French too.
 */
describe('application members in the console', () => {
  const suite = consoleSuite();
  const { api, adminOn, toast, main, dialog, inLanguage } = suite;
  let portico: Portico;
  let sink: MailSink;
  let token: string;
  beforeAll(() => {
    ({ portico, sink, token } = suite.world satisfies ConsoleWorld);
  });

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
});
