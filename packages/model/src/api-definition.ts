import { z } from 'zod';

/**
 * The API definition: what the gateway runs and what an export writes (console-apis.md section 3).
 * Field names are those of the wire (snake_case where the spec uses it). Defaults are the spec's.
 */

export const HTTP_METHODS = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'HEAD',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'CONNECT',
] as const;
export const HttpMethod = z.enum(HTTP_METHODS);
export type HttpMethod = z.infer<typeof HttpMethod>;

export const LOAD_BALANCING_TYPES = [
  'ROUND_ROBIN',
  'RANDOM',
  'WEIGHTED_ROUND_ROBIN',
  'WEIGHTED_RANDOM',
] as const;
export const LOGGING_MODES = ['NONE', 'CLIENT', 'PROXY', 'CLIENT_PROXY'] as const;

export const HttpClientOptions = z.object({
  connectTimeout: z.number().int().min(0).default(5000),
  readTimeout: z.number().int().min(0).default(10000),
  idleTimeout: z.number().int().min(0).default(60000),
  maxConcurrentConnections: z.number().int().min(10).default(100),
  keepAlive: z.boolean().default(true),
  pipelining: z.boolean().default(false),
  useCompression: z.boolean().default(true),
  followRedirects: z.boolean().default(false),
  encodeURI: z.boolean().default(false),
});
export type HttpClientOptions = z.infer<typeof HttpClientOptions>;

export const HttpProxyOptions = z.object({
  enabled: z.boolean().default(false),
  useSystemProxy: z.boolean().default(false),
  type: z.enum(['HTTP', 'SOCKS4', 'SOCKS5']).default('HTTP'),
  host: z.string().optional(),
  port: z.number().int().min(0).max(65536).optional(),
  username: z.string().optional(),
  password: z.string().optional(),
});
export type HttpProxyOptions = z.infer<typeof HttpProxyOptions>;

const StoreType = z.enum(['', 'JKS', 'PKCS12', 'PEM']);
export const TrustStore = z.object({
  type: StoreType.default(''),
  path: z.string().optional(),
  content: z.string().optional(),
  password: z.string().optional(),
});
export const KeyStore = TrustStore.extend({
  certPath: z.string().optional(),
  certContent: z.string().optional(),
  keyPath: z.string().optional(),
  keyContent: z.string().optional(),
});
export const SslOptions = z.object({
  trustAll: z.boolean().default(false),
  hostnameVerifier: z.boolean().default(true),
  trustStore: TrustStore.optional(),
  keyStore: KeyStore.optional(),
});
export type SslOptions = z.infer<typeof SslOptions>;

/** Headers sent to the backend: a name -> value map (the console edits name/value pairs). */
export const EndpointHeaders = z.record(z.string(), z.string());

export const HealthCheckRequest = z.object({
  method: z.enum(['GET', 'POST', 'PUT']).default('GET'),
  path: z.string().default('/'),
  fromRoot: z.boolean().default(false),
  body: z.string().max(1000).optional(),
  headers: z.array(z.object({ name: z.string().min(1), value: z.string().min(1) })).default([]),
});
export const HealthCheckStep = z.object({
  name: z.string().optional(),
  request: HealthCheckRequest,
  response: z.object({ assertions: z.array(z.string().min(1)).default(['#response.status == 200']) }),
});
export const TimeUnit = z.enum(['MILLISECONDS', 'SECONDS', 'MINUTES', 'HOURS', 'DAYS']);
export const HealthCheckService = z.object({
  enabled: z.boolean().default(false),
  inherit: z.boolean().optional(),
  trigger: z.object({ rate: z.number().int().min(1), unit: TimeUnit }).optional(),
  steps: z.array(HealthCheckStep).optional(),
});
export type HealthCheckService = z.infer<typeof HealthCheckService>;

export const Endpoint = z.object({
  name: z
    .string()
    .min(1)
    .refine((n) => !n.includes(':'), 'Endpoint name does not support : in its name.'),
  target: z.string().min(1),
  weight: z.number().int().min(1).max(99).default(1),
  backup: z.boolean().default(false),
  /** Takes the HTTP configuration of its group. */
  inherit: z.boolean().default(true),
  tenants: z.array(z.string()).default([]),
  type: z.string().default('HTTP'),
  http: HttpClientOptions.optional(),
  proxy: HttpProxyOptions.optional(),
  ssl: SslOptions.optional(),
  headers: EndpointHeaders.optional(),
  healthcheck: HealthCheckService.optional(),
});
export type Endpoint = z.infer<typeof Endpoint>;

