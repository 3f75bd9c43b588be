import { randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { DomainError, invalidField } from '@portico/model';
import type { Database, Executor, UserRow } from '@portico/storage';
import {
  deleteInvitation,
  findGroupById,
  findInvitationsByEmail,
  findUserByEmail,
  findUserBySource,
  insertUser,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Passwords } from '../auth/passwords.js';
import { ENVIRONMENT_ID } from '../permissions/permissions.service.js';
import { PORTICO_SOURCE, auditedUser } from '../users/users.mapper.js';
import { giveGroupRoles } from './group-members.service.js';
import { defaultRole } from './group-roles.js';

const ISSUER = 'portico-invitation';
const ACTION = 'GROUP_INVITATION';
/** An invitation link is valid for one day, as a registration link. */
const TTL_SECONDS = 24 * 3600;

export const INVITATION_CANCELED = 'Invitation has been canceled';
export const INVITATION_EXPIRED = 'Your registration is expired!';

/** The token of the link mailed to an invited email: it lets that email finish an account. */
export async function issueInvitationToken(secret: Uint8Array, email: string, now: number): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ action: ACTION, email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setJti(randomBytes(16).toString('base64url'))
    .setIssuedAt(iat)
    .setExpirationTime(iat + TTL_SECONDS)
    .sign(secret);
}

/** Whether a registration link's token is a group invitation's (read unverified, to route it). */
export function isInvitationToken(token: string): boolean {
  try {
    const claims = decodeJwt(token);
    return claims.iss === ISSUER && claims.action === ACTION;
  } catch {
    return false;
  }
}

/**
 * Turns the pending invitations of the user's email into memberships of the groups (with the
 * invitation's roles, else the group's default roles) and deletes them; in the caller's transaction.
 * Runs when an account with that email comes to exist: a finished registration or invitation link.
 */
export async function acceptInvitations(trx: Executor, user: UserRow, now: number): Promise<number> {
  if (!user.email) return 0;
  const invitations = await findInvitationsByEmail(trx, user.email);
  for (const invitation of invitations) {
    const group =
      invitation.reference_type === 'GROUP' && (await findGroupById(trx, invitation.reference_id));
    if (group) {
      await giveGroupRoles(
        trx,
        group,
        user.id,
        {
          API: invitation.api_role ?? (await defaultRole(trx, group, 'API')),
          APPLICATION: invitation.application_role ?? (await defaultRole(trx, group, 'APPLICATION')),
        },
        now,
      );
    }
    await deleteInvitation(trx, invitation.id);
  }
  return invitations.length;
}

export interface InvitedAccount {
  token: string;
  password: string;
  firstname: string;
  lastname: string;
}

/**
 * Finishes the account of an invited email (the link of the invitation mail, posted to
 * `users/registration/finalize`): creates the active user of the built-in store and makes it a member
 * of the groups it was invited to. Works while self-registration is off, as Gravitee 1.x; refused once
 * the invitations are gone (canceled, or the link already used).
 */
export async function finishInvitedAccount(
  deps: {
    db: Kysely<Database>;
    secret: Uint8Array;
    audit: AuditService;
    passwords: Passwords;
    now: () => number;
  },
  input: InvitedAccount,
): Promise<UserRow> {
  let email: string;
  try {
    const { payload } = await jwtVerify(input.token, deps.secret, {
      issuer: ISSUER,
      algorithms: ['HS256'],
      currentDate: new Date(deps.now()),
    });
    if (payload.action !== ACTION || typeof payload.email !== 'string')
      throw invalidField('token', 'not a valid link');
    email = payload.email;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      throw new DomainError(400, INVITATION_EXPIRED, 'TOKEN_EXPIRED');
    if (error instanceof DomainError) throw error;
    throw invalidField('token', 'not a valid link');
  }
  const hash = await deps.passwords.hash(input.password);
  return deps.db.transaction().execute(async (trx) => {
    if ((await findInvitationsByEmail(trx, email)).length === 0)
      throw invalidField('token', INVITATION_CANCELED);
    if ((await findUserByEmail(trx, email)) || (await findUserBySource(trx, PORTICO_SOURCE, email)))
      throw new DomainError(400, `A user [${email}] already exists.`, 'USER_ALREADY_EXISTS', {
        field: 'email',
      });
    const now = deps.now();
    const user: UserRow = {
      id: newId(),
      source: PORTICO_SOURCE,
      source_id: email,
      email,
      firstname: input.firstname,
      lastname: input.lastname,
      password: hash,
      picture: null,
      status: 'ACTIVE',
      login_count: 0,
      last_connection_at: null,
      created_at: now,
      updated_at: now,
      sessions_valid_after: null,
      kept_session_id: null,
    };
    await insertUser(trx, user);
    await acceptInvitations(trx, user, now);
    await deps.audit.record(trx, {
      referenceType: 'ENVIRONMENT',
      referenceId: ENVIRONMENT_ID,
      userId: user.id,
      event: 'USER_CREATED',
      properties: { USER: user.id },
      after: auditedUser(user),
    });
    return user;
  });
}
