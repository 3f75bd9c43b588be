import { expect } from 'vitest';
import type { Dialect, MailRow } from '@portico/storage';
import { findRecentMails } from '@portico/storage';
import type { TestApp } from '../../../test-support/index.js';
import { basic, call, login, signInNewUser, startTestApp } from '../../../test-support/index.js';
import { useStartedApp } from '../../apis/test-support/suite.js';

/** Shared setup of the users, registration and passwords route tests (users*.routes.test.ts). */

export const PORTAL_URL = 'https://portal.example.test';
export const DAY = 24 * 3600 * 1000;

let emails = 0;
let signIns = 0;
let registrations = 0;
export const newEmail = (name = 'dev') => `${name}.${++emails}.${Date.now()}@example.test`;

/** The mails sent to one address, oldest first. */
export async function mailsTo(app: TestApp, email: string): Promise<MailRow[]> {
  const all = await findRecentMails(app.db, 1000);
  return all.filter((m) => (JSON.parse(m.recipients) as string[]).includes(email)).reverse();
}

export function linkToken(mail: MailRow, path: string): string {
  const match = new RegExp(`${PORTAL_URL}/${path}/([\\w.-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[1]!;
}

/** Starts the app (portal URL set) with the administrator and a plain member signed in. */
export async function startUsersApp(dialect: Dialect) {
  const t = await startTestApp(dialect, { options: { portalUrl: PORTAL_URL } });
  const admin = await login(t.app, 'admin', 'admin');
  const plainUser = await signInNewUser(t.app, t.db, {}, { firstname: 'Plain', lastname: 'Member' });

  const register = (email: string, names = { firstname: 'Ada', lastname: 'Lovelace' }) =>
    call(t.app, undefined, {
      method: 'POST',
      url: '/users/registration',
      payload: { ...names, email },
      // Each from its own address: registrations are limited per address.
      remoteAddress: `10.8.${Math.floor(++registrations / 250)}.${registrations % 250}`,
    });
  const finalize = (
    token: string,
    password = 'correct horse',
    names = { firstname: 'Ada', lastname: 'King' },
  ) =>
    call(t.app, undefined, {
      method: 'POST',
      url: '/users/registration/finalize',
      payload: { token, password, ...names },
    });
  const signIn = (username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/management/user/login',
      headers: { authorization: basic(username, password) },
      // Each attempt from its own address: this file's failures must not add up to a throttle.
      remoteAddress: `10.9.${Math.floor(++signIns / 250)}.${signIns % 250}`,
    });
  const setUserCreation = async (enabled: boolean) => {
    const res = await call(t.app, admin, {
      method: 'POST',
      url: '/portal',
      payload: { portal: { userCreation: { enabled } } },
    });
    expect(res.statusCode).toBe(200);
  };
  return { t, admin, plainUser, register, finalize, signIn, setUserCreation };
}

export type UsersApp = Awaited<ReturnType<typeof startUsersApp>>;

/** Starts that app before the tests of the suite and closes it after them. */
export const useUsersApp = (dialect: Dialect, set: (app: UsersApp) => void): void =>
  useStartedApp(() => startUsersApp(dialect), set);
