import { jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import type { CompiledApi, CompiledPlan } from '../router/compiled.js';
import type { Deny } from '../policies/policy.js';
import { deny } from '../policies/policy.js';
import type { AccessState } from '../sync/access-state.js';
import { subscriptionActive } from '../sync/access-state.js';
import type { OAuth2ResourceConfig } from './plan-security.js';
import type { Authenticated } from './security.types.js';

const INTROSPECTION_TIMEOUT_MS = 5000;

type Introspection = Record<string, unknown> | null;

/** Verifies bearer tokens of JWT plans (given key or JWKS URL) and OAuth2 plans (introspection). */
export class TokenVerifier {
  private readonly introspections = new LRUCache<string, { payload: Introspection }>({ max: 10_000 });
  /** Introspections under way: concurrent requests with one token share one call. */
  private readonly inFlight = new Map<string, Promise<Introspection>>();

  async authenticate(
    api: CompiledApi,
    token: string,
    access: AccessState,
    now: number,
  ): Promise<Authenticated | Deny> {
    let verifiedButNoSubscription = false;
    for (const plan of api.plans.get('JWT') ?? []) {
      const security = plan.security;
      if (security?.kind !== 'JWT') continue;
      let payload: JWTPayload;
      try {
        const key = await security.key();
        const options = { algorithms: security.algorithms, currentDate: new Date(now) };
        payload =
          typeof key === 'function'
            ? (await jwtVerify(token, key, options)).payload
            : (await jwtVerify(token, key, options)).payload;
      } catch {
        continue;
      }
      const def = security.definition;
      const clientId =
        stringClaim(payload, def.clientIdClaim) ?? stringClaim(payload, 'azp') ?? stringClaim(payload, 'aud');
      const found = clientId ? this.subscription(api, plan, clientId, access, now) : undefined;
      if (!found) {
        verifiedButNoSubscription = true;
        continue;
      }
      return {
        plan,
        consumer: {
          planId: plan.plan.id,
          applicationId: found.applicationId,
          subscriptionId: found.id,
          user: stringClaim(payload, def.userClaim),
          securityType: 'JWT',
        },
      };
    }
    for (const plan of api.plans.get('OAUTH2') ?? []) {
      const result = await this.introspect(api, plan, token, access, now);
      if (result === 'no-subscription') verifiedButNoSubscription = true;
      else if (result) return result;
    }
    return verifiedButNoSubscription
      ? deny(403, 'GATEWAY_OAUTH2_INVALID_CLIENT', 'No active subscription for this client')
      : deny(401, 'GATEWAY_OAUTH2_ACCESS_DENIED', 'Invalid or expired token');
  }

  private subscription(
    api: CompiledApi,
    plan: CompiledPlan,
    clientId: string,
    access: AccessState,
    now: number,
  ) {
    return access
      .subscriptionsOfClient(api.id, clientId)
      .find((s) => s.planId === plan.plan.id && subscriptionActive(s, now));
  }

  private async introspect(
    api: CompiledApi,
    plan: CompiledPlan,
    token: string,
    access: AccessState,
    now: number,
  ): Promise<Authenticated | Deny | 'no-subscription' | undefined> {
    const security = plan.security;
    if (security?.kind !== 'OAUTH2' || !security.resource) return undefined;
    const config = security.resource;
    const payload = await this.introspection(config, token, now);
    if (!payload || payload.active !== true) return undefined;
    if (typeof payload.exp === 'number' && payload.exp * 1000 <= now) return undefined;
    const clientId = stringClaim(payload, config.clientIdClaim);
    const found = clientId ? this.subscription(api, plan, clientId, access, now) : undefined;
    if (!found) return 'no-subscription';
    const def = security.definition;
    if (def.checkRequiredScopes) {
      const scopes = new Set(String(payload.scope ?? '').split(config.scopeSeparator));
      if (!def.requiredScopes.every((s) => scopes.has(s))) {
        return deny(403, 'OAUTH2_INSUFFICIENT_SCOPE', 'The token does not hold the required scopes');
      }
    }
    return {
      plan,
      consumer: {
        planId: plan.plan.id,
        applicationId: found.applicationId,
        subscriptionId: found.id,
        user: stringClaim(payload, 'sub') ?? stringClaim(payload, 'username'),
        securityType: 'OAUTH2',
      },
    };
  }

  /** The introspection answer for a token: from the cache when the resource allows it, else asked. */
  private async introspection(
    config: OAuth2ResourceConfig,
    token: string,
    now: number,
  ): Promise<Introspection> {
    const cacheKey = `${config.introspectionEndpoint}\n${config.clientId}\n${token}`;
    if (config.introspectionCacheSeconds > 0) {
      const cached = this.introspections.get(cacheKey);
      if (cached) return cached.payload;
    }
    let pending = this.inFlight.get(cacheKey);
    if (!pending) {
      pending = this.callIntrospection(config, token).finally(() => this.inFlight.delete(cacheKey));
      this.inFlight.set(cacheKey, pending);
    }
    const payload = await pending;
    if (config.introspectionCacheSeconds > 0) {
      const untilExpiry = typeof payload?.exp === 'number' ? payload.exp * 1000 - now : Infinity;
      const ttl = Math.min(config.introspectionCacheSeconds * 1000, untilExpiry);
      if (ttl > 0) this.introspections.set(cacheKey, { payload }, { ttl });
    }
    return payload;
  }

  private async callIntrospection(config: OAuth2ResourceConfig, token: string): Promise<Introspection> {
    try {
      const res = await fetch(config.introspectionEndpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token }).toString(),
        signal: AbortSignal.timeout(INTROSPECTION_TIMEOUT_MS),
      });
      if (!res.ok) return null;
      return (await res.json()) as Record<string, unknown>;
    } catch {
      return null;
    }
  }
}

function stringClaim(payload: Record<string, unknown>, claim: string): string | undefined {
  const v = payload[claim];
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}
