import type { Database, Executor } from '@portico/storage';
import {
  deleteApplicationRegistration,
  findApplicationRegistration,
  findClientRegistrationProviderById,
  findClientRegistrationProviders,
  saveApplicationRegistration,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { DcrClient, DcrLog, RegisteredClient } from './dcr-client.js';
import { providerUnusable } from './dcr-client.js';
import { toDcrProvider } from './client-registration.service.js';

/** The OAuth settings of an application, as the applications feature keeps them. */
export interface OAuthSettings {
  client_id: string;
  client_secret: string;
  application_type: string;
  grant_types: string[];
  redirect_uris: string[];
  response_types: string[];
}

/** A client registered for an application being created: kept with it, or deleted if it is not created. */
export interface PendingRegistration {
  client_id: string;
  client_secret: string;
  save(trx: Executor, applicationId: string): Promise<void>;
  abandon(): Promise<void>;
}

/** RFC 7591 client metadata of an application (OpenID Connect knows `web` and `native` applications). */
export function clientMetadata(name: string, oauth: OAuthSettings): Record<string, unknown> {
  return {
    client_name: name,
    application_type: oauth.application_type === 'NATIVE' ? 'native' : 'web',
    grant_types: [...new Set(oauth.grant_types.map((g) => (g === 'implicit_hybrid' ? 'implicit' : g)))],
    response_types: oauth.response_types,
    redirect_uris: oauth.redirect_uris,
  };
}

/**
 * The client registration of BROWSER, WEB and NATIVE applications when a client registration provider
 * is defined (console-applications-and-settings.md 2.1, 4): creating the application registers its
 * client at the provider (RFC 7591), renewing the secret and deleting the application go through the
 * client's registration access token (RFC 7592). Without a provider, applications keep the client
 * credentials Portico generates.
 */
export class ApplicationRegistrar {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dcr: DcrClient,
    private readonly log: DcrLog,
    private readonly now: () => number,
  ) {}

  private row(applicationId: string, providerId: string, client: RegisteredClient) {
    const now = this.now();
    return {
      application_id: applicationId,
      provider_id: providerId,
      client_id: client.client_id,
      registration_access_token: client.registration_access_token ?? null,
      registration_client_uri: client.registration_client_uri ?? null,
      created_at: now,
      updated_at: now,
    };
  }

  private async remove(client: RegisteredClient): Promise<void> {
    if (!client.registration_client_uri || !client.registration_access_token) return;
    try {
      await this.dcr.delete(client.registration_client_uri, client.registration_access_token);
    } catch (error) {
      this.log.warn(
        { client: client.client_id, err: error },
        'client registration: the client could not be deleted',
      );
    }
  }

  /** Registers the client of a new application at the provider, when one is defined. */
  async register(name: string, oauth: OAuthSettings): Promise<PendingRegistration | undefined> {
    const [provider] = await findClientRegistrationProviders(this.db);
    if (!provider) return undefined;
    const client = await this.dcr.register(toDcrProvider(provider), clientMetadata(name, oauth));
    if (!client.client_secret) {
      this.log.warn({ client: client.client_id }, 'client registration: the provider gave no client secret');
      await this.remove(client);
      throw providerUnusable();
    }
    return {
      client_id: client.client_id,
      client_secret: client.client_secret,
      save: (trx, applicationId) =>
        saveApplicationRegistration(trx, this.row(applicationId, provider.id, client)),
      abandon: () => this.remove(client),
    };
  }

  /**
   * A new client secret for a registered application: RFC 7592 lets the provider answer one to an update
   * of the client; a provider that keeps the secret gets a new client registered in place of the old one
   * (the client id changes then). Undefined for an application that was not registered.
   */
  async renew(
    applicationId: string,
    name: string,
    oauth: OAuthSettings,
  ): Promise<Omit<PendingRegistration, 'abandon'> | undefined> {
    const registration = await findApplicationRegistration(this.db, applicationId);
    if (!registration) return undefined;
    const provider = await findClientRegistrationProviderById(this.db, registration.provider_id);
    if (!provider || !registration.registration_client_uri || !registration.registration_access_token) {
      this.log.warn({ application: applicationId }, 'client registration: the client can not be managed');
      throw providerUnusable();
    }
    const metadata = clientMetadata(name, oauth);
    const updated = await this.dcr.update(
      registration.registration_client_uri,
      registration.registration_access_token,
      {
        ...metadata,
        client_id: registration.client_id,
      },
    );
    if (updated.client_secret && updated.client_secret !== oauth.client_secret) {
      const row = {
        ...this.row(applicationId, provider.id, { ...updated, client_id: registration.client_id }),
        registration_access_token:
          updated.registration_access_token ?? registration.registration_access_token,
        registration_client_uri: updated.registration_client_uri ?? registration.registration_client_uri,
      };
      return {
        client_id: registration.client_id,
        client_secret: updated.client_secret,
        save: (trx) => saveApplicationRegistration(trx, row),
      };
    }
    const client = await this.dcr.register(toDcrProvider(provider), metadata);
    if (!client.client_secret) {
      await this.remove(client);
      throw providerUnusable();
    }
    await this.remove({
      client_id: registration.client_id,
      registration_client_uri: registration.registration_client_uri,
      registration_access_token: updated.registration_access_token ?? registration.registration_access_token,
    });
    const row = this.row(applicationId, provider.id, client);
    return {
      client_id: client.client_id,
      client_secret: client.client_secret,
      save: (trx) => saveApplicationRegistration(trx, row),
    };
  }

  /** Deletes the client of a deleted application at the provider (a failure is logged, not raised). */
  async unregister(applicationId: string): Promise<void> {
    const registration = await findApplicationRegistration(this.db, applicationId);
    if (!registration) return;
    await this.remove({
      client_id: registration.client_id,
      registration_client_uri: registration.registration_client_uri ?? undefined,
      registration_access_token: registration.registration_access_token ?? undefined,
    });
    await deleteApplicationRegistration(this.db, applicationId);
  }
}
