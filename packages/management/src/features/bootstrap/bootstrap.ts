import type { FastifyBaseLogger } from 'fastify';
import { ADMIN, BUILT_IN_ROLES } from '@portico/model';
import type { Database } from '@portico/storage';
import {
  clearOtherDefaultRoles,
  findParameter,
  findRole,
  findUserBySource,
  insertRole,
  insertUser,
  updateRole,
  upsertMembership,
  upsertParameter,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import { ENVIRONMENT_ID } from '../permissions/permissions.service.js';
import { PORTICO_SOURCE } from '../users/users.mapper.js';
import type { Passwords } from '../auth/passwords.js';

const INITIALIZED = 'portico.internal.initialized';

/**
 * Creates or updates the system and default roles (at every start): system roles always hold every
 * permission; the others are created when missing and then belong to the administrators.
 */
export async function ensureBuiltInRoles(db: Kysely<Database>, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const role of BUILT_IN_ROLES) {
      const existing = await findRole(trx, role.scope, role.name);
      if (!existing) {
        const defaultTaken =
          role.default &&
          (await trx
            .selectFrom('roles')
            .select('name')
            .where('scope', '=', role.scope)
            .where('is_default', '=', 1)
            .executeTakeFirst());
        await insertRole(trx, {
          scope: role.scope,
          name: role.name,
          description: role.description,
          is_default: role.default && !defaultTaken ? 1 : 0,
          is_system: role.system ? 1 : 0,
          permissions: JSON.stringify(role.permissions),
          created_at: now,
          updated_at: now,
        });
      } else if (role.system) {
        await updateRole(trx, role.scope, role.name, {
          is_system: 1,
          is_default: 0,
          permissions: JSON.stringify(role.permissions),
          updated_at: now,
        });
      }
    }
    // Exactly one default role per scope that has one.
    for (const role of BUILT_IN_ROLES.filter((r) => r.default)) {
      const current = await trx
        .selectFrom('roles')
        .select('name')
        .where('scope', '=', role.scope)
        .where('is_default', '=', 1)
        .orderBy('name')
        .execute();
      if (current.length === 0) await updateRole(trx, role.scope, role.name, { is_default: 1 });
      else if (current.length > 1) await clearOtherDefaultRoles(trx, role.scope, current[0]!.name);
    }
  });
}

/**
 * On first start, creates the administrator `admin` / `admin` (MANAGEMENT ADMIN and PORTAL ADMIN).
 * At every start, warns while its password is still the initial one.
 */
export async function ensureFirstAdmin(
  db: Kysely<Database>,
  log: FastifyBaseLogger,
  passwords: Passwords,
  now: number,
): Promise<void> {
  const initialized = await findParameter(db, INITIALIZED);
  if (!initialized) {
    await db.transaction().execute(async (trx) => {
      if (!(await findUserBySource(trx, PORTICO_SOURCE, 'admin'))) {
        const id = newId();
        await insertUser(trx, {
          id,
          source: PORTICO_SOURCE,
          source_id: 'admin',
          email: null,
          firstname: null,
          lastname: 'Administrator',
          password: await passwords.hash('admin'),
          picture: null,
          status: 'ACTIVE',
          login_count: 0,
          last_connection_at: null,
          created_at: now,
          updated_at: now,
        });
        for (const scope of ['MANAGEMENT', 'PORTAL'] as const) {
          await upsertMembership(trx, {
            id: newId(),
            member_id: id,
            member_type: 'USER',
            reference_type: scope,
            reference_id: ENVIRONMENT_ID,
            role_scope: scope,
            role_name: ADMIN,
            created_at: now,
            updated_at: now,
          });
        }
      }
      await upsertParameter(trx, INITIALIZED, String(now), now);
    });
  }
  const admin = await findUserBySource(db, PORTICO_SOURCE, 'admin');
  if (admin?.password && (await passwords.verify('admin', admin.password))) {
    log.warn('The administrator "admin" still has its initial password "admin": change it now.');
  }
}
