import { DomainError, notFound } from '@portico/model';
import type { Database, GroupRow, InvitationRow, UserRow } from '@portico/storage';
import {
  deleteInvitation,
  findInvitationById,
  findInvitationsOfReference,
  findUserByEmail,
  insertInvitation,
  updateInvitationRoles,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import type { MailService } from '../mail/mail.service.js';
import { ENVIRONMENT_ID } from '../permissions/permissions.service.js';
import type { GroupAccess } from './group-access.js';
import { assertRoomFor, giveGroupRoles, groupMembers, invitationForbidden } from './group-members.service.js';
import { assertGivableRole, defaultRole, isLocked } from './group-roles.js';
import { issueInvitationToken } from './invitation-links.js';

export interface InvitationRoles {
  api_role?: string | null | undefined;
  application_role?: string | null | undefined;
}

export const invitationExists = (email: string) =>
  new DomainError(400, `An invitation with the email [${email}] already exists.`, 'INVITATION_EXISTS', {
    field: 'email',
  });
export const memberExists = (email: string) =>
  new DomainError(400, `A member with the email [${email}] already exists.`, 'MEMBER_EXISTS', {
    field: 'email',
  });

/** The outcome of inviting an email: a pending invitation (mailed), or the existing user added at once. */
export type InviteResult = { invitation: InvitationRow } | { member: UserRow };

/**
 * Invitations to a group by email (console-applications-and-settings.md 2.3, 4, 6): the email of an
 * existing user makes that user a member at once; any other gets a mail with a link to finish an
 * account, which then joins the group. Pending invitations count towards the group's max members.
 */
export class GroupInvitationsService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      access: GroupAccess;
      audit: AuditService;
      mail: MailService;
      secret: Uint8Array;
      portalUrl: string;
      now: () => number;
    },
  ) {}

  async list(actorId: string, groupId: string): Promise<InvitationRow[]> {
    await this.deps.access.manage(
      actorId,
      groupId,
      this.deps.db,
      await this.deps.access.isSuperAdmin(actorId),
    );
    return findInvitationsOfReference(this.deps.db, 'GROUP', groupId);
  }

  async invite(
    actorId: string,
    groupId: string,
    email: string,
    given: InvitationRoles,
  ): Promise<InviteResult> {
    const superAdmin = await this.deps.access.isSuperAdmin(actorId);
    const result = await this.deps.db
      .transaction()
      .execute(async (trx): Promise<InviteResult & { group: GroupRow }> => {
        const { group } = await this.deps.access.manage(actorId, groupId, trx, superAdmin);
        if (!superAdmin && group.email_invitation !== 1) throw invitationForbidden('email', groupId);
        if (!superAdmin) await assertRoomFor(trx, group, 1);
        const roles = await this.rolesOf(trx, group, given, superAdmin, undefined);
        const now = this.deps.now();
        const user = await findUserByEmail(trx, email);
        if (user) {
          if ((await groupMembers(trx, groupId)).some((m) => m.user.id === user.id))
            throw memberExists(email);
          const granted = {
            API: roles.api_role ?? (await defaultRole(trx, group, 'API')),
            APPLICATION: roles.application_role ?? (await defaultRole(trx, group, 'APPLICATION')),
          };
          await giveGroupRoles(trx, group, user.id, granted, now);
          await this.record(trx, actorId, 'MEMBERSHIP_CREATED', { GROUP: groupId, USER: user.id }, granted);
          return { member: user, group };
        }
        const invitations = await findInvitationsOfReference(trx, 'GROUP', groupId);
        if (invitations.some((i) => i.email === email.toLowerCase())) throw invitationExists(email);
        const invitation: InvitationRow = {
          id: newId(),
          reference_type: 'GROUP',
          reference_id: groupId,
          email: email.toLowerCase(),
          api_role: roles.api_role ?? null,
          application_role: roles.application_role ?? null,
          created_at: now,
          updated_at: now,
        };
        await insertInvitation(trx, invitation);
        await this.record(
          trx,
          actorId,
          'INVITATION_CREATED',
          { GROUP: groupId, INVITATION: invitation.id },
          invitation,
        );
        return { invitation, group };
      });
    if ('invitation' in result) await this.mailInvitation(result.group, result.invitation.email);
    return 'invitation' in result ? { invitation: result.invitation } : { member: result.member };
  }

  async update(actorId: string, groupId: string, id: string, given: InvitationRoles): Promise<InvitationRow> {
    const superAdmin = await this.deps.access.isSuperAdmin(actorId);
    return this.deps.db.transaction().execute(async (trx) => {
      const { group } = await this.deps.access.manage(actorId, groupId, trx, superAdmin);
      const before = await this.invitationOf(trx, groupId, id);
      const roles = await this.rolesOf(trx, group, given, superAdmin, before);
      const changes = { api_role: roles.api_role ?? null, application_role: roles.application_role ?? null };
      const now = this.deps.now();
      await updateInvitationRoles(trx, id, changes, now);
      const after = { ...before, ...changes, updated_at: now };
      await this.record(
        trx,
        actorId,
        'INVITATION_UPDATED',
        { GROUP: groupId, INVITATION: id },
        after,
        before,
      );
      return after;
    });
  }

  async remove(actorId: string, groupId: string, id: string): Promise<void> {
    const superAdmin = await this.deps.access.isSuperAdmin(actorId);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.access.manage(actorId, groupId, trx, superAdmin);
      const before = await this.invitationOf(trx, groupId, id);
      await deleteInvitation(trx, id);
      await this.record(
        trx,
        actorId,
        'INVITATION_DELETED',
        { GROUP: groupId, INVITATION: id },
        undefined,
        before,
      );
    });
  }

  private async invitationOf(trx: Kysely<Database>, groupId: string, id: string): Promise<InvitationRow> {
    const invitation = await findInvitationById(trx, id);
    if (!invitation || invitation.reference_type !== 'GROUP' || invitation.reference_id !== groupId)
      throw notFound('Invitation', id);
    return invitation;
  }

  /** Checked roles; where the group locks a scope, a group admin who is not super admin cannot choose. */
  private async rolesOf(
    trx: Kysely<Database>,
    group: GroupRow,
    given: InvitationRoles,
    superAdmin: boolean,
    before: InvitationRow | undefined,
  ): Promise<InvitationRoles> {
    if (given.api_role) await assertGivableRole(trx, 'API', given.api_role, 'api_role');
    if (given.application_role)
      await assertGivableRole(trx, 'APPLICATION', given.application_role, 'application_role');
    const roles: InvitationRoles = {
      api_role: given.api_role || null,
      application_role: given.application_role || null,
    };
    if (!superAdmin && isLocked(group, 'API')) roles.api_role = before?.api_role ?? null;
    if (!superAdmin && isLocked(group, 'APPLICATION'))
      roles.application_role = before?.application_role ?? null;
    return roles;
  }

  private async mailInvitation(group: GroupRow, email: string): Promise<void> {
    const token = await issueInvitationToken(this.deps.secret, email, this.deps.now());
    const link = `${this.deps.portalUrl}/registration/confirm/${token}`;
    await this.deps.mail.send({
      to: [email],
      subject: `Group invitation - ${group.name}`,
      text:
        `Hello,\n\nyou are invited to join the group ${group.name}. ` +
        `Finish your account to join it:\n\n${link}\n\nThis link is valid for 24 hours.\n`,
      html:
        `<p>Hello,</p><p>you are invited to join the group ${escapeHtml(group.name)}. ` +
        `<a href="${escapeHtml(link)}">Finish your account</a> to join it.</p><p>This link is valid for 24 hours.</p>`,
    });
  }

  private record(
    trx: Kysely<Database>,
    actorId: string,
    event: string,
    properties: Record<string, string>,
    after: object | undefined,
    before?: object,
  ) {
    return this.deps.audit.record(trx, {
      referenceType: 'ENVIRONMENT',
      referenceId: ENVIRONMENT_ID,
      userId: actorId,
      event,
      properties,
      before,
      after,
    });
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
