import type { DeployedApi, DeployedPlan, Paths, PlanSecurity } from '@portico/model';
import { ApiKeySecurityDefinition, loggingConditionEnd, policyOfStep } from '@portico/model';
import { POLICIES } from '../policies/registry.js';
import { compileCondition } from '../expressions/cel.js';
import type { ServiceDiscovery } from '../discovery/discovery.js';
import { buildGroup } from '../proxy/endpoints.js';
import { servesApi } from '../sync/sharding.js';
import { compilePlanSecurity } from '../security/plan-security.js';
import type { CompiledApi, CompiledFlow, CompiledPlan, CompiledStep } from './compiled.js';

/** `/orders/:id` -> a prefix regex where `:id` is one segment. */
function pathPattern(path: string): RegExp {
  const normalised = path.replace(/\/+$/, '');
  if (normalised === '') return /^/;
  const source = normalised
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}(?:/|$)`);
}

export function compileFlows(paths: Paths, where: string): CompiledFlow[] {
  const flows = Object.entries(paths).map(([path, steps]) => ({
    path,
    pattern: pathPattern(path),
    steps: steps
      .filter((s) => s.enabled !== false)
      .map((step): CompiledStep => {
        const found = policyOfStep(step);
        if (!found) throw new Error(`${where}: a step of path ${path} names no policy`);
        const policy = POLICIES.get(found.policy);
        if (!policy) throw new Error(`${where}: unknown policy ${found.policy}`);
        const parsed = policy.configSchema.safeParse(found.configuration ?? {});
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw new Error(`${where}: policy ${found.policy}: ${issue.path.join('.')} ${issue.message}`);
        }
        return {
          policy,
          config: parsed.data,
          methods: step.methods && step.methods.length > 0 ? new Set(step.methods) : undefined,
        };
      }),
  }));
  // Longest path first: the best match is the first that matches.
  return flows.sort((a, b) => b.path.length - a.path.length);
}

/** The flow of the longest path matching the request path, if any. */
export function matchFlow(flows: CompiledFlow[], pathInfo: string): CompiledFlow | undefined {
  const path = pathInfo || '/';
  for (const flow of flows) if (flow.pattern.test(path)) return flow;
  return undefined;
}

const needs = (flows: CompiledFlow[], hook: 'onRequestContent' | 'onResponseContent') =>
  flows.some((f) => f.steps.some((s) => s.policy[hook] !== undefined));

/**
 * Compiles a deployed API for a gateway of this tenant and these sharding tags (a plan with tags is
 * served only where they match); throws with a clear message when its definition cannot run. With
 * `discovery`, the groups with service discovery enabled start theirs (stopped by closeGroups).
 */
export function compileApi(
  deployed: DeployedApi,
  tenant: string | undefined,
  gatewayTags: readonly string[] = [],
  discovery?: ServiceDiscovery,
): CompiledApi {
  const def = deployed.definition;
  const where = `API ${deployed.name} (${deployed.id})`;
  const plans = new Map<PlanSecurity, CompiledPlan[]>();
  for (const plan of [...deployed.plans].sort((a, b) => a.order - b.order)) {
    if (plan.status !== 'PUBLISHED' && plan.status !== 'DEPRECATED') continue;
    if (plan.tags.length > 0 && !servesApi(gatewayTags, plan.tags)) continue;
    const list = plans.get(plan.security) ?? [];
    list.push({
      plan,
      flows: compileFlows(plan.paths, `${where}, plan ${plan.name}`),
      security: compilePlanSecurity(plan, def.resources),
      propagateApiKey: plan.security === 'API_KEY' && apiKeyDefinition(plan).propagateApiKey,
    });
    plans.set(plan.security, list);
  }
  const flows = compileFlows(def.paths, where);
  const entrypoints =
    def.proxy.virtual_hosts && def.proxy.virtual_hosts.length > 0
      ? def.proxy.virtual_hosts.map((v) => ({
          host: v.host?.toLowerCase() || undefined,
          path: trimSlash(v.path),
        }))
      : [{ host: undefined, path: trimSlash(def.proxy.context_path ?? '/') }];
  const allFlows = [...flows, ...[...plans.values()].flat().flatMap((p) => p.flows)];
  const logging = def.proxy.logging;
  return {
    id: deployed.id,
    name: deployed.name,
    deployed,
    entrypoints,
    stripContextPath: def.proxy.strip_context_path,
    preserveHost: def.proxy.preserve_host,
    plans,
    flows,
    failover: def.proxy.failover,
    cors: def.proxy.cors?.enabled ? def.proxy.cors : undefined,
    logging: {
      mode: logging?.mode ?? 'NONE',
      condition: logging?.condition?.trim() ? compileCondition(logging.condition) : undefined,
      until: loggingConditionEnd(logging?.condition),
    },
    tracing: {
      enabled: def.proxy.tracing?.enabled ?? true,
      samplingRatio: def.proxy.tracing?.sampling_ratio,
    },
    templates: def.response_templates,
    properties: Object.fromEntries(def.properties.map((p) => [p.key, p.value])),
    pathMappings: def.path_mappings.map((path) => ({ path, pattern: mappingPattern(path) })),
    bufferRequest: needs(allFlows, 'onRequestContent'),
    bufferResponse: needs(allFlows, 'onResponseContent'),
    // Last: nothing after it can throw and leave a discovery timer running.
    groups: def.proxy.groups.map((g) => buildGroup(g, tenant, discovery?.forApi(deployed.id))),
  };
}

function apiKeyDefinition(plan: DeployedPlan) {
  try {
    const parsed = ApiKeySecurityDefinition.safeParse(JSON.parse(plan.securityDefinition ?? '{}'));
    return parsed.success ? parsed.data : ApiKeySecurityDefinition.parse({});
  } catch {
    return ApiKeySecurityDefinition.parse({});
  }
}

function mappingPattern(mapping: string): RegExp {
  const source = mapping
    .split('/')
    .map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

function trimSlash(path: string): string {
  const p = path.startsWith('/') ? path : `/${path}`;
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}