export const EndpointGroup = z.object({
  name: z.string().min(1),
  endpoints: z.array(Endpoint).default([]),
  load_balancing: z
    .object({ type: z.enum(LOAD_BALANCING_TYPES).default('ROUND_ROBIN') })
    .default({ type: 'ROUND_ROBIN' }),
  services: z
    .object({
      discovery: z
        .object({
          enabled: z.boolean().default(false),
          provider: z.string().optional(),
          configuration: z.unknown().optional(),
        })
        .optional(),
    })
    .optional(),
  http: HttpClientOptions.optional(),
  proxy: HttpProxyOptions.optional(),
  ssl: SslOptions.optional(),
  headers: EndpointHeaders.optional(),
});
export type EndpointGroup = z.infer<typeof EndpointGroup>;

export const Cors = z.object({
  enabled: z.boolean().default(false),
  allowOrigin: z.array(z.string()).default(['*']),
  allowHeaders: z.array(z.string()).default([]),
  allowMethods: z.array(z.string()).default([]),
  exposeHeaders: z.array(z.string()).default([]),
  maxAge: z.number().int().min(-1).default(-1),
  allowCredentials: z.boolean().default(false),
});
export type Cors = z.infer<typeof Cors>;

export const Failover = z.object({
  maxAttempts: z.number().int().min(1).default(1),
  retryTimeout: z.number().int().min(1).default(10000),
  cases: z.array(z.enum(['TIMEOUT'])).default(['TIMEOUT']),
});
export type Failover = z.infer<typeof Failover>;

export const Logging = z.object({
  mode: z.enum(LOGGING_MODES).default('NONE'),
  /** CEL expression, combined conditions joined with `&&`; empty means always. */
  condition: z.string().optional(),
});
export type Logging = z.infer<typeof Logging>;

/**
 * Distributed tracing of the API's calls in the gateway (issue 23): on by default when the gateway
 * traces at all; `enabled: false` switches it off for this API, `sampling_ratio` (0 to 1) replaces the
 * gateway's ratio for calls that start a trace.
 */
export const Tracing = z.object({
  enabled: z.boolean().default(true),
  sampling_ratio: z.number().min(0).max(1).optional(),
});
export type Tracing = z.infer<typeof Tracing>;

export const VirtualHost = z.object({
  host: z.string().optional(),
  path: z.string().min(1),
  override_entrypoint: z.boolean().default(false),
});
export type VirtualHost = z.infer<typeof VirtualHost>;

const CONTEXT_PATH = /^\/[A-Za-z0-9./_-]*$/;
export const CONTEXT_PATH_MESSAGE =
  "Context path is not valid (must start with a '/' and must contain any letter, capitalize letter, number, dash or underscore)";
export const CONTEXT_PATH_MAX = 256;
export const CONTEXT_PATH_TOO_LONG = `Context path has to be at most ${CONTEXT_PATH_MAX} characters long`;
export const CONTEXT_PATH_SEGMENTS = "Context path must not contain empty ('//'), '.' or '..' segments";

/**
 * What is wrong with a path where the gateway serves an API (a context path or a virtual host's path),
 * or undefined: it starts with '/', holds only letters, digits, '.', '/', '-' and '_', at most
 * CONTEXT_PATH_MAX characters, and no empty, '.' or '..' segment (a trailing '/' is allowed).
 */
export function contextPathProblem(path: string): string | undefined {
  if (path.length > CONTEXT_PATH_MAX) return CONTEXT_PATH_TOO_LONG;
  if (!CONTEXT_PATH.test(path)) return CONTEXT_PATH_MESSAGE;
  const segments = path.split('/').slice(1);
  const bad = segments.some(
    (segment, i) => segment === '.' || segment === '..' || (segment === '' && i < segments.length - 1),
  );
  return bad ? CONTEXT_PATH_SEGMENTS : undefined;
}

