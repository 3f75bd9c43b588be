import { DomainError, invalidField, notFound } from '@portico/model';
import type { Database, Executor, UserRow } from '@portico/storage';
import { findIdentityProviderById, findUserBySource, insertUser, updateUser } from '@portico/storage';
import type { Kysely } from 'kysely';
import { decodeJwt } from 'jose';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { acceptInvitations } from '../groups/invitation-links.js';
import { auditedUser } from '../users/users.mapper.js';
import { groupMappingsOf, profileMappingOf, roleMappingsOf } from '../identities/identities.mapper.js';
import { mappedClaim } from './mappings.js';
import { endpointsOf } from './providers.js';
import { applyMappings } from './social-memberships.js';

export interface CodeExchange {
  code: string;
  state: string;
  nonce?: string | undefined;
  redirect_uri: string;
}

const EXCHANGE_TIMEOUT_MS = 10_000;

/** What the person signing in sees when the provider cannot be reached or answers an error. */
export const PROVIDER_UNAVAILABLE = 'the identity provider could not be reached or refused the sign-in';

interface Log {
  warn(obj: object, msg: string): void;
}

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
    private readonly log: Log = { warn: () => undefined },
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
    const mapping = profileMappingOf(provider);
    const field = (name: keyof typeof mapping) => mappedClaim(profile, mapping[name]);
    const sourceId = field('id');
    if (!sourceId) throw socialLoginFailed(`the user info has no "${mapping.id}"`);
    const email = field('email');
    if (provider.email_required === 1 && !email)
      throw socialLoginFailed('the identity provider gave no email address');
    const picture = field('picture');
    return this.upsertUser(
      provider.id,
      sourceId,
      {
        email,
        firstname: field('firstname'),
        lastname: field('lastname'),
        ...(picture ? { picture } : {}),
      },
      (trx, userId) =>
        applyMappings(trx, {
          providerId: provider.id,
          userId,
          profile,
          groupMappings: groupMappingsOf(provider),
          roleMappings: roleMappingsOf(provider),
          now: this.now(),
          log: this.log,
        }),
    );
  }

  private async upsertUser(
    source: string,
    sourceId: string,
    profile: { email: string | null; firstname: string | null; lastname: string | null; picture?: string },
    mappings: (trx: Executor, userId: string) => Promise<void>,
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
        await mappings(trx, existing.id);
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
        picture: profile.picture ?? null,
        status: 'ACTIVE',
        login_count: 1,
        last_connection_at: now,
        created_at: now,
        updated_at: now,
        sessions_valid_after: null,
        kept_session_id: null,
      };
      await insertUser(trx, row);
      await mappings(trx, row.id);
      // Pending group invitations of this email become memberships, as for a finished registration.
      await acceptInvitations(trx, row, now);
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
      this.log.warn({ url, err: error }, 'social login: token endpoint unreachable');
      throw socialLoginFailed(PROVIDER_UNAVAILABLE);
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) {
      this.log.warn({ url, status: res.status, error: body.error }, 'social login: token endpoint refused');
      // An expired or reused code is the provider's `invalid_grant`: say so, without its details.
      throw socialLoginFailed(
        body.error === 'invalid_grant'
          ? 'the authorization code is invalid or expired'
          : PROVIDER_UNAVAILABLE,
      );
    }
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
      this.log.warn({ url, err: error }, 'social login: user info endpoint unreachable');
      throw socialLoginFailed(PROVIDER_UNAVAILABLE);
    }
    const body = (await res.json().catch(() => undefined)) as unknown;
    if (!res.ok || body === null || typeof body !== 'object' || Array.isArray(body)) {
      this.log.warn({ url, status: res.status }, 'social login: user info endpoint refused');
      throw socialLoginFailed(PROVIDER_UNAVAILABLE);
    }
    return body as Record<string, unknown>;
  }
}
