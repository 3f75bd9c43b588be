import type { Database, UserRow } from '@portico/storage';
import { findApiById, findApplicationById, findMembershipsOfReference, findUserById } from '@portico/storage';
import {
  DomainError,
  PRIMARY_OWNER,
  forbidden,
  invalidField,
  notFound,
  parsePermission,
} from '@portico/model';
import type { Kysely } from 'kysely';
import type { MailService } from '../mail/mail.service.js';
import type { NotificationDispatcher } from '../notification-settings/notification-dispatch.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { mayViewApi } from '../apis/api-list.js';
import { displayName } from '../users/users.mapper.js';

export const SUPPORT_UNAVAILABLE = 'Support is unavailable.';
export const EMAIL_REQUIRED = 'An email address is required to open a ticket: add one to your profile first.';
export const TICKET_NOT_SENT = 'The ticket could not be sent; please try again later.';

const supportUnavailable = () => new DomainError(503, SUPPORT_UNAVAILABLE, 'SUPPORT_UNAVAILABLE');

/** A support ticket as the portal sends it (portal-and-platform.md 3: api, application, subject...). */
export interface TicketInput {
  api?: string | undefined;
  application?: string | undefined;
  subject: string;
  content: string;
  copyToSender: boolean;
}

export interface TicketsDeps {
  db: Kysely<Database>;
  permissions: PermissionService;
  settings: SettingsService;
  mail: MailService;
  hooks: NotificationDispatcher;
}

const READ_API = parsePermission('api-definition-r');
const READ_APPLICATION = parsePermission('application-definition-r');

/**
 * Support tickets (`POST platform/tickets`): a mail from a signed-in user with an email address to the
 * primary owner of the API the ticket is about, or to the platform's support address
 * (`portal.support.email`) for a ticket about no API, answerable to the author, with a copy to the
 * author on request; then the NEW_SUPPORT_TICKET hook of the API, the application and the platform.
 */
export class TicketsService {
  constructor(private readonly deps: TicketsDeps) {}

  private async primaryOwner(apiId: string): Promise<UserRow | undefined> {
    const membership = (await findMembershipsOfReference(this.deps.db, 'API', apiId)).find(
      (m) => m.member_type === 'USER' && m.role_scope === 'API' && m.role_name === PRIMARY_OWNER,
    );
    return membership ? findUserById(this.deps.db, membership.member_id) : undefined;
  }

  async create(user: UserRow, input: TicketInput): Promise<void> {
    const { db, settings } = this.deps;
    const values = await settings.values();
    if (values.get('portal.support.enabled') === false) throw supportUnavailable();
    if (!user.email) throw invalidField('email', EMAIL_REQUIRED);

    let to: string;
    let api: { id: string; name: string; version: string } | undefined;
    if (input.api) {
      const row = await findApiById(db, input.api);
      if (!row) throw notFound('Api', input.api);
      const readable =
        (await this.deps.permissions.has(user.id, READ_API, row.id)) ||
        (await mayViewApi(this.deps, user, row));
      if (!readable) throw forbidden('api-definition-r');
      const owner = await this.primaryOwner(row.id);
      if (!owner?.email) throw supportUnavailable();
      to = owner.email;
      api = { id: row.id, name: row.name, version: row.version };
    } else {
      to = String(values.get('portal.support.email') ?? '').trim();
      if (!to) throw supportUnavailable();
    }

    let application: { id: string; name: string } | undefined;
    if (input.application) {
      const row = await findApplicationById(db, input.application);
      if (!row) throw notFound('Application', input.application);
      if (!(await this.deps.permissions.has(user.id, READ_APPLICATION, row.id)))
        throw forbidden('application-definition-r');
      application = { id: row.id, name: row.name };
    }

    const author = displayName(user);
    const text = [
      input.content,
      '',
      '--',
      `From: ${author} <${user.email}>`,
      ...(api ? [`API: ${api.name} (${api.version})`] : []),
      ...(application ? [`Application: ${application.name}`] : []),
      '',
    ].join('\n');
    const sent = await this.deps.mail.send({ to: [to], subject: input.subject, text, replyTo: user.email });
    if (sent.status === 'FAILED') throw new DomainError(503, TICKET_NOT_SENT, 'TICKET_NOT_SENT');
    if (input.copyToSender && user.email !== to) {
      await this.deps.mail.send({ to: [user.email], subject: input.subject, text });
    }

    await this.deps.hooks.trigger(
      db,
      {
        ...(api ? { api: api.id } : {}),
        ...(application ? { application: application.id } : {}),
        portal: true,
      },
      {
        hook: 'NEW_SUPPORT_TICKET',
        title: 'New support ticket',
        message: `${author} opened a support ticket: ${input.subject}`,
        params: {
          ticket: { subject: input.subject },
          user: { id: user.id, displayName: author },
          ...(api ? { api } : {}),
          ...(application ? { application } : {}),
        },
      },
    );
  }
}
