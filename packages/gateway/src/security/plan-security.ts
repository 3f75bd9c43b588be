/** A plan's security, compiled once per deployment: JWT keys and OAuth2 resources. */
import { createRemoteJWKSet, importSPKI, importX509 } from 'jose';
import type { JWTVerifyGetKey, jwtVerify } from 'jose';
import { z } from 'zod';
import type { DeployedPlan, Resource } from '@portico/model';
import { JwtSecurityDefinition, OAuth2SecurityDefinition } from '@portico/model';

/** Configuration of an `oauth2` resource of an API: the authorization server that introspects tokens. */
export const OAuth2ResourceConfig = z.object({
  introspectionEndpoint: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().default(''),
  /** Claim of the introspection answer holding the application's client id. */
  clientIdClaim: z.string().default('client_id'),
  scopeSeparator: z.string().default(' '),
  /**
   * How long an introspection answer is reused, in seconds (never beyond the token's expiry). 0, the
   * default, asks the server on every request, so a revoked token is refused at once.
   */
  introspectionCacheSeconds: z.number().int().min(0).default(0),
});
export type OAuth2ResourceConfig = z.infer<typeof OAuth2ResourceConfig>;

type Key = Parameters<typeof jwtVerify>[1];
const ALGORITHMS: Record<string, string> = {
  RSA_RS256: 'RS256',
  RSA_RS384: 'RS384',
  RSA_RS512: 'RS512',
  HMAC_HS256: 'HS256',
  HMAC_HS384: 'HS384',
  HMAC_HS512: 'HS512',
};

/** A JWT or OAuth2 plan's security, compiled once per deployment. */
export type PlanSecurityRuntime =
  | {
      kind: 'JWT';
      definition: z.infer<typeof JwtSecurityDefinition>;
      algorithms: string[];
      /** The verification key, imported (or the JWKS set created) on first use, then kept. */
      key(): Promise<Key | JWTVerifyGetKey>;
    }
  | {
      kind: 'OAUTH2';
      definition: z.infer<typeof OAuth2SecurityDefinition>;
      /** Undefined when the plan names no enabled, valid oauth2 resource: its tokens are refused. */
      resource: OAuth2ResourceConfig | undefined;
    };

function jwtKey(def: z.infer<typeof JwtSecurityDefinition>, alg: string): Promise<Key | JWTVerifyGetKey> {
  const text = def.resolverParameter.trim();
  if (def.publicKeyResolver === 'JWKS_URL')
    return Promise.resolve(
      createRemoteJWKSet(new URL(text), { cacheMaxAge: 10 * 60_000, timeoutDuration: 5000 }),
    );
  if (alg.startsWith('HS')) return Promise.resolve(new TextEncoder().encode(text));
  if (text.includes('BEGIN CERTIFICATE')) return importX509(text, alg);
  return importSPKI(
    text.includes('BEGIN') ? text : `-----BEGIN PUBLIC KEY-----\n${text}\n-----END PUBLIC KEY-----`,
    alg,
  );
}

/**
 * Parses the securityDefinition of a JWT or OAuth2 plan at deployment. Undefined for other plans and for
 * a definition that cannot be read (the plan then refuses every token rather than failing the API).
 */
export function compilePlanSecurity(
  plan: DeployedPlan,
  resources: readonly Resource[],
): PlanSecurityRuntime | undefined {
  if (plan.security !== 'JWT' && plan.security !== 'OAUTH2') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(plan.securityDefinition ?? '{}');
  } catch {
    return undefined;
  }
  if (plan.security === 'JWT') {
    const def = JwtSecurityDefinition.safeParse(json);
    if (!def.success) return undefined;
    const alg = ALGORITHMS[def.data.signature]!;
    let key: Promise<Key | JWTVerifyGetKey> | undefined;
    return {
      kind: 'JWT',
      definition: def.data,
      algorithms: [alg],
      key: () => (key ??= jwtKey(def.data, alg)),
    };
  }
  const def = OAuth2SecurityDefinition.safeParse(json);
  if (!def.success) return undefined;
  const resource = resources.find((r) => r.name === def.data.oauthResource && r.enabled);
  const config = OAuth2ResourceConfig.safeParse(resource?.configuration);
  return { kind: 'OAUTH2', definition: def.data, resource: config.success ? config.data : undefined };
}
