import type { Executor } from '../database.js';

/** Who a broadcast message reaches: an active user and the address mails go to (if any). */
export interface MessageRecipient {
  id: string;
  email: string | null;
}

/** The environment's reference id for MANAGEMENT and PORTAL memberships. */
const ENVIRONMENT = 'DEFAULT';

/**
 * Active users holding one of `roleNames` in a platform scope (MANAGEMENT or PORTAL). A user without
 * a membership of that scope holds its default role, so when `defaultRole` is among the names those
 * users are included too.
 */
export async function findPlatformRoleRecipients(
  db: Executor,
  scope: 'MANAGEMENT' | 'PORTAL',
  roleNames: readonly string[],
  defaultRole: string | undefined,
): Promise<MessageRecipient[]> {
  if (roleNames.length === 0) return [];
  const holdsScope = db
    .selectFrom('memberships')
    .select('member_id')
    .where('member_type', '=', 'USER')
    .where('reference_type', '=', scope)
    .where('reference_id', '=', ENVIRONMENT)
    .where('role_scope', '=', scope);
  const withRole = holdsScope.where('role_name', 'in', roleNames);
  const includeDefault = defaultRole !== undefined && roleNames.includes(defaultRole);
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('status', '=', 'ACTIVE')
    .where((eb) =>
      includeDefault
        ? eb.or([eb('id', 'in', withRole), eb('id', 'not in', holdsScope)])
        : eb('id', 'in', withRole),
    )
    .orderBy('id')
    .execute();
}

/**
 * Active users holding one of `roleNames` (APPLICATION scope) on an application whose subscription to
 * the API is accepted: its direct members, and the members of the application's groups.
 */
export async function findApiConsumerRecipients(
  db: Executor,
  apiId: string,
  roleNames: readonly string[],
): Promise<MessageRecipient[]> {
  if (roleNames.length === 0) return [];
  const applications = await db
    .selectFrom('applications')
    .select(['id', 'groups'])
    .where(
      'id',
      'in',
      db
        .selectFrom('subscriptions')
        .select('application_id')
        .where('api_id', '=', apiId)
        .where('status', '=', 'ACCEPTED'),
    )
    .execute();
  if (applications.length === 0) return [];
  const groups = new Set<string>();
  for (const application of applications) {
    for (const group of JSON.parse(application.groups) as string[]) groups.add(group);
  }
  const members = db
    .selectFrom('memberships')
    .select('member_id')
    .where('member_type', '=', 'USER')
    .where('role_scope', '=', 'APPLICATION')
    .where('role_name', 'in', roleNames)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('reference_type', '=', 'APPLICATION'),
          eb(
            'reference_id',
            'in',
            applications.map((a) => a.id),
          ),
        ]),
        ...(groups.size > 0
          ? [eb.and([eb('reference_type', '=', 'GROUP'), eb('reference_id', 'in', [...groups])])]
          : []),
      ]),
    );
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('status', '=', 'ACTIVE')
    .where('id', 'in', members)
    .orderBy('id')
    .execute();
}
