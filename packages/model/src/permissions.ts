/**
 * Role scopes, permission names and rights, as the spec names them
 * (permission strings are `scope-permission-right`, lowercase: `management-api-c`, `api-rating_answer-r`).
 */
export const ROLE_SCOPES = ['MANAGEMENT', 'PORTAL', 'API', 'APPLICATION', 'GROUP'] as const;
export type RoleScope = (typeof ROLE_SCOPES)[number];

export const RIGHTS = ['C', 'R', 'U', 'D'] as const;
export type Right = (typeof RIGHTS)[number];

/** Every permission of every scope; a role maps some of them to rights. */
export const PERMISSIONS = {
  MANAGEMENT: [
    'INSTANCE',
    'PLATFORM',
    'AUDIT',
    'MESSAGE',
    'ALERT',
    'TENANT',
    'TAG',
    'ENTRYPOINT',
    'ROLE',
    'USER',
    'GROUP',
    'DICTIONARY',
    'NOTIFICATION',
    'API',
    'APPLICATION',
  ],
  PORTAL: [
    'VIEW',
    'METADATA',
    'SETTINGS',
    'IDENTITY_PROVIDER',
    'CLIENT_REGISTRATION_PROVIDER',
    'TOP_APIS',
    'API_HEADER',
    'APPLICATION',
    'DOCUMENTATION',
  ],
  API: [
    'DEFINITION',
    'GATEWAY_DEFINITION',
    'PLAN',
    'SUBSCRIPTION',
    'MEMBER',
    'METADATA',
    'ANALYTICS',
    'EVENT',
    'HEALTH',
    'LOG',
    'DOCUMENTATION',
    'AUDIT',
    'RATING',
    'RATING_ANSWER',
    'NOTIFICATION',
    'MESSAGE',
    'ALERT',
    'RESPONSE_TEMPLATES',
    'DISCOVERY',
  ],
  APPLICATION: ['DEFINITION', 'MEMBER', 'ANALYTICS', 'LOG', 'SUBSCRIPTION', 'NOTIFICATION', 'ALERT'],
  GROUP: ['MEMBER'],
} as const satisfies Record<RoleScope, readonly string[]>;

export type PermissionName<S extends RoleScope = RoleScope> = (typeof PERMISSIONS)[S][number];

/** A role's permissions: permission name to the rights it grants. */
export type PermissionMap = Record<string, Right[]>;

export interface RoleDefinition {
  scope: RoleScope;
  name: string;
  description: string;
  default: boolean;
  system: boolean;
  permissions: PermissionMap;
}

const CRUD: Right[] = ['C', 'R', 'U', 'D'];

/** Every permission of a scope with every right: what ADMIN and PRIMARY_OWNER hold. */
export function allPermissions(scope: RoleScope): PermissionMap {
  return Object.fromEntries(PERMISSIONS[scope].map((p) => [p, [...CRUD]]));
}

function grant(entries: Record<string, string>): PermissionMap {
  return Object.fromEntries(Object.entries(entries).map(([p, rights]) => [p, rights.split('') as Right[]]));
}

export const PRIMARY_OWNER = 'PRIMARY_OWNER';
export const ADMIN = 'ADMIN';

/**
 * Roles created at every start. System roles (ADMIN, PRIMARY_OWNER) are rewritten each time so that
 * they always hold every permission; the other ones are created when missing and then left to the
 * administrators.
 */
