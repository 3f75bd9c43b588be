import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { newContext, screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { adminToken, createActiveUser } from './support/portico';

/**
 * Settings > User Management in a real browser against `portico start` with a real SMTP server: role
 * members (an administrator makes another one), the permission grid, users created by email who finish
 * their account through the mailed link, password reset and deletion; in English and French.
 */
describe('settings: users and roles', () => {
  const { world, api, adminOn, toast, main, dialog, inLanguage } = consoleSuite();

  async function signedIn(username: string, password: string, path: string): Promise<Page> {
    const context = await newContext(world.browser);
    const page = await context.newPage();
    await page.goto(`${world.portico.webUrl}/login?redirectUri=${encodeURIComponent(path)}`);
    await signInOnPage(page, username, password);
    await page.waitForURL(`${world.portico.webUrl}${path}`);
    return page;
  }

  it('gives ADMIN to another user through the role members screen; that user then administers', async () => {
    const ada = await createActiveUser(world.portico, world.token, world.sink, {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      password: 'analytical-engine',
    });
    const page = await adminOn('/management/settings/roles');
    await main(page).getByRole('heading', { name: 'Management roles' }).waitFor();
    await main(page).getByText('System', { exact: true }).first().waitFor();
    await main(page).getByText('Default', { exact: true }).first().waitFor();
    // System and default roles offer no delete; API_PUBLISHER does.
    expect(await main(page).getByRole('button', { name: 'Delete ADMIN' }).count()).toBe(0);
    expect(await main(page).getByRole('button', { name: 'Delete USER' }).count()).toBe(0);
    await main(page).getByRole('button', { name: 'Delete API_PUBLISHER' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-roles');

    await main(page).getByRole('link', { name: 'Members of ADMIN' }).click();
    await page.waitForURL(/\/settings\/role\/MANAGEMENT\/ADMIN\/members$/);
    await main(page).getByRole('cell', { name: 'admin', exact: true }).waitFor();
    await main(page).getByRole('button', { name: 'Add members' }).click();
    await dialog(page).getByRole('textbox', { name: 'Users' }).fill('Ada');
    await page.getByRole('option', { name: /Ada Lovelace/ }).click();
    await dialog(page).getByText('Ada Lovelace').waitFor();
    await settle(page);
    await screenshot(page, 'settings-role-members-add');
    await dialog(page).getByRole('button', { name: 'Add', exact: true }).click();
    await toast(page, 'User Ada Lovelace has been added as a member').waitFor();
    await dialog(page).waitFor({ state: 'hidden' });
    await main(page).getByRole('cell', { name: 'Ada Lovelace', exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-role-members');

    const admins = await api<{ id: string }[]>(
      'GET',
      'configuration/rolescopes/MANAGEMENT/roles/ADMIN/users',
    );
    expect(admins.map((m) => m.id)).toContain(ada.id);
    // Ada now administers: the settings and the administrator-only calls are hers.
    const adaPage = await signedIn('ada@example.com', 'analytical-engine', '/management/settings/users');
    await main(adaPage).getByRole('heading', { name: 'Users' }).waitFor();
    const adaToken = await adminToken(world.portico, 'ada@example.com', 'analytical-engine');
    const scopes = await fetch(`${world.portico.apiUrl}configuration/rolescopes`, {
      headers: { Authorization: `Bearer ${adaToken}` },
    });
    expect(scopes.status).toBe(200);
  });

  it('creates a role with a column selected at once; a system role is read-only', async () => {
    const page = await adminOn('/management/settings/role/API/new');
    await main(page).getByRole('heading', { name: 'New API role' }).waitFor();
    const create = main(page).getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    await main(page).getByRole('textbox', { name: 'Name' }).fill('auditor');
    await main(page).getByRole('checkbox', { name: 'Select every Read right' }).check();
    await main(page).getByRole('checkbox', { name: 'PLAN Update' }).check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-role-new');
    await create.click();
    await toast(page, 'Role AUDITOR has been created').waitFor();
    await page.waitForURL(/\/settings\/role\/API\/AUDITOR$/);
    const role = await api<{ permissions: Record<string, string[]> }>(
      'GET',
      'configuration/rolescopes/API/roles/AUDITOR',
    );
    expect(role.permissions.PLAN).toEqual(['R', 'U']);
    expect(Object.values(role.permissions).every((rights) => rights.includes('R'))).toBe(true);
    expect(Object.keys(role.permissions).length).toBeGreaterThan(10);

    // Unticking the column again and saving stores it, once the saved role's form replaced the new
    // role's (its title is the stored name).
    await main(page).getByRole('heading', { name: 'AUDITOR', exact: true }).waitFor();
    await main(page).getByRole('checkbox', { name: 'Select every Read right' }).uncheck();
    await main(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Role AUDITOR has been updated').waitFor();
    const saved = await api<{ permissions: Record<string, string[]> }>(
      'GET',
      'configuration/rolescopes/API/roles/AUDITOR',
    );
    expect(saved.permissions).toEqual({ PLAN: ['U'] });

    await page.goto(`${world.portico.webUrl}/management/settings/role/MANAGEMENT/ADMIN`);
    await main(page).getByText('This is a system role').waitFor();
    expect(await main(page).getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await main(page).getByRole('checkbox', { name: 'USER Delete' }).isDisabled()).toBe(true);
    await screenshot(page, 'settings-role-system');
  });

  it('creates a user by email, who finishes the account through the mailed link and signs in', async () => {
    const page = await adminOn('/management/settings/users/new');
    await main(page).getByRole('heading', { name: 'Create a user' }).waitFor();
    await main(page).getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await main(page).getByRole('textbox', { name: 'Email' }).blur();
    await main(page).getByText('Email is not valid.').waitFor();
    await main(page).getByRole('textbox', { name: 'Email' }).fill('grace@example.com');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-user-new');
    await main(page).getByRole('button', { name: 'Create' }).click();
    await toast(page, 'User registered with success: a mail went to grace@example.com').waitFor();
    await main(page).getByRole('heading', { name: 'grace@example.com' }).waitFor();

    const mail = await world.sink.waitForMail('grace@example.com', /registration/i);
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

    await page.goto(`${world.portico.webUrl}/management/settings/users?q=grace`);
    await main(page).getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await main(page).getByText('Active', { exact: true }).waitFor();
  });

  it('changes the portal role, resets the password and deletes a user; a primary owner cannot be deleted', async () => {
    const alan = await createActiveUser(world.portico, world.token, world.sink, {
      firstname: 'Alan',
      lastname: 'Turing',
      email: 'alan@example.com',
      password: 'enigma-1940',
    });
    const page = await adminOn(`/management/settings/users/${alan.id}`);
    await main(page).getByRole('heading', { name: 'Alan Turing' }).waitFor();
    await main(page).getByRole('tab', { name: 'Groups' }).waitFor();
    await main(page).getByText('This user belongs to no group').waitFor();
    await main(page)
      .getByRole('textbox', { name: 'Portal role' })
      .or(main(page).getByRole('combobox', { name: 'Portal role' }))
      .click();
    await page.getByRole('option', { name: 'ADMIN' }).click();
    await toast(page, /User has been updated successfully/).waitFor();
    const user = await api<{ roles: { scope: string; name: string }[] }>('GET', `users/${alan.id}`);
    expect(user.roles).toContainEqual({ scope: 'PORTAL', name: 'ADMIN' });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-user-detail');

    await main(page).getByRole('button', { name: 'Reset password' }).click();
    await dialog(page).getByRole('button', { name: 'Reset password' }).click();
    await toast(page, 'A password reset link has been mailed to Alan Turing').waitFor();
    const reset = await world.sink.waitForMail('alan@example.com', /password reset/i);
    expect(reset.text).toMatch(/\/resetPassword\//);

    await main(page).getByRole('button', { name: 'Delete user' }).click();
    await dialog(page).getByRole('button', { name: 'Delete user' }).click();
    await toast(page, 'User Alan Turing has been deleted').waitFor();
    await page.waitForURL(`${world.portico.webUrl}/management/settings/users`);
    const found = await api<{ data: unknown[] }>('GET', 'users?q=alan');
    expect(found.data).toEqual([]);

    // The administrator owns APIs: a Primary Owner badge, and no delete button.
    const { id: apiId } = await api<{ id: string }>('POST', 'apis', {
      name: 'Owned',
      version: '1.0',
      description: 'Owned by the admin',
      context_path: '/owned',
      endpoint: 'http://localhost:9/backend',
    });
    expect(apiId).toBeTruthy();
    await page.goto(`${world.portico.webUrl}/management/settings/users?q=admin`);
    const adminRow = main(page).getByRole('row').filter({ hasText: 'Administrator' });
    await adminRow.getByText('Primary Owner').waitFor();
    await adminRow.getByRole('link').click();
    await main(page).getByRole('tab', { name: 'APIs' }).click();
    await main(page).getByRole('link', { name: 'Owned' }).waitFor();
    expect(await main(page).getByRole('button', { name: 'Delete user' }).count()).toBe(0);
    await screenshot(page, 'settings-user-primary-owner');
  });

  it('reads in French', async () => {
    const page = await adminOn('/management/settings/users');
    await inLanguage(page, 'fr');
    await main(page).getByRole('heading', { name: 'Utilisateurs' }).waitFor();
    await main(page).getByText('Propriétaire principal').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-users-fr');
    await page.goto(`${world.portico.webUrl}/management/settings/roles?roleScope=PORTAL`);
    await main(page).getByRole('heading', { name: 'Rôles Portail' }).waitFor();
    await screenshot(page, 'settings-roles-fr');
    await page.goto(`${world.portico.webUrl}/management/settings/role/API/AUDITOR`);
    await main(page).getByRole('checkbox', { name: 'Cocher tous les droits Lire' }).waitFor();
    await screenshot(page, 'settings-role-fr');
  });
});
