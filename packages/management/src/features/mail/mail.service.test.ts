import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRecentMails } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSmtpServer } from '../../test-support/index.js';
import { startSmtpServer, startTestApp } from '../../test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: MailService with the email settings`, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await startTestApp(dialect);
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    const port = () => Number(new URL(smtp.url).port);
    const storedMail = async (id: string) => (await findRecentMails(t.db, 100)).find((m) => m.id === id);

    it('only logs and records a mail while no SMTP server is configured', async () => {
      const sent = await t.services.mail.send({ to: ['a@example.test'], subject: 'Hello', text: 'Body' });
      expect(sent.status).toBe('LOGGED');
      expect(await storedMail(sent.id)).toMatchObject({
        status: 'LOGGED',
        subject: 'Hello',
        recipients: '["a@example.test"]',
        text: 'Body',
        sent_at: null,
      });
      expect(smtp.received).toEqual([]);
    });

    it('keeps only logging while the email settings are disabled, even with a host', async () => {
      await t.services.settings.update('test', {
        email: { host: '127.0.0.1', port: port(), enabled: false },
      });
      const sent = await t.services.mail.send({ to: ['b@example.test'], subject: 'Hello', text: 'Body' });
      expect(sent.status).toBe('LOGGED');
      expect(smtp.received).toEqual([]);
    });

    it('sends through the SMTP server of the enabled email settings, with their sender and subject', async () => {
      await t.services.settings.update('test', {
        email: { enabled: true, from: 'apis@acme.test', subject: '[ACME] %s' },
      });
      const sent = await t.services.mail.send({
        to: ['c@example.test'],
        subject: 'Your key',
        text: 'Plain body',
        html: '<p>HTML body</p>',
      });
      expect(sent.status).toBe('SENT');
      const delivered = smtp.received.at(-1)!;
      expect(delivered.subject).toBe('[ACME] Your key');
      expect(delivered.from?.text).toBe('apis@acme.test');
      expect(delivered.text?.trim()).toBe('Plain body');
      expect(delivered.html).toContain('<p>HTML body</p>');
      expect(await storedMail(sent.id)).toMatchObject({
        status: 'SENT',
        subject: '[ACME] Your key',
        error: null,
      });
    });
  });
}
