import type { ApiDefinition, EndpointGroup, Paths, Proxy } from '@portico/model';
import {
  ApiDefinition as ApiDefinitionSchema,
  contextPathProblem,
  invalidField,
  Proxy as ProxySchema,
} from '@portico/model';
import type { ApiRow } from '@portico/storage';
import { assertValidPaths } from '../policies/policy-validation.js';
import { validateDiscovery } from './api-discovery.js';
import { validateHealthChecks } from '../health/health-check.rules.js';
import { allowOriginProblem } from './api-proxy-rights.js';
import { validateLogging } from './api-logging.js';
import { validateDesign } from './api-design-rules.js';

/** The rules of an API definition that zod alone cannot say (console-apis.md section 5), and helpers. */

export const DEFAULT_GROUP = 'default-group';
export const DEFAULT_ENDPOINT = 'default';

/** A path without its trailing slashes (`/a/` is `/a`), `/` staying `/`. */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export interface Entrypoint {
  host: string;
  path: string;
}

/** Where the gateway serves the API: its context path, or each of its virtual hosts. */
export function entrypointsOf(proxy: Proxy): Entrypoint[] {
  if (proxy.virtual_hosts && proxy.virtual_hosts.length > 0) {
    return proxy.virtual_hosts.map((v) => ({
      host: (v.host ?? '').toLowerCase(),
      path: normalizePath(v.path),
    }));
  }
  return proxy.context_path ? [{ host: '', path: normalizePath(proxy.context_path) }] : [];
}

/** The context path the lists show: the proxy's, or the first virtual host's. */
export function primaryContextPath(proxy: Proxy): string {
  return proxy.context_path ?? proxy.virtual_hosts?.[0]?.path ?? '/';
}

const sameEntrypoints = (a: Entrypoint[], b: Entrypoint[]) => {
  const key = (list: Entrypoint[]) =>
    list
      .map((e) => `${e.host} ${e.path}`)
      .sort()
      .join('\n');
  return key(a) === key(b);
};
export { sameEntrypoints };

/** The definition of a new API: one endpoint group `default-group` with one endpoint `default`. */
export function newDefinition(api: {
  id: string;
  name: string;
  version: string;
  contextPath: string;
  endpoint: string;
}): ApiDefinition {
  return ApiDefinitionSchema.parse({
    id: api.id,
    name: api.name,
    version: api.version,
    proxy: {
      context_path: api.contextPath,
      strip_context_path: false,
      groups: [{ name: DEFAULT_GROUP, endpoints: [{ name: DEFAULT_ENDPOINT, target: api.endpoint }] }],
    },
    paths: { '/': [] },
  });
}

/** The stored definition of an API, with the row's identity (rows written by hand may hold less). */
export function definitionOf(row: ApiRow): ApiDefinition {
  let raw: Record<string, unknown> = {};
  try {
    raw = JSON.parse(row.definition) as Record<string, unknown>;
  } catch {
    // An unreadable definition is served as an empty one rather than breaking every screen.
  }
  const identity = {
    id: row.id,
    name: row.name,
    version: row.version,
    tags: JSON.parse(row.tags) as string[],
  };
  const parsed = ApiDefinitionSchema.safeParse({
    proxy: { context_path: row.context_path },
    ...raw,
    ...identity,
  });
  if (parsed.success) return parsed.data;
  return ApiDefinitionSchema.parse({ ...identity, proxy: ProxySchema.parse({}) });
}

/** Path parameters (`:id`) written the same way, trailing slashes dropped: two paths that collide. */
function pathKey(path: string): string {
  return normalizePath(path).replace(/:[^/]+/g, ':');
}

/**
 * Checks a definition against the rules of section 5; 400 naming the field on the first broken rule.
 * `field` prefixes the names (`proxy.groups[0].endpoints[1].name`).
 */
export function validateDefinition(
  definition: Pick<
    ApiDefinition,
    'proxy' | 'paths' | 'properties' | 'resources' | 'path_mappings' | 'services'
  >,
): void {
  const { proxy } = definition;
  if (!proxy.context_path && !(proxy.virtual_hosts && proxy.virtual_hosts.length > 0)) {
    throw invalidField('proxy.context_path', 'Context path is required.');
  }
  const contextPath = proxy.context_path && contextPathProblem(proxy.context_path);
  if (contextPath) throw invalidField('proxy.context_path', contextPath);
  for (const [i, vhost] of (proxy.virtual_hosts ?? []).entries()) {
    const problem = contextPathProblem(vhost.path);
    if (problem) throw invalidField(`proxy.virtual_hosts.${i}.path`, problem);
  }
  validateGroups(proxy.groups);
  for (const [g, group] of proxy.groups.entries()) {
    validateHttpConfiguration(group, `proxy.groups.${g}`);
    validateDiscovery(group, `proxy.groups.${g}`);
    for (const [e, endpoint] of group.endpoints.entries()) {
      validateHttpConfiguration(endpoint, `proxy.groups.${g}.endpoints.${e}`);
    }
  }
  validateHealthChecks(definition);
  if (proxy.cors?.enabled) {
    if (proxy.cors.allowOrigin.length === 0)
      throw invalidField('proxy.cors.allowOrigin', 'Allowed origins are required.');
    if (proxy.cors.allowMethods.length === 0)
      throw invalidField('proxy.cors.allowMethods', 'Allowed methods are required.');
    for (const [i, origin] of proxy.cors.allowOrigin.entries()) {
      const problem = allowOriginProblem(origin);
      if (problem) throw invalidField(`proxy.cors.allowOrigin.${i}`, problem);
    }
  }
  validateLogging(proxy.logging);
  validatePaths(definition.paths);
  const keys = new Set<string>();
  for (const [i, property] of definition.properties.entries()) {
    if (keys.has(property.key))
      throw invalidField(`properties.${i}.key`, `the key [${property.key}] is used twice`);
    keys.add(property.key);
  }
  const resources = new Set<string>();
  for (const [i, resource] of definition.resources.entries()) {
    if (resources.has(resource.name)) {
      throw invalidField(`resources.${i}.name`, `the name [${resource.name}] is used twice`);
    }
    resources.add(resource.name);
  }
  validateDesign(definition);
}

