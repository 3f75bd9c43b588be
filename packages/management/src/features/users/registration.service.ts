import { randomBytes } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { DomainError, invalidField } from '@portico/model';
import type { Database, UserRow } from '@portico/storage';
import {
  endSessionsBefore,
  findToken,
  findUserByEmail,
  findUserById,
  findUserBySource,
  insertToken,
  insertUser,
  markTokenUsed,
  supersedeTokens,
  updateUser,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Passwords } from '../auth/passwords.js';
import { acceptInvitations, finishInvitedAccount, isInvitationToken } from '../groups/invitation-links.js';
import type { MailService } from '../mail/mail.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { MailRateLimit } from './mail-rate-limit.js';
import { PORTICO_SOURCE, auditedUser, displayName } from './users.mapper.js';

export type TokenAction = 'USER_REGISTRATION' | 'RESET_PASSWORD';
const ISSUER = 'portico-account';
/** A registration or password link is valid for one day. */
export const ACCOUNT_TOKEN_TTL_SECONDS = 24 * 3600;

export const REGISTRATION_EXPIRED = 'Your registration is expired!';
export const PASSWORD_TOKEN_EXPIRED = 'Your token is expired!';
export const LINK_ALREADY_USED = 'this link was already used, or a newer one was sent';

/** 400 as Gravitee 1.x answers it: the email (the future username) belongs to an account already. */
export const userAlreadyExists = (email: string) =>
  new DomainError(400, `A user [${email}] already exists.`, 'USER_ALREADY_EXISTS', { field: 'email' });

export interface NewAccount {
  /** Optional when an administrator creates the user (`POST users`): the display name is then the email. */
  firstname?: string | null | undefined;
  lastname?: string | null | undefined;
  email: string;
}

/**
 * Accounts of the built-in user store: self-registration and creation by an administrator (both mail a
 * link to choose a password), finalization, and password reset. The link carries a signed token that
 * the web page decodes to prefill the form (firstname, lastname, email); each token works once.
 */
