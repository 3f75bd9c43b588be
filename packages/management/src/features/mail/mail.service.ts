import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '@portico/storage';
import { insertMail, updateMailStatus } from '@portico/storage';
import { newId } from '../../http/ids.js';
import type { SettingsService } from '../settings/settings.service.js';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** Where answers go, when not to the platform's sender address (a support ticket's author). */
  replyTo?: string;
}

/**
 * Sends the platform's mails. Every mail is first written to the `mails` outbox, then sent through the
 * SMTP server of PORTICO_SMTP_URL or of the email settings; with none configured it is only logged
 * (status LOGGED), so a laptop install still shows what would have been sent.
 */
export class MailService {
  constructor(
    private readonly db: Executor,
    private readonly settings: SettingsService,
    private readonly smtpUrl: string | undefined,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number,
  ) {}

  private async transport(): Promise<
    { transporter: Transporter; from: string; subject: string } | undefined
  > {
    const values = await this.settings.values();
    const from = String(values.get('email.from'));
    const subject = String(values.get('email.subject'));
    if (this.smtpUrl) return { transporter: nodemailer.createTransport(this.smtpUrl), from, subject };
    if (!values.get('email.enabled') || !values.get('email.host')) return undefined;
    const user = String(values.get('email.username'));
    const transporter = nodemailer.createTransport({
      host: String(values.get('email.host')),
      port: Number(values.get('email.port')),
      secure: values.get('email.protocol') === 'smtps',
      auth: user ? { user, pass: String(values.get('email.password')) } : undefined,
    });
    return { transporter, from, subject };
  }

  /** Records the mail and sends it; a delivery failure is recorded and logged, never thrown. */
  async send(mail: Mail): Promise<{ id: string; status: 'SENT' | 'LOGGED' | 'FAILED' }> {
    const id = newId();
    const transport = await this.transport();
    const subject = transport ? transport.subject.replace('%s', mail.subject) : mail.subject;
    await insertMail(this.db, {
      id,
      recipients: JSON.stringify(mail.to),
      subject,
      text: mail.text,
      html: mail.html ?? null,
      status: 'PENDING',
      error: null,
      created_at: this.now(),
      sent_at: null,
    });
    if (!transport) {
      this.log.info({ to: mail.to, subject }, `mail not sent (no SMTP server configured):\n${mail.text}`);
      await updateMailStatus(this.db, id, 'LOGGED', null, null);
      return { id, status: 'LOGGED' };
    }
    try {
      await transport.transporter.sendMail({
        from: transport.from,
        to: mail.to,
        subject,
        text: mail.text,
        html: mail.html,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
      });
      await updateMailStatus(this.db, id, 'SENT', null, this.now());
      return { id, status: 'SENT' };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error({ to: mail.to, subject, err: message }, 'mail delivery failed');
      await updateMailStatus(this.db, id, 'FAILED', message.slice(0, 1000), null);
      return { id, status: 'FAILED' };
    } finally {
      transport.transporter.close();
    }
  }
}