export const ContextPath = z
  .string()
  .min(3, 'Context path has to be more than 3 characters long')
  .max(CONTEXT_PATH_MAX, CONTEXT_PATH_TOO_LONG)
  .regex(CONTEXT_PATH, CONTEXT_PATH_MESSAGE)
  .superRefine((path, ctx) => {
    const problem = contextPathProblem(path);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const Proxy = z.object({
  context_path: ContextPath.optional(),
  virtual_hosts: z.array(VirtualHost).optional(),
  strip_context_path: z.boolean().default(false),
  preserve_host: z.boolean().default(false),
  groups: z.array(EndpointGroup).default([]),
  failover: Failover.optional(),
  cors: Cors.optional(),
  logging: Logging.optional(),
  tracing: Tracing.optional(),
});
export type Proxy = z.infer<typeof Proxy>;

/**
 * One policy of a flow, in the wire form of the spec: `methods`, `enabled`, `description`, and the
 * configuration under the policy id (`{ "methods": ["GET"], "rate-limit": { ... } }`).
 */
export const PolicyStep = z.looseObject({
  methods: z.array(HttpMethod).optional(),
  enabled: z.boolean().optional(),
  description: z.string().max(500).optional(),
});
export type PolicyStep = z.infer<typeof PolicyStep>;

const STEP_FIELDS = new Set(['methods', 'enabled', 'description', 'name', 'policyId']);

/** The policy id and configuration of a step (the one key that is not a step field). */
export function policyOfStep(step: PolicyStep): { policy: string; configuration: unknown } | undefined {
  const key = Object.keys(step).find((k) => !STEP_FIELDS.has(k));
  return key === undefined
    ? undefined
    : { policy: key, configuration: (step as Record<string, unknown>)[key] };
}

/** Policies per path: `{ "/": [ step, ... ], "/orders/:id": [...] }`. */
export const Paths = z.record(z.string(), z.array(PolicyStep));
export type Paths = z.infer<typeof Paths>;

export const Property = z.object({
  key: z.string().min(1),
  value: z.string().max(160).default(''),
  dynamic: z.boolean().default(false),
});
export type Property = z.infer<typeof Property>;

export const DynamicPropertyService = z.object({
  enabled: z.boolean().default(false),
  trigger: z.object({ rate: z.number().int().min(1), unit: z.enum(['SECONDS', 'MINUTES', 'HOURS']) }),
  provider: z.literal('HTTP').default('HTTP'),
  configuration: z.object({ url: z.string().min(1), specification: z.string().min(1) }),
});

export const Services = z.object({
  'health-check': HealthCheckService.optional(),
  'dynamic-property': DynamicPropertyService.optional(),
});
export type Services = z.infer<typeof Services>;

export const Resource = z.object({
  name: z.string().min(1),
  type: z.string().min(1),
  enabled: z.boolean().default(true),
  configuration: z.unknown().optional(),
});
export type Resource = z.infer<typeof Resource>;

export const RESPONSE_TEMPLATE_KEYS = [
  'API_KEY_MISSING',
  'API_KEY_INVALID',
  'QUOTA_TOO_MANY_REQUESTS',
  'RATE_LIMIT_TOO_MANY_REQUESTS',
  'REQUEST_CONTENT_LIMIT_TOO_LARGE',
  'REQUEST_CONTENT_LIMIT_LENGTH_REQUIRED',
  'REQUEST_VALIDATION_INVALID',
  'RESOURCE_FILTERING_FORBIDDEN',
  // Keys of the gateway's other policies, after the spec's eight.
  'IP_FILTERING_FORBIDDEN',
  'RESPONSE_VALIDATION_INVALID',
  // Keys of the gateway's own refusals (plan resolution, OAuth2/JWT, backend failures).
  'GATEWAY_PLAN_UNRESOLVABLE',
  'GATEWAY_OAUTH2_ACCESS_DENIED',
  'GATEWAY_OAUTH2_INVALID_CLIENT',
  'OAUTH2_INSUFFICIENT_SCOPE',
  'GATEWAY_NO_ENDPOINT',
  'GATEWAY_CLIENT_CONNECTION_ERROR',
  'REQUEST_TIMEOUT',
] as const;

export const ResponseTemplate = z.object({
  status: z.number().int().min(100).max(599).default(400),
  headers: z.record(z.string().min(1), z.string().min(1)).default({}),
  body: z.string().default(''),
});
/** Error key -> content type (or `*` + `/` + `*`) -> template. */
export const ResponseTemplates = z.record(z.string().min(1), z.record(z.string().min(1), ResponseTemplate));
export type ResponseTemplates = z.infer<typeof ResponseTemplates>;

/** What the gateway needs of an API: the deployed definition. */
export const ApiDefinition = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  /** Sharding tags: which gateways serve the API. */
  tags: z.array(z.string()).default([]),
  proxy: Proxy,
  paths: Paths.default({}),
  properties: z.array(Property).default([]),
  services: Services.default({}),
  resources: z.array(Resource).default([]),
  path_mappings: z.array(z.string()).default([]),
  response_templates: ResponseTemplates.default({}),
});
export type ApiDefinition = z.infer<typeof ApiDefinition>;
