import { beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations, settle, signInOnPage, userMenu } from './support/app';
import { screenshot } from './support/browser';
import type { MailSink } from './support/mail-sink';
import type { Portico } from './support/portico';
import { adminToken, createActiveUser } from './support/portico';
import type { WebWorld } from './support/web-suite';
import { webSuite } from './support/web-suite';

/**
 * Accounts in the web app, in a real browser against `portico start`: registration and password reset
 * through a real SMTP server, and changing one's own password.
 */
describe('web app: accounts', () => {
  const suite = webSuite();
  const { freshPage } = suite;
  let portico: Portico;
  let sink: MailSink;
  beforeAll(() => {
    ({ portico, sink } = suite.world satisfies WebWorld);
  });

  it('registers a user through the mail link, who can then sign in', async () => {
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login`);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(`${portico.webUrl}/registration`);
    await page.getByRole('textbox', { name: 'First name' }).fill('Katherine');
    await page.getByRole('textbox', { name: 'Last name' }).fill('Johnson');
    await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await page.getByRole('textbox', { name: 'Email' }).blur();
    await page.getByText('Enter a valid email address.').waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill('katherine@example.com');
    await screenshot(page, 'registration');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText(/Registration succeeded!/).waitFor();

    const mail = await sink.waitForMail('katherine@example.com', /registration/i);
    const link = /https?:\/\/\S+\/registration\/confirm\/[\w.-]+/.exec(mail.text ?? '')?.[0];
    expect(link, mail.text).toBeTruthy();
    expect(link!.startsWith(`${portico.webUrl}/registration/confirm/`)).toBe(true);
    await page.goto(link!);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Email' }).inputValue(), { timeout: 10_000 })
      .toBe('katherine@example.com');
    expect(await page.getByRole('textbox', { name: 'Email' }).getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('textbox', { name: 'First name' }).inputValue()).toBe('Katherine');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('orbital-1962');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('orbital-1963');
    await page.getByRole('textbox', { name: 'Confirm the password' }).blur();
    await page.getByText('The confirm password is different!').waitFor();
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('orbital-1962');
    await screenshot(page, 'registration-confirm');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL(`${portico.webUrl}/login`);

    await signInOnPage(page, 'katherine@example.com', 'orbital-1962');
    await page.waitForURL(`${portico.webUrl}/`);
    await page.getByRole('button', { name: 'User menu of Katherine Johnson' }).waitFor();
    await screenshot(page, 'registered-user-signed-in');
  });

  it('resets a password through the mail link an administrator sends', async () => {
    const token = await adminToken(portico);
    const auth = { Authorization: `Bearer ${token}` };
    const created = await fetch(`${portico.apiUrl}users`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ firstname: 'Dorothy', lastname: 'Vaughan', email: 'dorothy@example.com' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const reset = await fetch(`${portico.apiUrl}users/${id}/resetPassword`, {
      method: 'POST',
      headers: auth,
    });
    expect(reset.status).toBe(204);
    const mail = await sink.waitForMail('dorothy@example.com', /password/i);
    const link = /https?:\/\/\S+\/resetPassword\/[\w.-]+/.exec(mail.text ?? '')?.[0];
    expect(link, mail.text).toBeTruthy();

    const page = await freshPage();
    await page.goto(link!);
    await page.getByText('Choose a new password for dorothy@example.com.').waitFor();
    await page.getByRole('textbox', { name: 'New password' }).fill('fortran-1961');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('fortran-1961');
    await screenshot(page, 'reset-password');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.waitForURL(`${portico.webUrl}/login`);
    await signInOnPage(page, 'dorothy@example.com', 'fortran-1961');
    await page.getByRole('button', { name: 'User menu of Dorothy Vaughan' }).waitFor();

    // The link works once.
    await page.goto(link!);
    await page.getByRole('textbox', { name: 'New password' }).fill('another-password');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('another-password');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByRole('alert').filter({ hasText: 'already used' }).waitFor();
  });

  it("changes one's own password on the account page, asking for the current one", async () => {
    const token = await adminToken(portico);
    await createActiveUser(portico, token, sink, {
      firstname: 'Grace',
      lastname: 'Hopper',
      email: 'grace@example.com',
      password: 'cobol-1959',
    });
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fuser`);
    await signInOnPage(page, 'grace@example.com', 'cobol-1959');
    await page.waitForURL(`${portico.webUrl}/user`);
    const section = page.getByRole('region', { name: 'Password' });
    const current = section.getByRole('textbox', { name: 'Current password' });
    const fresh = section.getByRole('textbox', { name: 'New password' });
    const confirm = section.getByRole('textbox', { name: 'Confirm the password' });
    const submit = section.getByRole('button', { name: 'Change my password' });
    expect(await submit.isDisabled()).toBe(true);

    await current.fill('cobol-1959');
    await fresh.fill('compiler-1952');
    await confirm.fill('compiler-1953');
    await confirm.blur();
    await section.getByText('The confirm password is different!').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await screenshot(page, 'profile-password-mismatch');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A wrong current password: the server refuses, in the user's language, and nothing changes.
    await current.fill('not-my-password');
    await confirm.fill('compiler-1952');
    await submit.click();
    await page.getByRole('alert').filter({ hasText: 'The current password is wrong' }).waitFor();
    expect(await current.inputValue()).toBe('');
    await settle(page);
    await screenshot(page, 'profile-password-wrong-current');

    // With the keyboard: the current password again, then Enter.
    await current.fill('cobol-1959');
    await current.press('Enter');
    await page.getByText('Your password has been changed').waitFor();
    expect(await current.inputValue()).toBe('');
    await settle(page);
    await screenshot(page, 'profile-password-changed');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await userMenu(page).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    // Signing out first opens the portal home (its lazy chunks), then ends the session. A call of the
    // signed-in page that answers 401 after the logout must not count as an expired session (which
    // would send the user to login, where the top bar has no Sign in button).
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 30_000 });
    await page.goto(`${portico.webUrl}/login`);
    await signInOnPage(page, 'grace@example.com', 'cobol-1959');
    await page.getByText('Wrong user or password').waitFor();
    await page.getByRole('textbox', { name: 'Password' }).fill('compiler-1952');
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'User menu of Grace Hopper' }).waitFor();
  });
  it('signs out from a page for signed-in users on a slow browser: portal home, not login', async () => {
    const token = await adminToken(portico);
    await createActiveUser(portico, token, sink, {
      firstname: 'Mary',
      lastname: 'Jackson',
      email: 'mary@example.com',
      password: 'wind-tunnel-1958',
    });
    const page = await freshPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fuser`);
    await signInOnPage(page, 'mary@example.com', 'wind-tunnel-1958');
    await page.waitForURL(`${portico.webUrl}/user`);
    // A busy runner: the router's move to portal home is still rendering when the logout call answers.
    // The account page must not take the ended session for an expired one (login, without Sign in).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await userMenu(page).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  });
});
