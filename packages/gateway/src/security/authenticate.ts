import type { PlanSecurity } from '@portico/model';
import type { CompiledApi } from '../router/compiled.js';
import type { Deny, GatewayRequest } from '../policies/policy.js';
import { deny } from '../policies/policy.js';
import type { AccessState } from '../sync/access-state.js';
import { subscriptionActive } from '../sync/access-state.js';
import type { Authenticated, SecurityOptions } from './security.types.js';
import type { TokenVerifier } from './tokens.js';

function header(request: GatewayRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const has = (api: CompiledApi, security: PlanSecurity) => (api.plans.get(security)?.length ?? 0) > 0;

/**
 * Plan selection by the credentials presented (as Gravitee does): an API key selects the API key
 * plans, a bearer token the JWT and OAuth2 plans, nothing the key-less plan. Refusals are returned
 * with the response template key of the failure.
 */
export function authenticate(
  api: CompiledApi,
  request: GatewayRequest,
  access: AccessState,
  tokens: TokenVerifier,
  options: SecurityOptions,
  now: number,
): Authenticated | Deny | Promise<Authenticated | Deny> {
  const key =
    header(request, options.apiKeyHeader) ?? request.query.get(options.apiKeyQueryParam) ?? undefined;
  const authorization = header(request, 'authorization');
  const bearer =
    authorization && /^Bearer\s+/i.test(authorization)
      ? authorization.replace(/^Bearer\s+/i, '').trim()
      : undefined;

  if (key !== undefined && has(api, 'API_KEY')) {
    const info = access.keys.get(key);
    const plan =
      info && info.apiId === api.id
        ? api.plans.get('API_KEY')!.find((p) => p.plan.id === info.planId)
        : undefined;
    const subscription = info ? access.subscriptions.get(info.subscriptionId) : undefined;
    if (
      !info ||
      !plan ||
      info.revoked ||
      info.paused ||
      (info.expireAt !== null && info.expireAt <= now) ||
      !subscriptionActive(subscription, now)
    ) {
      return deny(401, 'API_KEY_INVALID', 'API Key is not valid or is expired / revoked.');
    }
    return {
      plan,
      consumer: {
        planId: plan.plan.id,
        applicationId: info.applicationId,
        subscriptionId: info.subscriptionId,
        apiKey: key,
        securityType: 'API_KEY',
      },
    };
  }

  if (bearer !== undefined && (has(api, 'JWT') || has(api, 'OAUTH2'))) {
    // Only tokens are checked asynchronously (a JWKS or an introspection may be fetched).
    return tokens.authenticate(api, bearer, access, now).then((result) => {
      // The plan may keep the token from the backend (propagateAuthHeader: false).
      if ('plan' in result && result.plan.security?.definition.propagateAuthHeader === false)
        delete request.headers.authorization;
      return result;
    });
  }

  const keyless = api.plans.get('KEY_LESS')?.[0];
  if (keyless) return { plan: keyless, consumer: { planId: keyless.plan.id, securityType: 'KEY_LESS' } };
  if (has(api, 'API_KEY')) return deny(401, 'API_KEY_MISSING', 'API Key is missing');
  if (has(api, 'JWT') || has(api, 'OAUTH2')) return deny(401, 'GATEWAY_OAUTH2_ACCESS_DENIED', 'Unauthorized');
  return deny(401, 'GATEWAY_PLAN_UNRESOLVABLE', 'Unauthorized');
}
