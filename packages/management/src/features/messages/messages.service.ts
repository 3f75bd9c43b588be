import type { Database, MessageRecipient } from '@portico/storage';
import {
  findApiById,
  findApiConsumerRecipients,
  findDefaultRole,
  findPlatformRoleRecipients,
  findRole,
  insertNotificationDelivery,
} from '@portico/storage';
import { DomainError, invalidField, notFound } from '@portico/model';
import type { OutboundPolicy } from '@portico/outbound';
import { OutboundError, outboundFetch } from '@portico/outbound';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditEntry, AuditService } from '../audit/audit.service.js';
import type { NotificationService } from '../notifications/notifications.service.js';
import type { MessageInput } from './messages.validation.js';
import { checkedMessage, type CheckedMessage } from './messages.validation.js';

export interface MessagesDeps {
  db: Kysely<Database>;
  audit: AuditService;
  notifications: NotificationService;
  policy: OutboundPolicy;
  now(): number;
}

/** How long an HTTP message's target may take to answer. */
const HTTP_TIMEOUT_MS = 10_000;

/** `${api.name}` and the other API fields a message to an API's consumers may name. */
function fillApiFields(text: string, api: Record<string, string>): string {
  return text.replace(/\$\{api\.(id|name|version|description)\}/g, (_all, field: string) => api[field] ?? '');
}

/**
 * Broadcast messages (`POST messages`, `POST apis/{id}/messages`): to the holders of platform roles,
 * or to the members of the applications consuming an API, in the app (PORTAL), by mail (MAIL, one
 * mail per address through the outbox, retried), or as one HTTP POST to a URL (HTTP, through the
 * outbound guard). Answers the number of recipients reached, as Gravitee 1.x did.
 */
export class MessagesService {
  constructor(private readonly deps: MessagesDeps) {}

  /** A message from the platform's administrators to holders of MANAGEMENT or PORTAL roles. */
  async sendToPlatform(userId: string, input: MessageInput): Promise<number> {
    const message = checkedMessage(input, ['MANAGEMENT', 'PORTAL']);
    return this.send(userId, message, undefined);
  }

  /** A message from an API's publishers to the members of its consuming applications. */
  async sendToApiConsumers(userId: string, apiId: string, input: MessageInput): Promise<number> {
    const api = await findApiById(this.deps.db, apiId);
    if (!api) throw notFound('Api', apiId);
    const message = checkedMessage(input, ['APPLICATION']);
    const fields = {
      id: api.id,
      name: api.name,
      version: api.version,
      description: api.description ?? '',
    };
    const text = fillApiFields(message.text, fields);
    const title = message.title === undefined ? undefined : fillApiFields(message.title, fields);
    return this.send(userId, { ...message, text, ...(title === undefined ? {} : { title }) }, api.id);
  }

  private async recipients(
    message: CheckedMessage & { channel: 'PORTAL' | 'MAIL' },
    apiId: string | undefined,
  ): Promise<MessageRecipient[]> {
    const { scope, roles } = message.recipient;
    for (const name of roles) {
      if (!(await findRole(this.deps.db, scope, name))) {
        throw invalidField('recipient.role_value', `Role [${name}] of scope [${scope}] can not be found.`);
      }
    }
    if (apiId !== undefined) return findApiConsumerRecipients(this.deps.db, apiId, roles);
    const platformScope = scope as 'MANAGEMENT' | 'PORTAL';
    const fallback = await findDefaultRole(this.deps.db, platformScope);
    return findPlatformRoleRecipients(this.deps.db, platformScope, roles, fallback?.name);
  }

  private async send(userId: string, message: CheckedMessage, apiId: string | undefined): Promise<number> {
    const { db, now } = this.deps;
    const audited: AuditEntry = {
      referenceType: apiId === undefined ? 'ENVIRONMENT' : 'API',
      referenceId: apiId ?? 'DEFAULT',
      userId,
      event: 'MESSAGE_SENT',
      properties: {},
      after:
        message.channel === 'HTTP'
          ? {
              channel: message.channel,
              title: message.title,
              text: message.text,
              recipient: { url: message.url },
            }
          : {
              channel: message.channel,
              title: message.title,
              text: message.text,
              recipient: { role_scope: message.recipient.scope, role_value: message.recipient.roles },
            },
    };
    if (message.channel === 'HTTP') {
      await this.post(message);
      await this.deps.audit.record(db, audited);
      return 1;
    }
    const recipients = await this.recipients(message, apiId);
    const title = message.title ?? '';
    const messageId = newId();
    return db.transaction().execute(async (trx) => {
      let count: number;
      if (message.channel === 'PORTAL') {
        await this.deps.notifications.notify(
          trx,
          recipients.map((r) => r.id),
          title,
          message.text,
        );
        count = recipients.length;
      } else {
        const addresses = [...new Set(recipients.flatMap((r) => (r.email ? [r.email] : [])))];
        const at = now();
        for (const address of addresses) {
          await insertNotificationDelivery(trx, {
            id: newId(),
            setting_id: messageId,
            notifier: 'EMAIL',
            hook: 'MESSAGE',
            target: address,
            use_system_proxy: 0,
            payload: JSON.stringify({ title, message: message.text }),
            status: 'PENDING',
            attempts: 0,
            next_attempt_at: at,
            last_error: null,
            created_at: at,
            updated_at: at,
          });
        }
        count = addresses.length;
      }
      await this.deps.audit.record(trx, audited);
      return count;
    });
  }

  /** One POST of the text to the message's URL, with its headers; any answer but 2xx is an error. */
  private async post(message: CheckedMessage & { channel: 'HTTP' }): Promise<void> {
    let status: number;
    try {
      const response = await outboundFetch(message.url, {
        policy: this.deps.policy,
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8', ...message.headers },
        body: message.text,
        useSystemProxy: message.useSystemProxy,
        timeoutMs: HTTP_TIMEOUT_MS,
        maxBytes: 64 * 1024,
      });
      status = response.status;
    } catch (error) {
      if (error instanceof OutboundError) throw invalidField('recipient.url', error.message);
      throw error;
    }
    if (status < 200 || status >= 300) {
      throw new DomainError(
        502,
        `The message could not be delivered: ${message.url} answered HTTP ${status}`,
        'MESSAGE_NOT_DELIVERED',
        { status: String(status) },
      );
    }
  }
}
