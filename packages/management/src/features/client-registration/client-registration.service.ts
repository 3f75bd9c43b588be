import type { ClientRegistrationProviderInput, ClientRegistrationProviderJson } from '@portico/model';
import { CLIENT_REGISTRATION_MESSAGES, invalidField, notFound } from '@portico/model';
import type { ClientRegistrationProviderRow, Database } from '@portico/storage';
import {
  deleteClientRegistrationProvider,
  findClientRegistrationProviderById,
  findClientRegistrationProviders,
  insertClientRegistrationProvider,
  updateClientRegistrationProvider,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import type { DcrClient, DcrProvider } from './dcr-client.js';

export const ONLY_ONE_PROVIDER = (name: string) =>
  `Only one client registration provider can be defined: update [${name}].`;

const scopesOf = (row: ClientRegistrationProviderRow): string[] => {
  try {
    const value = JSON.parse(row.scopes) as unknown;
    return Array.isArray(value) ? (value as string[]) : [];
  } catch {
    return [];
  }
};

export const toDcrProvider = (row: ClientRegistrationProviderRow): DcrProvider => ({
  discovery_endpoint: row.discovery_endpoint,
  client_id: row.client_id,
  client_secret: row.client_secret,
  scopes: scopesOf(row),
});

/** A provider on the wire; the client secret only to who may change it. */
export function toProviderJson(
  row: ClientRegistrationProviderRow,
  withSecret: boolean,
): ClientRegistrationProviderJson {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    discovery_endpoint: row.discovery_endpoint,
    client_id: row.client_id,
    ...(withSecret ? { client_secret: row.client_secret } : {}),
    scopes: scopesOf(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Client registration providers (console-applications-and-settings.md 2.3, 3, 5, 7). As Gravitee 1.x:
 * one provider at a time, and a provider is saved only once its discovery document answers and its
 * client credentials obtain an access token.
 */
export class ClientRegistrationProviderService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dcr: DcrClient,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  list(): Promise<ClientRegistrationProviderRow[]> {
    return findClientRegistrationProviders(this.db);
  }

  async get(id: string): Promise<ClientRegistrationProviderRow> {
    const row = await findClientRegistrationProviderById(this.db, id);
    if (!row) throw notFound('Client registration provider', id);
    return row;
  }

  async create(
    actorId: string,
    input: ClientRegistrationProviderInput,
  ): Promise<ClientRegistrationProviderRow> {
    if (!input.client_secret)
      throw invalidField('client_secret', CLIENT_REGISTRATION_MESSAGES.clientSecretRequired);
    const existing = await this.list();
    if (existing.length > 0) throw invalidField('name', ONLY_ONE_PROVIDER(existing[0]!.name));
    const scopes = input.scopes ?? [];
    await this.dcr.check({ ...input, client_secret: input.client_secret, scopes });
    const id = newId();
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      await insertClientRegistrationProvider(trx, {
        id,
        name: input.name,
        description: input.description ?? null,
        discovery_endpoint: input.discovery_endpoint,
        client_id: input.client_id,
        client_secret: input.client_secret!,
        scopes: JSON.stringify(scopes),
        created_at: now,
        updated_at: now,
      });
      const row = (await findClientRegistrationProviderById(trx, id))!;
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'CLIENT_REGISTRATION_PROVIDER_CREATED',
        properties: { CLIENT_REGISTRATION_PROVIDER: id },
        after: toProviderJson(row, false),
      });
      return row;
    });
  }

  /** PUT: every field replaced; an absent client secret keeps the stored one. */
  async update(
    actorId: string,
    id: string,
    input: ClientRegistrationProviderInput,
  ): Promise<ClientRegistrationProviderRow> {
    const row = await this.get(id);
    const secret = input.client_secret || row.client_secret;
    const scopes = input.scopes ?? [];
    await this.dcr.check({ ...input, client_secret: secret, scopes });
    return this.db.transaction().execute(async (trx) => {
      await updateClientRegistrationProvider(trx, id, {
        name: input.name,
        description: input.description ?? null,
        discovery_endpoint: input.discovery_endpoint,
        client_id: input.client_id,
        client_secret: secret,
        scopes: JSON.stringify(scopes),
        updated_at: Math.max(this.now(), row.updated_at + 1),
      });
      const saved = (await findClientRegistrationProviderById(trx, id))!;
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'CLIENT_REGISTRATION_PROVIDER_UPDATED',
        properties: { CLIENT_REGISTRATION_PROVIDER: id },
        before: toProviderJson(row, false),
        after: toProviderJson(saved, false),
      });
      return saved;
    });
  }

  async delete(actorId: string, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await findClientRegistrationProviderById(trx, id);
      if (!row) throw notFound('Client registration provider', id);
      await deleteClientRegistrationProvider(trx, id);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'CLIENT_REGISTRATION_PROVIDER_DELETED',
        properties: { CLIENT_REGISTRATION_PROVIDER: id },
        before: toProviderJson(row, false),
      });
    });
  }
}
