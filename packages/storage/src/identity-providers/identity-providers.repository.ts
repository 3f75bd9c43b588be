import type { Executor } from '../database.js';
import type {
  IdentityProviderRow,
  IdentityProviderUpdate,
  NewIdentityProviderRow,
} from './identity-providers.table.js';

export async function findEnabledIdentityProviders(db: Executor): Promise<IdentityProviderRow[]> {
  return db.selectFrom('identity_providers').selectAll().where('enabled', '=', 1).orderBy('name').execute();
}

export async function findAllIdentityProviders(db: Executor): Promise<IdentityProviderRow[]> {
  return db.selectFrom('identity_providers').selectAll().orderBy('name').orderBy('id').execute();
}

export async function findIdentityProviderById(
  db: Executor,
  id: string,
): Promise<IdentityProviderRow | undefined> {
  return db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertIdentityProvider(db: Executor, row: NewIdentityProviderRow): Promise<void> {
  await db.insertInto('identity_providers').values(row).execute();
}

export async function updateIdentityProvider(
  db: Executor,
  id: string,
  changes: IdentityProviderUpdate,
): Promise<void> {
  await db.updateTable('identity_providers').set(changes).where('id', '=', id).execute();
}

export async function deleteIdentityProvider(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('identity_providers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
