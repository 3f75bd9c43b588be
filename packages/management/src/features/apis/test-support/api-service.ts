import type { Dialect, UserRow } from '@portico/storage';
import { DomainError } from '@portico/model';
import { createUser, grantPlatformRole, startTestApp } from '../../../test-support/index.js';
import { createApiServices } from '../apis.routes.js';
import { uniquePath } from './index.js';
import { useStartedApp } from './suite.js';

/** Shared setup of the `API service rules` tests (apis.service*.test.ts). */

/** The refusal a promise ends with: status and message. */
export async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return { status: error.httpStatus, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** Starts the app with the API services, an API publisher (`owner`) and the administrator. */
export async function startApiServiceApp(dialect: Dialect) {
  const t = await startTestApp(dialect);
  const s = createApiServices({
    ctx: t.ctx,
    permissions: t.services.permissions,
    audit: t.services.audit,
    settings: t.services.settings,
  });
  const owner = await createUser(t.db);
  await grantPlatformRole(t.db, owner.id, 'MANAGEMENT', 'API_PUBLISHER');
  const admin: UserRow = (await t.db
    .selectFrom('users')
    .selectAll()
    .where('source_id', '=', 'admin')
    .executeTakeFirst())!;
  const newApi = (fields: Partial<{ context_path: string; name: string; description: string }> = {}) =>
    s.apis.create(owner, {
      name: 'Orders',
      version: '1.0',
      description: 'Orders of the shop',
      context_path: uniquePath('orders'),
      endpoint: 'https://orders.example.com',
      ...fields,
    });
  return { t, s, owner, admin, newApi };
}

export type ApiServiceSuite = Awaited<ReturnType<typeof startApiServiceApp>>;
export type NewApi = ApiServiceSuite['newApi'];

/** Starts that app before the tests of the suite and closes it after them. */
export const useApiServiceApp = (dialect: Dialect, set: (suite: ApiServiceSuite) => void): void =>
  useStartedApp(() => startApiServiceApp(dialect), set);
