import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { FastifyInstance } from 'fastify';
import type { RoleScope } from '@portico/model';
import type {
  ApiRow,
  ApplicationRow,
  Executor,
  GroupRow,
  NewApiRow,
  NewApplicationRow,
  NewPlanRow,
  NewSubscriptionRow,
  NotificationRow,
  PlanRow,
  SubscriptionRow,
  UserRow,
} from '@portico/storage';
import {
  findApiById,
  findApplicationById,
  findGroupById,
  findPlanById,
  findSubscriptionById,
  findUserById,
  insertApi,
  insertApplication,
  insertGroup,
  insertNotification,
  insertPlan,
  insertSubscription,
  insertTag,
  insertUser,
  upsertMembership,
} from '@portico/storage';
import type { TestSession } from './http.js';
import { login } from './http.js';

/** Rows written by the fixtures carry this instant unless told otherwise. */
export const FIXTURE_TIME = Date.UTC(2025, 11, 1);

/** Cheap bcrypt cost: test users are created by the dozen. */
const TEST_BCRYPT_ROUNDS = 4;

export const uniqueId = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

export interface NewTestUser {
  username?: string;
  password?: string;
  email?: string | null;
  firstname?: string | null;
  lastname?: string | null;
  status?: string;
  picture?: string | null;
}

/** A user of the built-in store (source `portico`) with a password. */
export async function createUser(db: Executor, user: NewTestUser = {}): Promise<UserRow> {
  const id = randomUUID();
  const username = user.username ?? uniqueId('user');
  await insertUser(db, {
    id,
    source: 'portico',
    source_id: username,
    email: user.email === undefined ? `${username}@example.test` : user.email,
    firstname: user.firstname === undefined ? 'Test' : user.firstname,
    lastname: user.lastname === undefined ? username : user.lastname,
    password: await bcrypt.hash(user.password ?? 'password', TEST_BCRYPT_ROUNDS),
    picture: user.picture ?? null,
    status: user.status ?? 'ACTIVE',
    login_count: 0,
    last_connection_at: null,
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
  });
  return (await findUserById(db, id))!;
}

export interface Membership {
  memberId: string;
  memberType?: 'USER' | 'GROUP';
  referenceType: 'MANAGEMENT' | 'PORTAL' | 'API' | 'APPLICATION' | 'GROUP';
  referenceId: string;
  roleScope: RoleScope;
  roleName: string;
}

/** Gives a member a role on a reference (replacing its role of that scope there). */
export async function addMembership(db: Executor, m: Membership): Promise<void> {
  await upsertMembership(db, {
    id: randomUUID(),
    member_id: m.memberId,
    member_type: m.memberType ?? 'USER',
    reference_type: m.referenceType,
    reference_id: m.referenceId,
    role_scope: m.roleScope,
    role_name: m.roleName,
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
  });
}

/** Gives a user a MANAGEMENT or PORTAL role of the one environment. */
export const grantPlatformRole = (
  db: Executor,
  userId: string,
  scope: 'MANAGEMENT' | 'PORTAL',
  roleName: string,
): Promise<void> =>
  addMembership(db, {
    memberId: userId,
    referenceType: scope,
    referenceId: 'DEFAULT',
    roleScope: scope,
    roleName,
  });

/** Gives a user a role on an API or an application. */
export const grantRoleOn = (
  db: Executor,
  userId: string,
  scope: 'API' | 'APPLICATION',
  referenceId: string,
  roleName: string,
): Promise<void> =>
  addMembership(db, { memberId: userId, referenceType: scope, referenceId, roleScope: scope, roleName });

/** Makes a user a group member holding a role of a scope (API or APPLICATION) on the group's items. */
export const grantRoleThroughGroup = (
  db: Executor,
  userId: string,
  groupId: string,
  scope: 'API' | 'APPLICATION',
  roleName: string,
): Promise<void> =>
  addMembership(db, {
    memberId: userId,
    referenceType: 'GROUP',
    referenceId: groupId,
    roleScope: scope,
    roleName,
  });

