import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, parsePermission } from '@portico/model';
import type { ApiRow, ApplicationRow, GroupRow, UserRow } from '@portico/storage';
import { findRole, findUserBySource, updateRole } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import {
  addMembership,
  createApi,
  createApplication,
  createGroup,
  createUser,
  grantPlatformRole,
  grantRoleOn,
  grantRoleThroughGroup,
  startTestApp,
} from '../../test-support/index.js';
import type { PermissionService } from './permissions.service.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: PermissionService`, () => {
    let t: TestApp;
    let permissions: PermissionService;
    let admin: UserRow;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      permissions = t.services.permissions;
      admin = (await findUserBySource(t.db, 'portico', 'admin'))!;
    });
    afterAll(() => t?.close());

    const has = (user: UserRow, permission: string, reference?: string) =>
      permissions.has(user.id, parsePermission(permission), reference);

    describe('MANAGEMENT and PORTAL scopes', () => {
      it('gives a user without membership the default roles', async () => {
        const user = await createUser(t.db);
        expect(await has(user, 'management-tag-r')).toBe(true);
        expect(await has(user, 'management-api-c')).toBe(false);
        expect(await has(user, 'portal-application-c')).toBe(true);
        expect(await has(user, 'portal-settings-r')).toBe(false);
      });

      it('uses the role of the membership instead of the default one', async () => {
        const publisher = await createUser(t.db);
        await grantPlatformRole(t.db, publisher.id, 'MANAGEMENT', 'API_PUBLISHER');
        expect(await has(publisher, 'management-api-c')).toBe(true);
        expect(await has(publisher, 'management-audit-r')).toBe(false);
        expect(await has(publisher, 'portal-application-c')).toBe(true);
      });

      it('lists roles and permission strings; only the MANAGEMENT ADMIN is an administrator', async () => {
        const access = await permissions.access(admin.id);
        expect(access.isAdmin).toBe(true);
        expect(access.roles.map((r) => `${r.scope}:${r.name}`)).toEqual(['MANAGEMENT:ADMIN', 'PORTAL:ADMIN']);
        expect(access.permissions).toEqual(expect.arrayContaining(['management-api-c', 'portal-settings-r']));

        const portalAdmin = await createUser(t.db);
        await grantPlatformRole(t.db, portalAdmin.id, 'PORTAL', 'ADMIN');
        expect((await permissions.access(portalAdmin.id)).isAdmin).toBe(false);
      });

      it('reads role changes at once (no stale cache)', async () => {
        const user = await createUser(t.db);
        await grantPlatformRole(t.db, user.id, 'MANAGEMENT', 'API_PUBLISHER');
        expect(await has(user, 'management-audit-r')).toBe(false);
        const original = (await findRole(t.db, 'MANAGEMENT', 'API_PUBLISHER'))!.permissions;
        await updateRole(t.db, 'MANAGEMENT', 'API_PUBLISHER', {
          permissions: JSON.stringify({ ...JSON.parse(original), AUDIT: ['R'] }),
        });
        try {
          expect(await has(user, 'management-audit-r')).toBe(true);
        } finally {
          await updateRole(t.db, 'MANAGEMENT', 'API_PUBLISHER', { permissions: original });
        }
      });

      it('grants GROUP permissions to administrators only', async () => {
        const user = await createUser(t.db);
        await grantPlatformRole(t.db, user.id, 'MANAGEMENT', 'API_PUBLISHER');
        expect(await has(user, 'group-member-u')).toBe(false);
        expect(await has(admin, 'group-member-u')).toBe(true);
      });
    });

    describe('API scope', () => {
      let api: ApiRow;
      let group: GroupRow;
      beforeAll(async () => {
        group = await createGroup(t.db);
        api = await createApi(t.db, { groups: [group.id] });
      });

      it('grants what the direct role on the API holds, and nothing on other APIs', async () => {
        const owner = await createUser(t.db);
        await grantRoleOn(t.db, owner.id, 'API', api.id, 'OWNER');
        const other = await createApi(t.db);
        expect(await has(owner, 'api-plan-u', api.id)).toBe(true);
        expect(await has(owner, 'api-gateway_definition-u', api.id)).toBe(false);
        expect(await has(owner, 'api-plan-u', other.id)).toBe(false);
      });

      it("grants a group member's role on the APIs of the group", async () => {
        const member = await createUser(t.db);
        await grantRoleThroughGroup(t.db, member.id, group.id, 'API', 'OWNER');
        expect(await has(member, 'api-subscription-u', api.id)).toBe(true);
        expect(await has(member, 'api-subscription-u', (await createApi(t.db)).id)).toBe(false);
      });

      it('does not extend the role of a group to APIs outside the group', async () => {
        const member = await createUser(t.db);
        const otherGroup = await createGroup(t.db);
        await addMembership(t.db, {
          memberId: member.id,
          referenceType: 'GROUP',
          referenceId: otherGroup.id,
          roleScope: 'API',
          roleName: 'OWNER',
        });
        expect(await has(member, 'api-plan-u', api.id)).toBe(false);
      });

      it('gives the MANAGEMENT ADMIN every API permission without membership', async () => {
        expect(await has(admin, 'api-gateway_definition-u', api.id)).toBe(true);
        expect(await has(admin, 'api-member-d', api.id)).toBe(true);
      });

      it('refuses an API permission checked without an API', async () => {
        expect(await has(admin, 'api-plan-r')).toBe(false);
      });

      it('lists the APIs where the user holds a permission, directly or via groups; "all" for admins', async () => {
        const validator = await createUser(t.db);
        const direct = await createApi(t.db);
        const readOnly = await createApi(t.db);
        await grantRoleOn(t.db, validator.id, 'API', direct.id, 'OWNER');
        await grantRoleOn(t.db, validator.id, 'API', readOnly.id, 'REVIEWER');
        await grantRoleThroughGroup(t.db, validator.id, group.id, 'API', 'OWNER');
        expect((await permissions.apisWith(validator.id, 'SUBSCRIPTION', 'U')) as string[]).toEqual(
          expect.arrayContaining([direct.id, api.id]),
        );
        expect(await permissions.apisWith(validator.id, 'SUBSCRIPTION', 'U')).toHaveLength(2);
        expect(await permissions.apisWith(admin.id, 'SUBSCRIPTION', 'U')).toBe('all');
      });
    });

    describe('APPLICATION scope', () => {
      let application: ApplicationRow;
      let group: GroupRow;
      beforeAll(async () => {
        group = await createGroup(t.db);
        application = await createApplication(t.db, { groups: [group.id] });
      });

      it('denies application-definition-d to an OWNER, grants it to a PRIMARY_OWNER', async () => {
        const owner = await createUser(t.db);
        const primary = await createUser(t.db);
        await grantRoleOn(t.db, owner.id, 'APPLICATION', application.id, 'OWNER');
        await grantRoleOn(t.db, primary.id, 'APPLICATION', application.id, 'PRIMARY_OWNER');
        expect(await has(owner, 'application-definition-u', application.id)).toBe(true);
        expect(await has(owner, 'application-definition-d', application.id)).toBe(false);
        expect(await has(primary, 'application-definition-d', application.id)).toBe(true);
      });

      it('denies every application permission to a user without membership', async () => {
        const user = await createUser(t.db);
        await grantPlatformRole(t.db, user.id, 'MANAGEMENT', 'API_PUBLISHER');
        expect(await has(user, 'application-definition-r', application.id)).toBe(false);
        expect(await permissions.referencePermissions(user.id, 'APPLICATION', application.id)).toEqual({});
      });

      it("grants a group member's APPLICATION role on the group's applications", async () => {
        const member = await createUser(t.db);
        await grantRoleThroughGroup(t.db, member.id, group.id, 'APPLICATION', 'USER');
        expect(await has(member, 'application-subscription-r', application.id)).toBe(true);
        expect(await has(member, 'application-subscription-c', application.id)).toBe(false);
      });

      it('gives the MANAGEMENT ADMIN every application permission', async () => {
        expect(await has(admin, 'application-definition-d', application.id)).toBe(true);
      });

      it('answers 404 for an unknown application', async () => {
        const check = has(admin, 'application-definition-r', 'no-such-app');
        await expect(check).rejects.toBeInstanceOf(DomainError);
        await expect(check).rejects.toMatchObject({
          httpStatus: 404,
          message: 'Application [no-such-app] can not be found.',
        });
      });
    });
  });
}