export const PROXY_FIELDS_REQUIRED = 'type, host and port are required when the proxy is enabled';
export const STORE_PATH_OR_CONTENT = 'a path or a content is required';
export const STORE_PASSWORD = 'a password is required for JKS and PKCS12 stores';
export const PEM_KEY_STORE = 'a PEM key store needs a certificate and a key (path or content)';

type HttpConfigured = Pick<EndpointGroup, 'proxy' | 'ssl' | 'headers'>;

/** The HTTP configuration rules of section 5: enabled proxies, trust and key stores, headers. */
function validateHttpConfiguration(target: HttpConfigured, field: string): void {
  const proxy = target.proxy;
  if (proxy?.enabled && (!proxy.host || proxy.port === undefined)) {
    throw invalidField(`${field}.proxy`, PROXY_FIELDS_REQUIRED);
  }
  for (const kind of ['trustStore', 'keyStore'] as const) {
    const store = target.ssl?.[kind];
    if (!store || store.type === '') continue;
    const where = `${field}.ssl.${kind}`;
    if (store.type === 'PEM' && kind === 'keyStore') {
      const key = store as NonNullable<NonNullable<EndpointGroup['ssl']>['keyStore']>;
      if (!(key.certPath || key.certContent) || !(key.keyPath || key.keyContent))
        throw invalidField(where, PEM_KEY_STORE);
      continue;
    }
    if (!store.path && !store.content) throw invalidField(where, STORE_PATH_OR_CONTENT);
    if ((store.type === 'JKS' || store.type === 'PKCS12') && !store.password)
      throw invalidField(where, STORE_PASSWORD);
  }
  for (const [name, value] of Object.entries(target.headers ?? {})) {
    if (!name.trim() || value === '')
      throw invalidField(`${field}.headers`, 'Header names and values are required.');
  }
}

/**
 * What saving drops (section 4 and 5): a disabled health check keeps no trigger nor steps, a proxy
 * without host or port and a store without type are removed, a response template key without
 * templates is deleted.
 */
export function normalizeDefinition(definition: ApiDefinition): ApiDefinition {
  const http = <T extends HttpConfigured>(target: T): T => {
    const out = { ...target };
    if (out.proxy && !out.proxy.enabled && (!out.proxy.host || out.proxy.port === undefined))
      delete out.proxy;
    if (out.ssl) {
      const ssl = { ...out.ssl };
      if (ssl.trustStore?.type === '') delete ssl.trustStore;
      if (ssl.keyStore?.type === '') delete ssl.keyStore;
      out.ssl = ssl;
    }
    return out;
  };
  const check = <T extends { enabled: boolean; trigger?: unknown; steps?: unknown } | undefined>(c: T): T => {
    if (!c || c.enabled) return c;
    const { trigger: _t, steps: _s, ...rest } = c;
    return rest as T;
  };
  const services = { ...definition.services };
  if (services['health-check']) services['health-check'] = check(services['health-check']);
  return {
    ...definition,
    services,
    proxy: {
      ...definition.proxy,
      groups: definition.proxy.groups.map((g) => ({
        ...http(g),
        endpoints: g.endpoints.map((e) => ({
          ...http(e),
          ...(e.healthcheck ? { healthcheck: check(e.healthcheck) } : {}),
        })),
      })),
    },
    response_templates: Object.fromEntries(
      Object.entries(definition.response_templates).filter(([, byType]) => Object.keys(byType).length > 0),
    ),
  };
}

export const ENDPOINT_NAME_TAKEN = 'This name is used by another endpoint and/or an endpoint group.';

function validateGroups(groups: EndpointGroup[]): void {
  if (groups.length === 0) throw invalidField('proxy.groups', 'an API needs at least one endpoint group');
  const names = new Set<string>();
  const use = (name: string, field: string) => {
    if (names.has(name)) throw invalidField(field, ENDPOINT_NAME_TAKEN);
    names.add(name);
  };
  for (const [g, group] of groups.entries()) {
    if (group.name.includes(':')) {
      throw invalidField(`proxy.groups.${g}.name`, 'Endpoint name does not support : in its name.');
    }
    use(group.name, `proxy.groups.${g}.name`);
    for (const [e, endpoint] of group.endpoints.entries())
      use(endpoint.name, `proxy.groups.${g}.endpoints.${e}.name`);
  }
}

export const PATH_MUST_START_WITH_SLASH = 'The path must start with /';
export const PATH_ALREADY_CONFIGURED = 'This path is already configured.';

function validatePaths(paths: Paths): void {
  const seen = new Set<string>();
  for (const path of Object.keys(paths)) {
    if (!path.startsWith('/')) throw invalidField(`paths.${path}`, PATH_MUST_START_WITH_SLASH);
    const key = pathKey(path);
    if (seen.has(key)) throw invalidField(`paths.${path}`, PATH_ALREADY_CONFIGURED);
    seen.add(key);
  }
  // Every policy configuration as the gateway will run it.
  assertValidPaths(paths);
}
