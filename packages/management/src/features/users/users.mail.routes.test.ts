import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSmtpServer } from '../../test-support/index.js';
import { call, startSmtpServer, startTestApp } from '../../test-support/index.js';
import { PORTAL_URL, mailsTo, newEmail } from './test-support/users-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: registration mails through SMTP (smtpUrl)`, () => {
    let smtp: TestSmtpServer;
    let t: TestApp;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await startTestApp(dialect, { options: { smtpUrl: smtp.url, portalUrl: PORTAL_URL } });
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    it('delivers the registration mail to the SMTP server and records it as SENT', async () => {
      const email = newEmail('smtp');
      const res = await call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration',
        payload: { firstname: 'Mail', lastname: 'Box', email },
      });
      expect(res.statusCode).toBe(201);

      const delivered = smtp.received.find((m) => m.to && JSON.stringify(m.to).includes(email));
      expect(delivered?.subject).toBe('[Portico] User registration');
      expect(delivered?.from?.text).toBe('noreply@portico.local');
      expect(delivered?.text).toContain(`${PORTAL_URL}/registration/confirm/`);
      expect(delivered?.html).toContain('Choose your password');

      const [row] = await mailsTo(t, email);
      expect(row).toMatchObject({ status: 'SENT', subject: '[Portico] User registration', error: null });
      expect(row!.sent_at).toEqual(expect.any(Number));
    });
  });

  describe(`${dialect}: registration when the SMTP server is down`, () => {
    let t: TestApp;
    beforeAll(async () => {
      const smtp = await startSmtpServer();
      const url = smtp.url;
      await smtp.close(); // nobody listens on that port any more
      t = await startTestApp(dialect, { options: { smtpUrl: url, portalUrl: PORTAL_URL } });
    });
    afterAll(() => t?.close());

    it('still registers the user and records the mail as FAILED with the reason', async () => {
      const email = newEmail('down');
      const res = await call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration',
        payload: { firstname: 'Mail', lastname: 'Lost', email },
      });
      expect(res.statusCode).toBe(201);
      expect((await findUserByEmail(t.db, email))?.status).toBe('PENDING');
      const [row] = await mailsTo(t, email);
      expect(row).toMatchObject({ status: 'FAILED', sent_at: null });
      expect(row!.error).toMatch(/ECONNREFUSED/);
    });
  });
}
