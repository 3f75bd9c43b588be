import { DomainError, invalidField, notFound } from '@portico/model';
import type { Database, UserRow } from '@portico/storage';
import { findIdentityProviderById, findUserBySource, insertUser, updateUser } from '@portico/storage';
import type { Kysely } from 'kysely';
import { decodeJwt } from 'jose';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { auditedUser } from '../users/users.mapper.js';
import { endpointsOf } from './providers.js';

export interface CodeExchange {
  code: string;
  state: string;
  nonce?: string | undefined;
  redirect_uri: string;
}

/** Where each profile field is read from in the provider's user info (the provider's userProfileMapping). */
interface ProfileMapping {
  id: string;
  firstname: string;
  lastname: string;
  email: string;
  picture: string;
}

const DEFAULT_MAPPING: ProfileMapping = {
  id: 'sub',
  firstname: 'given_name',
  lastname: 'family_name',
  email: 'email',
  picture: 'picture',
};
const GITHUB_MAPPING: ProfileMapping = {
  id: 'id',
  firstname: 'name',
  lastname: '',
  email: 'email',
  picture: 'avatar_url',
};
const EXCHANGE_TIMEOUT_MS = 10_000;

export const socialLoginFailed = (reason: string) =>
  new DomainError(401, `Authentication with the identity provider failed: ${reason}`, 'SOCIAL_LOGIN_FAILED');

/**
 * Sign-in with a social identity provider (OAuth2 authorization code flow): the browser brings back the
 * code; the server exchanges it at the provider's token endpoint (server to server, with the client
 * secret), checks the OpenID nonce, reads the user info, and finds or creates the user of that
 * provider. The caller then opens a session as for a password sign-in.
 */
export class SocialLoginService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  async authenticate(providerId: string, exchange: CodeExchange): Promise<UserRow> {
    const provider = await findIdentityProviderById(this.db, providerId);
    if (!provider || provider.enabled !== 1) throw notFound('Identity provider', providerId);
    const config = JSON.parse(provider.configuration) as Record<string, unknown>;
    const endpoints = endpointsOf(provider);
    if (!endpoints.tokenEndpoint || !endpoints.userInfoEndpoint) {
      throw invalidField('providerId', 'the identity provider has no token or user info endpoint');
    }
    const clientId = String(config.clientId ?? '');
    const clientSecret = String(config.clientSecret ?? '');
    const tokenResponse = await this.post(endpoints.tokenEndpoint, {
      grant_type: 'authorization_code',
      code: exchange.code,
      redirect_uri: exchange.redirect_uri,
      client_id: clientId,
      client_secret: clientSecret,
    });
    const accessToken =
      typeof tokenResponse.access_token === 'string' ? tokenResponse.access_token : undefined;
    if (!accessToken) throw socialLoginFailed('no access token');
    // The ID token comes straight from the token endpoint over TLS: its nonce is what must match.
    if (typeof tokenResponse.id_token === 'string' && exchange.nonce !== undefined) {
      let nonce: unknown;
      try {
        nonce = decodeJwt(tokenResponse.id_token).nonce;
      } catch {
        throw socialLoginFailed('unreadable ID token');
      }
      if (nonce !== exchange.nonce) throw socialLoginFailed('the nonce does not match');
    }
    const profile = await this.get(endpoints.userInfoEndpoint, accessToken);
    const mapping: ProfileMapping = {
      ...(provider.type.toLowerCase() === 'github' ? GITHUB_MAPPING : DEFAULT_MAPPING),
      ...(JSON.parse(provider.user_profile_mapping) as Partial<ProfileMapping>),
    };
    const field = (name: keyof ProfileMapping) => {
      const v = mapping[name] ? profile[mapping[name]] : undefined;
      return v === undefined || v === null || v === '' ? null : String(v);
    };
    const sourceId = field('id');
    if (!sourceId) throw socialLoginFailed(`the user info has no "${mapping.id}"`);
    const email = field('email');
    if (provider.email_required === 1 && !email)
      throw socialLoginFailed('the identity provider gave no email address');
    return this.upsertUser(provider.id, sourceId, {
      email,
      firstname: field('firstname'),
      lastname: field('lastname'),
    });
  }

  private async upsertUser(
    source: string,
    sourceId: string,
    profile: { email: string | null; firstname: string | null; lastname: string | null },
  ): Promise<UserRow> {
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      const existing = await findUserBySource(trx, source, sourceId);
      if (existing) {
        if (existing.status !== 'ACTIVE') throw socialLoginFailed('this account is disabled');
        const changes = {
          ...profile,
          login_count: existing.login_count + 1,
          last_connection_at: now,
          updated_at: now,
        };
        await updateUser(trx, existing.id, changes);
        await this.audit.record(trx, {
          referenceType: 'ENVIRONMENT',
          referenceId: 'DEFAULT',
          userId: existing.id,
          event: 'USER_CONNECTED',
          properties: { USER: existing.id, IDENTITY_PROVIDER: source },
        });
        return { ...existing, ...changes };
      }
      const row: UserRow = {
        id: newId(),
        source,
        source_id: sourceId,
        ...profile,
        password: null,
        picture: null,
        status: 'ACTIVE',
        login_count: 1,
        last_connection_at: now,
        created_at: now,
        updated_at: now,
        sessions_valid_after: null,
        kept_session_id: null,
      };
      await insertUser(trx, row);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: row.id,
        event: 'USER_CREATED',
        properties: { USER: row.id, IDENTITY_PROVIDER: source },
        after: auditedUser(row),
      });
      return row;
    });
  }

  private async post(url: string, form: Record<string, string>): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(form),
        signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
      });
    } catch (error) {
      throw socialLoginFailed(
        `token endpoint unreachable (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok)
      throw socialLoginFailed(
        String(body.error_description ?? body.error ?? `token endpoint answered ${res.status}`),
      );
    return body;
  }

  private async get(url: string, accessToken: string): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
      });
    } catch (error) {
      throw socialLoginFailed(
        `user info endpoint unreachable (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    if (!res.ok) throw socialLoginFailed(`user info endpoint answered ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  }
}