export async function createGroup(db: Executor, name = uniqueId('group')): Promise<GroupRow> {
  const id = randomUUID();
  await insertGroup(db, {
    id,
    name,
    event_rules: '[]',
    max_invitation: null,
    lock_api_role: 0,
    lock_application_role: 0,
    system_invitation: 0,
    email_invitation: 0,
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
  });
  return (await findGroupById(db, id))!;
}

export async function createApi(
  db: Executor,
  api: Partial<Omit<NewApiRow, 'groups'>> & { groups?: string[] } = {},
): Promise<ApiRow> {
  const id = api.id ?? randomUUID();
  const name = api.name ?? uniqueId('api');
  await insertApi(db, {
    name,
    version: '1.0',
    context_path: `/${name}`,
    definition: '{}',
    state: 'STOPPED',
    visibility: 'PRIVATE',
    lifecycle_state: 'CREATED',
    labels: '[]',
    views: '[]',
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
    ...api,
    id,
    groups: JSON.stringify(api.groups ?? []),
  });
  return (await findApiById(db, id))!;
}

export async function createApplication(
  db: Executor,
  application: Partial<Omit<NewApplicationRow, 'groups'>> & { groups?: string[] } = {},
): Promise<ApplicationRow> {
  const id = application.id ?? randomUUID();
  await insertApplication(db, {
    name: uniqueId('app'),
    type: 'SIMPLE',
    status: 'ACTIVE',
    settings: '{}',
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
    ...application,
    id,
    groups: JSON.stringify(application.groups ?? []),
  });
  return (await findApplicationById(db, id))!;
}

export async function createPlan(
  db: Executor,
  apiId: string,
  plan: Partial<Omit<NewPlanRow, 'api_id'>> = {},
): Promise<PlanRow> {
  const id = plan.id ?? randomUUID();
  await insertPlan(db, {
    name: uniqueId('plan'),
    security: 'API_KEY',
    validation: 'MANUAL',
    type: 'API',
    status: 'PUBLISHED',
    order: 0,
    characteristics: '[]',
    paths: '{}',
    excluded_groups: '[]',
    comment_required: 0,
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
    ...plan,
    id,
    api_id: apiId,
  });
  return (await findPlanById(db, id))!;
}

/** A subscription of an application to a plan (and so to the plan's API); PENDING unless told. */
export async function createSubscription(
  db: Executor,
  plan: PlanRow,
  application: ApplicationRow,
  subscription: Partial<NewSubscriptionRow> = {},
): Promise<SubscriptionRow> {
  const id = subscription.id ?? randomUUID();
  await insertSubscription(db, {
    status: 'PENDING',
    request: 'please',
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
    ...subscription,
    id,
    api_id: plan.api_id,
    plan_id: plan.id,
    application_id: application.id,
  });
  return (await findSubscriptionById(db, id))!;
}

export async function createNotification(
  db: Executor,
  userId: string,
  notification: Partial<Omit<NotificationRow, 'user_id'>> = {},
): Promise<NotificationRow> {
  const row = {
    id: randomUUID(),
    title: 'Subscription accepted',
    message: 'Your subscription was accepted',
    created_at: FIXTURE_TIME,
    ...notification,
    user_id: userId,
  };
  await insertNotification(db, row);
  return row;
}

export async function createTag(db: Executor, id: string, restrictedGroups: string[] = []): Promise<void> {
  await insertTag(db, {
    id,
    name: id,
    description: null,
    restricted_groups: JSON.stringify(restrictedGroups),
  });
}

export interface SignedInUser {
  user: UserRow;
  session: TestSession;
}

/**
 * Creates a user holding the given platform roles (others: the default roles) and signs them in.
 * The `password` is `password`.
 */
export async function signInNewUser(
  app: FastifyInstance,
  db: Executor,
  roles: { management?: string; portal?: string } = {},
  user: NewTestUser = {},
): Promise<SignedInUser> {
  const row = await createUser(db, user);
  if (roles.management) await grantPlatformRole(db, row.id, 'MANAGEMENT', roles.management);
  if (roles.portal) await grantPlatformRole(db, row.id, 'PORTAL', roles.portal);
  const session = await login(app, row.source_id, user.password ?? 'password');
  return { user: row, session: { ...session, userId: row.id } };
}
