import { describe, expect, it } from 'vitest';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { newContext, screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { adminToken, createActiveUser } from './support/portico';

/**
 * Settings > User Management > Groups in a real browser against `portico start` with a real SMTP
 * server: create a group with an event rule, add a member found by search, invite by mail (the link
 * finishes an account that joins the group), a new API attached by the rule and seen by the members;
 * in English and French.
 */
describe('settings: groups', () => {
  const { world, api, createApi, adminOn, toast, main, dialog, inLanguage } = consoleSuite();
  let groupId = '';

  it('creates a group, adds a member, invites by mail; the invited person joins by finishing the account', async () => {
    await createActiveUser(world.portico, world.token, world.sink, {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      password: 'analytical-engine',
    });
    const page = await adminOn('/management/settings/groups');
    await main(page).getByRole('heading', { name: 'Groups' }).waitFor();
    await main(page).getByRole('link', { name: 'New group' }).click();
    await main(page).getByRole('heading', { name: 'Create a new group' }).waitFor();
    const create = main(page).getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    await main(page).getByRole('textbox', { name: 'Name' }).fill('x'.repeat(51));
    await main(page).getByRole('textbox', { name: 'Name' }).blur();
    await main(page).getByText('The group name has to be less than 50 characters long.').waitFor();
    await main(page).getByRole('textbox', { name: 'Name' }).fill('Partners');
    await main(page).getByRole('tab', { name: 'Associations' }).click();
    await main(page).getByRole('checkbox', { name: 'API (when an API is created)' }).check();
    await main(page).getByRole('tab', { name: 'Roles and Members' }).click();
    await main(page).getByRole('textbox', { name: 'Max members' }).fill('10');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-group-new');
    await create.click();
    await toast(page, 'Group Partners has been created').waitFor();
    await page.waitForURL(/\/settings\/groups\/[\w-]+$/);
    groupId = page.url().split('/').pop()!;
    const stored = await api<{ event_rules: { event: string }[]; max_invitation: number }>(
      'GET',
      `configuration/groups/${groupId}`,
    );
    expect(stored).toMatchObject({ event_rules: [{ event: 'API_CREATE' }], max_invitation: 10 });

    // Dependents > Members: add Ada found by search, with an API role.
    await main(page).getByRole('tab', { name: 'Dependents' }).click();
    await main(page).getByText('Members will appear here').waitFor();
    await main(page).getByRole('button', { name: 'Add members' }).click();
    await dialog(page).getByRole('textbox', { name: 'Users' }).fill('Ada');
    await page.getByRole('option', { name: /Ada Lovelace/ }).click();
    await dialog(page).getByText('Select at least one role').waitFor();
    await dialog(page).getByRole('combobox', { name: 'API role' }).click();
    await page.getByRole('option', { name: 'OWNER', exact: true }).click();
    await settle(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-group-add-member');
    await dialog(page).getByRole('button', { name: 'Add', exact: true }).click();
    await toast(page, 'Members have been added').waitFor();
    await main(page).getByRole('cell', { name: 'OWNER' }).waitFor();

    // Invite by mail: the mail goes out, the invitation waits.
    await main(page).getByRole('button', { name: 'Invite member' }).click();
    await dialog(page).getByRole('textbox', { name: 'Email' }).fill('grace@example.com');
    await dialog(page).getByRole('button', { name: 'Send the invitation' }).click();
    await toast(page, 'An invitation has been sent to grace@example.com').waitFor();
    await main(page).getByRole('cell', { name: 'grace@example.com', exact: true }).waitFor();
    await main(page).getByText('Members and invitations: 2 of 10').waitFor();
    await dialog(page).waitFor({ state: 'hidden' });
    await settle(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-group-members');

    const mail = await world.sink.waitForMail('grace@example.com', /Group invitation - Partners/);
    const link = /https?:\/\/\S+\/registration\/confirm\/[\w.-]+/.exec(mail.text ?? '')?.[0];
    expect(link!.startsWith(`${world.portico.webUrl}/registration/confirm/`)).toBe(true);
    const visitor = await (await newContext(world.browser)).newPage();
    await visitor.goto(link!);
    await expect
      .poll(() => visitor.getByRole('textbox', { name: 'Email' }).inputValue(), { timeout: 10_000 })
      .toBe('grace@example.com');
    await visitor.getByRole('textbox', { name: 'First name' }).fill('Grace');
    await visitor.getByRole('textbox', { name: 'Last name' }).fill('Hopper');
    await visitor.getByRole('textbox', { name: 'Password', exact: true }).fill('cobol-1959');
    await visitor.getByRole('textbox', { name: 'Confirm the password' }).fill('cobol-1959');
    await visitor.getByRole('button', { name: 'Create my account' }).click();
    await visitor.waitForURL(`${world.portico.webUrl}/login`);
    await signInOnPage(visitor, 'grace@example.com', 'cobol-1959');
    await visitor.waitForURL(`${world.portico.webUrl}/`);

    const members = await api<{ displayName: string; roles: Record<string, string> }[]>(
      'GET',
      `configuration/groups/${groupId}/members`,
    );
    expect(members.map((m) => m.displayName).sort()).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(await api<unknown[]>('GET', `configuration/groups/${groupId}/invitations`)).toEqual([]);
    await page.reload();
    await main(page).getByRole('tab', { name: 'Dependents' }).click();
    await main(page).getByRole('cell', { name: 'Grace Hopper', exact: true }).waitFor();
  });

  it('attaches a new API to the group by its rule; the members see it and the API form offers the group', async () => {
    const created = await createApi('Grouped API', '/grouped');
    const adaToken = await adminToken(world.portico, 'ada@example.com', 'analytical-engine');
    const apis = await fetch(`${world.portico.apiUrl}apis`, {
      headers: { Authorization: `Bearer ${adaToken}` },
    });
    expect(((await apis.json()) as { id: string }[]).map((a) => a.id)).toContain(created.id);

    const page = await adminOn(`/management/settings/groups/${groupId}`);
    await main(page).getByRole('tab', { name: 'Dependents' }).click();
    await main(page).getByRole('tab', { name: 'APIs' }).click();
    await main(page).getByRole('link', { name: 'Grouped API' }).waitFor();
    await screenshot(page, 'settings-group-apis');
    await main(page).getByRole('tab', { name: 'Actions' }).click();
    await main(page).getByRole('button', { name: 'Associate to all applications' }).click();
    await dialog(page).getByRole('button', { name: 'Associate' }).click();
    await toast(page, 'Group Partners has been associated to all applications').waitFor();
  });

  it('reads in French', async () => {
    const page = await adminOn(`/management/settings/groups/${groupId}`);
    await inLanguage(page, 'fr');
    await main(page).getByRole('tab', { name: 'Rôles et membres' }).click();
    await main(page).getByText('Rôle API par défaut').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-group-fr');
    await main(page).getByRole('tab', { name: 'Dépendances' }).click();
    await main(page).getByRole('cell', { name: 'Grace Hopper', exact: true }).waitFor();
    await screenshot(page, 'settings-group-members-fr');
    await page.goto(`${world.portico.webUrl}/management/settings/groups`);
    await main(page).getByRole('link', { name: 'Partners' }).waitFor();
    await screenshot(page, 'settings-groups-fr');
  });
});
