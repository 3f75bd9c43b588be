import type { Database } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { MembersService } from '../members/members.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { ALREADY_PRIMARY_OWNER, TRANSFER_OWNER_ONLY } from './apis.errors.js';
import type { ApiService } from './apis.service.js';

export type { MemberInput, MemberJson } from '../members/members.service.js';

export interface ApiMembersDeps {
  db: Kysely<Database>;
  apis: ApiService;
  audit: AuditService;
  permissions: PermissionService;
  now: () => number;
}

/**
 * The members of an API (`apis/{id}/members`, `apis/{id}/groups`): roles of the API scope,
 * api-member-c and -u, and the shared rules of `MembersService`.
 */
export class ApiMembersService extends MembersService {
  constructor(deps: ApiMembersDeps) {
    super(deps, {
      scope: 'API',
      permissionPrefix: 'api',
      pluralNoun: 'APIs',
      alreadyPrimaryOwner: ALREADY_PRIMARY_OWNER,
      transferOwnerOnly: TRANSFER_OWNER_ONLY,
      get: (id) => deps.apis.get(id),
      primaryOwner: (id) => deps.apis.primaryOwner(id),
    });
  }
}