export class RegistrationService {
  private readonly limits: MailRateLimit;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly secret: Uint8Array,
    private readonly mail: MailService,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
    private readonly portalUrl: string,
    private readonly passwords: Passwords,
    private readonly now: () => number,
  ) {
    this.limits = new MailRateLimit(db, now);
  }

  /**
   * Creates a pending user and mails the link to finish the account. An email that is already an
   * account's, pending ones included, is refused (400): a second registration never overwrites the
   * first (an administrator re-sends a lost link with a password reset). Self-registrations give the
   * client's `address`, limited per address; mails are limited per email (429).
   */
  async register(account: NewAccount, actingUserId: string | undefined, address?: string): Promise<UserRow> {
    if (address !== undefined) await this.limits.takeAddress(address);
    await this.limits.assertEmail(account.email);
    const now = this.now();
    const user = await this.db.transaction().execute(async (trx) => {
      const existing = await findUserByEmail(trx, account.email);
      // The email becomes the username: it may already be another account's username.
      const sameUsername = await findUserBySource(trx, PORTICO_SOURCE, account.email);
      if (existing || sameUsername) throw userAlreadyExists(account.email);
      const row: UserRow = {
        id: newId(),
        source: PORTICO_SOURCE,
        source_id: account.email,
        email: account.email,
        firstname: account.firstname ?? null,
        lastname: account.lastname ?? null,
        password: null,
        picture: null,
        status: 'PENDING',
        login_count: 0,
        last_connection_at: null,
        created_at: now,
        updated_at: now,
        sessions_valid_after: null,
        kept_session_id: null,
      };
      await insertUser(trx, row);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actingUserId ?? row.id,
        event: 'USER_CREATED',
        properties: { USER: row.id },
        after: auditedUser(row),
      });
      return row;
    });
    const token = await this.issueToken(user, 'USER_REGISTRATION');
    const company = await this.settings.value<string>('company.name');
    const link = `${this.portalUrl}/registration/confirm/${token}`;
    await this.limits.recordEmail(account.email);
    await this.mail.send({
      to: [account.email],
      subject: 'User registration',
      text:
        `Hello ${displayName(user)},\n\nyou have been registered on ${company}. ` +
        `Choose your password to finish your account:\n\n${link}\n\nThis link is valid for 24 hours.\n`,
      html:
        `<p>Hello ${escapeHtml(displayName(user))},</p><p>you have been registered on ${escapeHtml(company)}. ` +
        `<a href="${escapeHtml(link)}">Choose your password</a> to finish your account.</p><p>This link is valid for 24 hours.</p>`,
    });
    return user;
  }

  /** Sets the password of a registration token's user and activates the account. */
  async finalize(input: {
    token: string;
    password: string;
    firstname: string;
    lastname: string;
  }): Promise<UserRow> {
    if (isInvitationToken(input.token))
      return finishInvitedAccount(
        { db: this.db, secret: this.secret, audit: this.audit, passwords: this.passwords, now: this.now },
        input,
      );
    const { userId, tokenId } = await this.verifyToken(input.token, 'USER_REGISTRATION');
    const hash = await this.passwords.hash(input.password);
    return this.db.transaction().execute(async (trx) => {
      const user = await findUserById(trx, userId);
      if (!user || user.status !== 'PENDING')
        throw invalidField('token', 'this registration is already finished');
      if (!(await markTokenUsed(trx, tokenId, this.now()))) throw invalidField('token', LINK_ALREADY_USED);
      const changes = {
        password: hash,
        firstname: input.firstname,
        lastname: input.lastname,
        status: 'ACTIVE',
        updated_at: this.now(),
      };
      await updateUser(trx, userId, changes);
      const after = { ...user, ...changes };
      // The groups this email was invited to take the new account in.
      await acceptInvitations(trx, after, this.now());
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId,
        event: 'USER_REGISTERED',
        properties: { USER: userId },
        before: auditedUser(user),
        after: auditedUser(after),
      });
      return after;
    });
  }

  /**
   * Mails a link to choose a new password (users of the built-in store only); the links sent before
   * stop working. Mails are limited per email (429).
   */
  async requestPasswordReset(user: UserRow, actingUserId: string): Promise<void> {
    if (user.source !== PORTICO_SOURCE)
      throw invalidField('user', 'only users of the built-in user store have a password');
    if (!user.email) throw invalidField('email', 'the user has no email address');
    await this.limits.assertEmail(user.email);
    const token = await this.issueToken(user, 'RESET_PASSWORD');
    await this.limits.recordEmail(user.email);
    await this.audit.record(this.db, {
      referenceType: 'ENVIRONMENT',
      referenceId: 'DEFAULT',
      userId: actingUserId,
      event: 'PASSWORD_RESET',
      properties: { USER: user.id },
    });
    const link = `${this.portalUrl}/resetPassword/${token}`;
    await this.mail.send({
      to: [user.email],
      subject: 'Password reset',
      text: `Hello ${displayName(user)},\n\nchoose a new password here:\n\n${link}\n\nThis link is valid for 24 hours.\n`,
      html: `<p>Hello ${escapeHtml(displayName(user))},</p><p><a href="${escapeHtml(link)}">Choose a new password</a>.</p><p>This link is valid for 24 hours.</p>`,
    });
  }

  /**
   * Sets a new password with a reset token: the link and any other of the user's reset links stop
   * working, and every session of the user ends (whoever knew the old password is signed out).
   */
  async changePassword(userIdOfRoute: string, input: { token: string; password: string }): Promise<UserRow> {
    const { userId, tokenId } = await this.verifyToken(input.token, 'RESET_PASSWORD');
    if (userId !== userIdOfRoute) throw invalidField('token', 'this link is for another user');
    const hash = await this.passwords.hash(input.password);
    return this.db.transaction().execute(async (trx) => {
      const user = await findUserById(trx, userId);
      if (!user) throw invalidField('token', 'this user no longer exists');
      const now = this.now();
      if (!(await markTokenUsed(trx, tokenId, now))) throw invalidField('token', LINK_ALREADY_USED);
      await supersedeTokens(trx, userId, 'RESET_PASSWORD', now);
      await updateUser(trx, userId, { password: hash, status: 'ACTIVE', updated_at: now });
      await endSessionsBefore(trx, userId, now, null);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId,
        event: 'PASSWORD_CHANGED',
        properties: { USER: userId },
      });
      return { ...user, password: hash, status: 'ACTIVE' };
    });
  }

  /** A new link's token; the user's earlier unused links of the same kind stop working. */
  async issueToken(user: UserRow, action: TokenAction): Promise<string> {
    const jti = randomBytes(16).toString('base64url');
    const now = this.now();
    const iat = Math.floor(now / 1000);
    await this.db.transaction().execute(async (trx) => {
      await supersedeTokens(trx, user.id, action, now);
      await insertToken(trx, {
        id: jti,
        type: action,
        user_id: user.id,
        expires_at: (iat + ACCOUNT_TOKEN_TTL_SECONDS) * 1000,
        used_at: null,
        created_at: now,
      });
    });
    return new SignJWT({ action, email: user.email, firstname: user.firstname, lastname: user.lastname })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(user.id)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCOUNT_TOKEN_TTL_SECONDS)
      .sign(this.secret);
  }

  private async verifyToken(
    token: string,
    action: TokenAction,
  ): Promise<{ userId: string; tokenId: string }> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        currentDate: new Date(this.now()),
      });
      if (payload.action !== action || !payload.sub || !payload.jti)
        throw invalidField('token', 'not a valid link');
      const stored = await findToken(this.db, payload.jti);
      if (!stored || stored.type !== action) throw invalidField('token', 'not a valid link');
      return { userId: payload.sub, tokenId: payload.jti };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new DomainError(
          400,
          action === 'USER_REGISTRATION' ? REGISTRATION_EXPIRED : PASSWORD_TOKEN_EXPIRED,
          'TOKEN_EXPIRED',
        );
      }
      if (error instanceof DomainError) throw error;
      throw invalidField('token', 'not a valid link');
    }
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