export const BUILT_IN_ROLES: RoleDefinition[] = [
  {
    scope: 'MANAGEMENT',
    name: ADMIN,
    description: 'Administrator of the platform',
    default: false,
    system: true,
    permissions: allPermissions('MANAGEMENT'),
  },
  {
    scope: 'MANAGEMENT',
    name: 'USER',
    description: 'Default management role',
    default: true,
    system: false,
    permissions: grant({ GROUP: 'R', TAG: 'R', TENANT: 'R', ENTRYPOINT: 'R' }),
  },
  {
    scope: 'MANAGEMENT',
    name: 'API_PUBLISHER',
    description: 'Creates and manages APIs',
    default: false,
    system: false,
    permissions: grant({
      API: 'CRUD',
      APPLICATION: 'CR',
      GROUP: 'R',
      TAG: 'R',
      TENANT: 'R',
      ENTRYPOINT: 'R',
      ROLE: 'R',
    }),
  },
  {
    scope: 'PORTAL',
    name: ADMIN,
    description: 'Administrator of the portal',
    default: false,
    system: true,
    permissions: allPermissions('PORTAL'),
  },
  {
    scope: 'PORTAL',
    name: 'USER',
    description: 'Default portal role',
    default: true,
    system: false,
    permissions: grant({
      APPLICATION: 'CR',
      DOCUMENTATION: 'R',
      VIEW: 'R',
      METADATA: 'R',
      API_HEADER: 'R',
      TOP_APIS: 'R',
    }),
  },
  {
    scope: 'API',
    name: PRIMARY_OWNER,
    description: 'Owner of the API, holds every permission',
    default: false,
    system: true,
    permissions: allPermissions('API'),
  },
  {
    scope: 'API',
    name: 'OWNER',
    description: 'Manages the API, except its context path and ownership',
    default: false,
    system: false,
    permissions: { ...allPermissions('API'), GATEWAY_DEFINITION: ['R'] },
  },
  {
    scope: 'API',
    name: 'USER',
    description: 'Reads the API and rates it',
    default: true,
    system: false,
    permissions: grant({
      DEFINITION: 'R',
      PLAN: 'R',
      DOCUMENTATION: 'R',
      METADATA: 'R',
      RATING: 'CRU',
      RATING_ANSWER: 'R',
    }),
  },
  {
    scope: 'API',
    name: 'REVIEWER',
    description: 'Reads everything about the API',
    default: false,
    system: false,
    permissions: grant({
      DEFINITION: 'R',
      GATEWAY_DEFINITION: 'R',
      PLAN: 'R',
      SUBSCRIPTION: 'R',
      MEMBER: 'R',
      METADATA: 'R',
      ANALYTICS: 'R',
      EVENT: 'R',
      HEALTH: 'R',
      LOG: 'R',
      DOCUMENTATION: 'R',
      AUDIT: 'R',
      RATING: 'R',
      RATING_ANSWER: 'R',
      RESPONSE_TEMPLATES: 'R',
    }),
  },
  {
    scope: 'APPLICATION',
    name: PRIMARY_OWNER,
    description: 'Owner of the application, holds every permission',
    default: false,
    system: true,
    permissions: allPermissions('APPLICATION'),
  },
  {
    scope: 'APPLICATION',
    name: 'OWNER',
    description: 'Manages the application, except deleting it',
    default: false,
    system: false,
    permissions: { ...allPermissions('APPLICATION'), DEFINITION: ['R', 'U'] },
  },
  {
    scope: 'APPLICATION',
    name: 'USER',
    description: 'Reads the application, its subscriptions and its traffic',
    default: true,
    system: false,
    permissions: grant({ DEFINITION: 'R', MEMBER: 'R', ANALYTICS: 'R', LOG: 'R', SUBSCRIPTION: 'R' }),
  },
  {
    scope: 'GROUP',
    name: ADMIN,
    description: 'Administrator of a group',
    default: false,
    system: true,
    permissions: allPermissions('GROUP'),
  },
];

/** A required permission, e.g. parsed from `api-plan-u`. */
export interface Permission {
  scope: RoleScope;
  permission: string;
  right: Right;
}

const SCOPE_PREFIX: Record<string, RoleScope> = {
  management: 'MANAGEMENT',
  portal: 'PORTAL',
  api: 'API',
  application: 'APPLICATION',
  group: 'GROUP',
};

/** Parses the spec's permission string (`api-plan-u`); throws on a name that does not exist. */
export function parsePermission(text: string): Permission {
  const match = /^([a-z]+)-([a-z_]+)-([crud])$/.exec(text);
  const scope = match ? SCOPE_PREFIX[match[1]!] : undefined;
  const permission = match?.[2]!.toUpperCase();
  if (!match || !scope || !(PERMISSIONS[scope] as readonly string[]).includes(permission!)) {
    throw new Error(`Unknown permission ${text}`);
  }
  return { scope, permission: permission!, right: match[3]!.toUpperCase() as Right };
}

/** The spec's string form of every right of a permission map: `management-api-c`, ... */
export function permissionStrings(scope: RoleScope, permissions: PermissionMap): string[] {
  const out: string[] = [];
  for (const [name, rights] of Object.entries(permissions)) {
    for (const right of rights) out.push(`${scope}-${name}-${right}`.toLowerCase());
  }
  return out;
}

/** Merges several permission maps into one (union of rights, in C, R, U, D order). */
export function mergePermissions(...maps: PermissionMap[]): PermissionMap {
  const merged: Record<string, Set<Right>> = {};
  for (const map of maps) {
    for (const [name, rights] of Object.entries(map)) {
      const set = (merged[name] ??= new Set());
      for (const r of rights) set.add(r);
    }
  }
  return Object.fromEntries(
    Object.entries(merged).map(([name, set]) => [name, RIGHTS.filter((r) => set.has(r))]),
  );
}
