import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { MailService } from '../mail/mail.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';

/** What the groups routes need from the application. */
export interface GroupsDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  audit: AuditService;
  mail: MailService;
  /** Signs the invitation links (the session secret). */
  secret: Uint8Array;
}
