import bcrypt from 'bcryptjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, allPermissions } from '@portico/model';
import {
  deleteUser,
  findAllRoles,
  findMembershipsOfMember,
  findRole,
  findUserBySource,
  insertRole,
  updateRole,
  updateUser,
} from '@portico/storage';
import type { TestDatabase } from '@portico/storage/testing';
import { createTestDatabase, testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { basic, call, login, memoryLog, startTestApp } from '../../test-support/index.js';

const SCOPES_WITH_DEFAULT = ['MANAGEMENT', 'PORTAL', 'API', 'APPLICATION'];

for (const dialect of await testDialects()) {
  describe(`${dialect}: start-up (built-in roles and first administrator)`, () => {
    let database: TestDatabase;
    let running: TestApp | undefined;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(async () => {
      await running?.close();
      running = undefined;
    });
    afterAll(() => database?.destroy());

    /** Starts the management API on the same database, as a restart would. */
    const start = async () => {
      await running?.close();
      running = await startTestApp(dialect, { database });
      return running;
    };
    const defaultsByScope = async () => {
      const roles = await findAllRoles(database.storage.db);
      const out: Record<string, string[]> = {};
      for (const r of roles.filter((r) => r.is_default === 1)) (out[r.scope] ??= []).push(r.name);
      return out;
    };

    it('creates every built-in role with its flags and permissions', async () => {
      await start();
      const roles = await findAllRoles(database.storage.db);
      expect(roles.map((r) => `${r.scope}:${r.name}`).sort()).toEqual(
        BUILT_IN_ROLES.map((r) => `${r.scope}:${r.name}`).sort(),
      );
      for (const builtIn of BUILT_IN_ROLES) {
        const row = roles.find((r) => r.scope === builtIn.scope && r.name === builtIn.name)!;
        expect(JSON.parse(row.permissions), `${builtIn.scope}:${builtIn.name}`).toEqual(builtIn.permissions);
        expect(row.is_system).toBe(builtIn.system ? 1 : 0);
      }
    });

    it('leaves exactly one default role in each scope that has one', async () => {
      await start();
      expect(await defaultsByScope()).toEqual({
        MANAGEMENT: ['USER'],
        PORTAL: ['USER'],
        API: ['USER'],
        APPLICATION: ['USER'],
      });
    });

    it('creates the first administrator admin/admin, with MANAGEMENT and PORTAL ADMIN', async () => {
      const t = await start();
      const admin = await findUserBySource(t.db, 'portico', 'admin');
      expect(admin).toMatchObject({ status: 'ACTIVE', lastname: 'Administrator' });
      const memberships = await findMembershipsOfMember(t.db, 'USER', admin!.id);
      expect(
        memberships.map((m) => `${m.reference_type}/${m.reference_id}:${m.role_scope}:${m.role_name}`).sort(),
      ).toEqual(['MANAGEMENT/DEFAULT:MANAGEMENT:ADMIN', 'PORTAL/DEFAULT:PORTAL:ADMIN']);
      await login(t.app, 'admin', 'admin');
    });

    it('restores an altered system role at the next start', async () => {
      const db = database.storage.db;
      await start();
      await updateRole(db, 'MANAGEMENT', 'ADMIN', {
        permissions: JSON.stringify({ AUDIT: [] }),
        is_system: 0,
        is_default: 1,
      });
      let t = await start();
      const restored = await findRole(db, 'MANAGEMENT', 'ADMIN');
      expect(JSON.parse(restored!.permissions)).toEqual(allPermissions('MANAGEMENT'));
      expect(restored).toMatchObject({ is_system: 1, is_default: 0 });
      expect((await defaultsByScope()).MANAGEMENT).toEqual(['USER']);

      // Visible from outside too: the administrator can read the audit trail again.
      await updateRole(db, 'MANAGEMENT', 'ADMIN', { permissions: JSON.stringify({}) });
      const crippled = await login(t.app, 'admin', 'admin');
      expect((await call(t.app, crippled, { method: 'GET', url: '/audit' })).statusCode).toBe(403);
      t = await start();
      expect((await call(t.app, crippled, { method: 'GET', url: '/audit' })).statusCode).toBe(200);
    });

    it('keeps the changes made to a non-system built-in role, and recreates a deleted one', async () => {
      const db = database.storage.db;
      await start();
      const changed = JSON.stringify({ DEFINITION: ['R'] });
      await updateRole(db, 'API', 'USER', { permissions: changed, description: 'Ours now' });
      await db.deleteFrom('roles').where('scope', '=', 'API').where('name', '=', 'REVIEWER').execute();
      await start();
      expect(await findRole(db, 'API', 'USER')).toMatchObject({
        permissions: changed,
        description: 'Ours now',
      });
      const reviewer = BUILT_IN_ROLES.find((r) => r.scope === 'API' && r.name === 'REVIEWER')!;
      expect(JSON.parse((await findRole(db, 'API', 'REVIEWER'))!.permissions)).toEqual(reviewer.permissions);
    });

    it('brings two default roles of a scope back to one, and gives a scope without default its built-in one', async () => {
      const db = database.storage.db;
      await start();
      await updateRole(db, 'API', 'REVIEWER', { is_default: 1 });
      await updateRole(db, 'PORTAL', 'USER', { is_default: 0 });
      await start();
      const defaults = await defaultsByScope();
      for (const scope of SCOPES_WITH_DEFAULT) expect(defaults[scope], scope).toHaveLength(1);
      expect(defaults.PORTAL).toEqual(['USER']);
      await updateRole(db, 'API', 'REVIEWER', { is_default: 0 });
      await updateRole(db, 'API', 'USER', { is_default: 1 });
    });

    it("keeps an administrator's own default role instead of the built-in one", async () => {
      const db = database.storage.db;
      await start();
      await insertRole(db, {
        scope: 'APPLICATION',
        name: 'GUEST',
        description: 'Our default',
        is_default: 1,
        is_system: 0,
        permissions: JSON.stringify({ DEFINITION: ['R'] }),
        created_at: 0,
        updated_at: 0,
      });
      await updateRole(db, 'APPLICATION', 'USER', { is_default: 0 });
      await start();
      expect((await defaultsByScope()).APPLICATION).toEqual(['GUEST']);
      await db.deleteFrom('roles').where('scope', '=', 'APPLICATION').where('name', '=', 'GUEST').execute();
      await updateRole(db, 'APPLICATION', 'USER', { is_default: 1 });
    });

    it('creates the first administrator only once: a changed password stays, a deleted admin stays deleted', async () => {
      const db = database.storage.db;
      let t = await start();
      const admin = (await findUserBySource(db, 'portico', 'admin'))!;
      await updateUser(db, admin.id, { password: await bcrypt.hash('n3w-admin-pass', 4) });
      t = await start();
      const attempt = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/management/user/login',
          headers: { authorization: basic('admin', password) },
          remoteAddress: `192.0.2.${password.length}`,
        });
      expect((await attempt('admin')).statusCode).toBe(401);
      expect((await attempt('n3w-admin-pass')).statusCode).toBe(200);

      await deleteUser(db, admin.id);
      await start();
      expect(await findUserBySource(db, 'portico', 'admin')).toBeUndefined();
    });

    it('warns at start while the administrator still has the initial password', async () => {
      const fresh = await createTestDatabase(dialect);
      try {
        const log = memoryLog();
        const t = await startTestApp(dialect, {
          database: fresh,
          logger: { level: 'warn', stream: log.stream },
        });
        await t.close();
        expect(log.text()).toContain('still has its initial password');

        const admin = (await findUserBySource(fresh.storage.db, 'portico', 'admin'))!;
        await updateUser(fresh.storage.db, admin.id, { password: await bcrypt.hash('changed-it', 4) });
        const quiet = memoryLog();
        await (
          await startTestApp(dialect, { database: fresh, logger: { level: 'warn', stream: quiet.stream } })
        ).close();
        expect(quiet.text()).not.toContain('initial password');
      } finally {
        await fresh.destroy();
      }
    });
  });
}
