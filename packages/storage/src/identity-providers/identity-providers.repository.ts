import type { Executor } from '../database.js';
import type { IdentityProviderRow, NewIdentityProviderRow } from './identity-providers.table.js';

export async function findEnabledIdentityProviders(db: Executor): Promise<IdentityProviderRow[]> {
  return db.selectFrom('identity_providers').selectAll().where('enabled', '=', 1).orderBy('name').execute();
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
