import type { Executor } from '../database.js';
import type {
  ApplicationRegistrationRow,
  ClientRegistrationProviderRow,
  ClientRegistrationProviderUpdate,
  NewApplicationRegistrationRow,
  NewClientRegistrationProviderRow,
} from './client-registration.table.js';

export async function findClientRegistrationProviders(
  db: Executor,
): Promise<ClientRegistrationProviderRow[]> {
  return db.selectFrom('client_registration_providers').selectAll().orderBy('name').orderBy('id').execute();
}

export async function findClientRegistrationProviderById(
  db: Executor,
  id: string,
): Promise<ClientRegistrationProviderRow | undefined> {
  return db.selectFrom('client_registration_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertClientRegistrationProvider(
  db: Executor,
  row: NewClientRegistrationProviderRow,
): Promise<void> {
  await db.insertInto('client_registration_providers').values(row).execute();
}

export async function updateClientRegistrationProvider(
  db: Executor,
  id: string,
  changes: ClientRegistrationProviderUpdate,
): Promise<void> {
  await db.updateTable('client_registration_providers').set(changes).where('id', '=', id).execute();
}

export async function deleteClientRegistrationProvider(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('client_registration_providers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findApplicationRegistration(
  db: Executor,
  applicationId: string,
): Promise<ApplicationRegistrationRow | undefined> {
  return db
    .selectFrom('application_registrations')
    .selectAll()
    .where('application_id', '=', applicationId)
    .executeTakeFirst();
}

/** Records (or replaces, after a renewal) the registration of an application's client. */
export async function saveApplicationRegistration(
  db: Executor,
  row: NewApplicationRegistrationRow,
): Promise<void> {
  await db
    .insertInto('application_registrations')
    .values(row)
    .onConflict((oc) =>
      oc.column('application_id').doUpdateSet({
        provider_id: row.provider_id,
        client_id: row.client_id,
        registration_access_token: row.registration_access_token ?? null,
        registration_client_uri: row.registration_client_uri ?? null,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function deleteApplicationRegistration(db: Executor, applicationId: string): Promise<void> {
  await db.deleteFrom('application_registrations').where('application_id', '=', applicationId).execute();
}
