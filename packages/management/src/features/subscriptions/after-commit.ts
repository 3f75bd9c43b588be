import type { FastifyBaseLogger } from 'fastify';
import type { BusMessage, EventBus } from '@portico/storage';
import type { Mail, MailService } from '../mail/mail.service.js';

/**
 * What a change does once its transaction is committed: tell the gateways (bus) and send the mails.
 * Collected inside the transaction, run after it, so a rolled-back change announces nothing.
 */
export class AfterCommit {
  readonly messages: BusMessage[] = [];
  readonly mails: Mail[] = [];

  publish(message: BusMessage): void {
    if (!this.messages.some((m) => m.kind === message.kind && m.id === message.id))
      this.messages.push(message);
  }

  mail(mail: Mail): void {
    this.mails.push(mail);
  }
}

export interface AfterCommitDeps {
  bus: EventBus;
  mail: MailService;
  log: FastifyBaseLogger;
}

/** Tells the gateways, then sends the mails; a mail that cannot be sent is logged, never thrown. */
export async function runAfterCommit(after: AfterCommit, deps: AfterCommitDeps): Promise<void> {
  for (const message of after.messages) deps.bus.publish(message);
  for (const mail of after.mails) {
    try {
      await deps.mail.send(mail);
    } catch (error) {
      deps.log.error({ err: error, to: mail.to, subject: mail.subject }, 'mail not recorded');
    }
  }
}
