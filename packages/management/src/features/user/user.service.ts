import {
  ValidationError,
  invalidField,
  notFound,
  staleEtag,
  tooManyLoginAttempts,
  wrongCredentials,
} from '@portico/model';
import type { Database, UserRow } from '@portico/storage';
import {
  endSessionsBefore,
  findAllTags,
  findMembershipsOfMember,
  findUserByEmail,
  findUserById,
  findUserBySource,
  updateUser,
  updateUserColumns,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { Passwords } from '../auth/passwords.js';
import { validatePicture } from '../users/avatar.js';
import { PORTICO_SOURCE, auditedUser } from '../users/users.mapper.js';

export const WRONG_CURRENT_PASSWORD = 'Wrong current password';
export const NO_OWN_PASSWORD = 'only users of the built-in user store have a password here';

export interface ProfileChanges {
  username?: string | undefined;
  firstname?: string | undefined;
  lastname?: string | undefined;
  email?: string | undefined;
  picture?: string | null | undefined;
}

/** The signed-in user's own account: sign-in with a password, profile, sharding tags. */
export class UserService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly permissions: PermissionService,
    private readonly audit: AuditService,
    private readonly throttle: LoginThrottle,
    private readonly passwords: Passwords,
    private readonly now: () => number,
  ) {}

  /**
   * Checks a username and password of the built-in user store (`user/login` and Basic credentials on
   * any call). Wrong user and wrong password give the same 401; repeated failures on one account or
   * from one address are slowed down (429 with Retry-After). Does not count as a sign-in.
   */
  async verifyPassword(username: string, password: string, address: string): Promise<UserRow> {
    const wait = await this.throttle.waitSeconds(username, address);
    if (wait > 0) throw tooManyLoginAttempts(wait);
    const user = await findUserBySource(this.db, PORTICO_SOURCE, username);
    const ok = await this.passwords.verify(password, user?.password);
    if (!user || !user.password || !ok || user.status !== 'ACTIVE') {
      await this.throttle.recordFailure(username, address);
      throw wrongCredentials();
    }
    await this.throttle.recordSuccess(username);
    return user;
  }

  /** A sign-in (`user/login`): counts it, keeps its time and audits USER_CONNECTED. */
  async recordLogin(user: UserRow): Promise<UserRow> {
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      await updateUser(trx, user.id, { login_count: user.login_count + 1, last_connection_at: now });
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: user.id,
        event: 'USER_CONNECTED',
        properties: { USER: user.id },
      });
    });
    return { ...user, login_count: user.login_count + 1, last_connection_at: now };
  }

  /**
   * Updates the user's own profile; the username cannot change. Only the fields that differ from
   * `user` (the version the caller read) are written, in one statement, so a concurrent change of
   * other fields is kept. With `expectedVersion` (the request's If-Match), a change made meanwhile
   * answers 412 and nothing is written.
   */
  async updateProfile(user: UserRow, changes: ProfileChanges, expectedVersion?: number): Promise<UserRow> {
    if (changes.username !== undefined && changes.username !== user.source_id) {
      throw invalidField('username', 'the username can not be changed');
    }
    if (changes.email !== undefined && changes.email.toLowerCase() !== (user.email ?? '').toLowerCase()) {
      const owner = await findUserByEmail(this.db, changes.email);
      if (owner && owner.id !== user.id)
        throw invalidField('email', 'this email is already used by another account');
    }
    const picture =
      changes.picture === undefined
        ? undefined
        : changes.picture === null
          ? null
          : validatePicture('picture', changes.picture);
    const differs = <K extends 'firstname' | 'lastname' | 'email' | 'picture'>(
      key: K,
      value: UserRow[K] | undefined,
    ) => (value !== undefined && value !== user[key] ? { [key]: value } : {});
    const update = {
      ...differs('firstname', changes.firstname),
      ...differs('lastname', changes.lastname),
      ...differs('email', changes.email),
      ...differs('picture', picture),
    };
    if (Object.keys(update).length === 0) {
      if (expectedVersion !== undefined && expectedVersion !== user.updated_at) throw staleEtag();
      return user;
    }
    return this.db.transaction().execute(async (trx) => {
      if ((await updateUserColumns(trx, user.id, update, this.now(), expectedVersion)) === 0) {
        if (expectedVersion !== undefined) throw staleEtag();
        throw notFound('User', user.id);
      }
      const after = await findUserById(trx, user.id);
      if (!after) throw notFound('User', user.id);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: user.id,
        event: 'USER_UPDATED',
        properties: { USER: user.id },
        before: auditedUser(user),
        after: auditedUser(after),
      });
      return after;
    });
  }

  /**
   * Changes the user's own password, given the current one (400 'Wrong current password' naming
   * `old_password`; wrong guesses count as failed sign-ins of the account, so they are throttled too).
   * Every other session of the user ends; `keptSessionId`, the session asking, stays open.
   */
  async changeOwnPassword(
    user: UserRow,
    input: { oldPassword: string; password: string },
    address: string,
    keptSessionId: string | null,
  ): Promise<void> {
    if (user.source !== PORTICO_SOURCE || !user.password) throw invalidField('source', NO_OWN_PASSWORD);
    const wait = await this.throttle.waitSeconds(user.source_id, address);
    if (wait > 0) throw tooManyLoginAttempts(wait);
    if (!(await this.passwords.verify(input.oldPassword, user.password))) {
      await this.throttle.recordFailure(user.source_id, address);
      throw new ValidationError('old_password', WRONG_CURRENT_PASSWORD);
    }
    const hash = await this.passwords.hash(input.password);
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      await updateUserColumns(trx, user.id, { password: hash }, now);
      await endSessionsBefore(trx, user.id, now, keptSessionId);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: user.id,
        event: 'PASSWORD_CHANGED',
        properties: { USER: user.id },
      });
    });
  }

  /** Sharding tags the user may use: unrestricted ones and those of the user's groups (admins: all). */
  async tags(userId: string): Promise<string[]> {
    const [tags, access, memberships] = await Promise.all([
      findAllTags(this.db),
      this.permissions.access(userId),
      findMembershipsOfMember(this.db, 'USER', userId),
    ]);
    const groups = new Set(
      memberships.filter((m) => m.reference_type === 'GROUP').map((m) => m.reference_id),
    );
    return tags
      .filter((t) => {
        const restricted = JSON.parse(t.restricted_groups) as string[];
        return access.isAdmin || restricted.length === 0 || restricted.some((g) => groups.has(g));
      })
      .map((t) => t.id);
  }
}
