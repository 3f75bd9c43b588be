import { simpleParser } from 'mailparser';
import type { ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './portico.js';

export interface MailSink {
  url: string;
  mails: ParsedMail[];
  /** The first mail to this address (whose subject matches, when given), waiting for it to arrive. */
  waitForMail(to: string, subject?: RegExp, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** A real SMTP server that keeps every mail it receives (plain SMTP, no authentication). */
export async function startMailSink(): Promise<MailSink> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const recipients = (mail: ParsedMail) =>
    [mail.to ?? []].flat().flatMap((address) => address.value.map((v) => v.address?.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(to, subject, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const mail = mails.find(
          (m) => recipients(m).includes(to.toLowerCase()) && (!subject || subject.test(m.subject ?? '')),
        );
        if (mail) return mail;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no mail to ${to} within ${timeoutMs} ms (got ${mails.length} mails)`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
