import type { Database } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { MembersService, PRIMARY_OWNER_UNREMOVABLE } from '../members/members.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { ApplicationService } from './applications.service.js';

export const APP_PRIMARY_OWNER_UNREMOVABLE = PRIMARY_OWNER_UNREMOVABLE;
export const APP_ALREADY_PRIMARY_OWNER = 'This user is already the primary owner of the application.';
export const APP_TRANSFER_OWNER_ONLY =
  'Only the primary owner of the application or an administrator may transfer its ownership.';

export interface ApplicationMembersDeps {
  db: Kysely<Database>;
  applications: ApplicationService;
  audit: AuditService;
  permissions: PermissionService;
  now: () => number;
}

/**
 * The members of an application (`applications/{id}/members`): roles of the APPLICATION scope,
 * application-member-c and -u, and the shared rules of `MembersService`.
 */
export class ApplicationMembersService extends MembersService {
  constructor(deps: ApplicationMembersDeps) {
    super(deps, {
      scope: 'APPLICATION',
      permissionPrefix: 'application',
      pluralNoun: 'applications',
      alreadyPrimaryOwner: APP_ALREADY_PRIMARY_OWNER,
      transferOwnerOnly: APP_TRANSFER_OWNER_ONLY,
      get: (id) => deps.applications.get(id),
      primaryOwner: async (id) => (await deps.applications.owners([id])).get(id),
    });
  }
}
